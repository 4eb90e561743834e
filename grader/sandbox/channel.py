"""The trusted side of the JSON-lines pipes, with deadlines, size caps and strict checks.

Three pipes per worker process: requests (grader → worker), replies (worker →
grader) and output (the student's stdout and stderr, fd 1 and 2, drained while
waiting and kept up to a cap). A reply must be exactly one line, valid JSON,
an object whose keys and value types are the protocol's (see
:func:`check_reply`); anything else is a :class:`Broken` channel.

Every string of a reply is sanitised here (:func:`sanitized`), once, as it
enters the trusted side: what a submission writes can neither crash the grader
(lone surrogates) nor carry control or bidi characters further.

Student code runs in the worker process and can write on the reply pipe
itself. A well-formed line written ahead of the worker's own reply cannot be
told apart from it, but it is no stronger than returning that value from a
rule method; the surplus line breaks the channel on this request or, at the
latest, before the next one is sent (:meth:`Channel.pending`).
"""

from __future__ import annotations

import json
import math
import os
import select
import time
from typing import Any

from .. import sanitize

REPLY_KEYS_OK = {"ok", "state", "value"}
REPLY_KEYS_ERROR = {"ok", "error", "message", "method"}
MAX_TEXT = 500  # longest error name / message / method kept from a worker (student-controlled text)
MAX_STATE = 16384  # longest state kept (a real one is under 1,000 characters)
MAX_MOVE = 1000  # longest move name kept in a list value (a real one is under 20)


class Broken(Exception):
    """The channel failed. ``reason`` is "timeout", "eof" or "protocol"; the message is the detail."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(sanitize.text(detail, MAX_TEXT))  # details may quote what the worker sent
        self.reason = reason


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


# one decoder for every reply (json.loads with an argument would build a new one per call)
_DECODER = json.JSONDecoder(parse_constant=_no_constants)


def _decoded(text: str) -> Any:
    """``text`` as JSON, exactly as ``_DECODER.decode`` reads it (ValueError otherwise); a line
    with no white space around its value (every line the worker writes) skips decode's two scans
    for it."""
    if text and text[0] not in " \t\n\r":
        value, end = _DECODER.raw_decode(text)
        if end == len(text):
            return value
    return _DECODER.decode(text)


def check_reply(line: bytes, expected_id: int | None = None, part: int | None = None) -> dict[str, Any]:
    """The reply in ``line`` as a dict, or :class:`Broken` if it is not exactly a protocol reply.

    (A repeated key keeps its last value, as JSON parsers do: it is still only a value the worker chose.)

    On the pipe every line also carries ``"id"``, the number of the request it
    answers (0 for the handshake); with ``expected_id`` it must match and is
    removed, so a misplaced or injected line breaks the channel at once.
    The answer to inner request ``part`` of a batch also carries ``"part"``,
    which must equal it (and is removed); anywhere else ``part`` is an unexpected key.
    Success: ``ok`` true, optional ``state`` (string) and ``value`` (true/false
    or a list of strings), nothing else. Failure: ``ok`` false, ``error`` and
    ``message`` (strings), optional ``method`` (string), nothing else.
    """
    try:
        reply = _decoded(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise Broken("protocol", f"an answer that is not valid JSON ({str(error)[:80]})") from None
    if type(reply) is not dict:
        raise Broken("protocol", "an answer that is not a JSON object")
    if expected_id is not None:
        got = reply.pop("id", None)
        if type(got) is not int or got != expected_id:
            raise Broken("protocol", "an answer that does not belong to the request")
    if part is not None:
        got = reply.pop("part", None)
        if type(got) is not int or got != part:
            raise Broken("protocol", "an answer in a batch that is not the next one expected")
    ok = reply.get("ok")
    if type(ok) is not bool:
        raise Broken("protocol", "an answer without ok true/false")
    allowed = REPLY_KEYS_OK if ok else REPLY_KEYS_ERROR
    if not reply.keys() <= allowed:
        extra = sorted(set(reply) - allowed)
        raise Broken("protocol", f"an answer with unexpected key {extra[0][:40]!r}")
    if ok:
        if "state" in reply and type(reply["state"]) is not str:
            raise Broken("protocol", "a state that is not a string")
        if "value" in reply:
            value = reply["value"]
            if not (type(value) is bool or (type(value) is list and all(type(v) is str for v in value))):
                raise Broken("protocol", "a value that is neither true/false nor a list of moves")
    else:
        for key in ("error", "message"):
            if type(reply.get(key)) is not str:
                raise Broken("protocol", f"an error answer without a text {key}")
        if "method" in reply and type(reply["method"]) is not str:
            raise Broken("protocol", "an error answer whose method is not a string")
    return sanitized(reply)


def sanitized(reply: dict[str, Any]) -> dict[str, Any]:
    """A checked reply with every string made safe (:func:`grader.sanitize.text`), in place.

    This is THE boundary for text from student code: error names, messages and
    methods (one line, capped at :data:`MAX_TEXT`), states (multi-line) and
    moves. Safe text passes unchanged, so a correct answer still compares equal
    to the expected one, and no altered answer can become a correct one (an
    escape holds a backslash, which no state or move has).
    """
    for key in ("error", "message", "method"):
        if key in reply:
            reply[key] = sanitize.text(reply[key], MAX_TEXT)
    if "state" in reply:
        reply["state"] = sanitize.text(reply["state"], MAX_STATE, multiline=True)
    if type(reply.get("value")) is list:
        reply["value"] = [sanitize.text(move, MAX_MOVE) for move in reply["value"]]
    return reply


class Channel:
    """Non-blocking pipe ends held by the trusted side for one worker process."""

    def __init__(
        self, request_fd: int, reply_fd: int, output_fd: int, reply_cap: int, output_cap: int
    ) -> None:
        self.request_fd = request_fd
        self.reply_fd = reply_fd
        self.output_fd: int | None = output_fd
        self.reply_cap = reply_cap
        self.output_cap = output_cap
        for fd in (request_fd, reply_fd, output_fd):
            os.set_blocking(fd, False)
        self.buffer = bytearray()  # reply bytes read; those before ``self._read`` are consumed
        self._read = 0
        self.output = bytearray()
        self.output_total = 0
        self.poller = select.poll()
        self.poller.register(reply_fd, select.POLLIN)
        self.poller.register(output_fd, select.POLLIN)

    # -- output capture ---------------------------------------------------------
    def _drain_output(self) -> None:
        if self.output_fd is None:
            return
        while True:
            try:
                data = os.read(self.output_fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self.poller.unregister(self.output_fd)
                os.close(self.output_fd)
                self.output_fd = None
                return
            self.output_total += len(data)
            room = self.output_cap - len(self.output)
            if room > 0:
                self.output += data[:room]

    # -- requests and replies ---------------------------------------------------
    def pending(self) -> None:
        """Raise :class:`Broken` if a surplus line is already buffered. (Lines still in the pipe show
        up as the next answer, whose request id then does not match.)"""
        if len(self.buffer) > self._read:
            raise Broken("protocol", "extra output on the answer channel")

    def discard(self) -> None:
        """Forget every reply byte read so far (a new child's handshake comes next)."""
        self.buffer = bytearray()
        self._read = 0

    def send(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.request_fd, view):]
                continue
            except BlockingIOError:
                pass
            except OSError:
                raise Broken("eof", "the worker closed its request channel") from None
            writable = select.poll()
            writable.register(self.request_fd, select.POLLOUT)
            timeout = deadline - time.monotonic()
            if timeout <= 0 or not writable.poll(math.ceil(timeout * 1000)):
                raise Broken("timeout", "the worker did not read its request")

    def receive(self, deadline: float, more: bool = False) -> bytes:
        """One reply line (without the newline), read before ``deadline`` (monotonic).

        ``more``: further lines answer the same request (a batch), so what follows this line stays
        buffered; otherwise anything after it breaks the channel.
        """
        reply_fd = self.reply_fd
        while True:
            start = self._read
            end = self.buffer.find(b"\n", start)
            if end >= 0:
                if end - start > self.reply_cap:
                    raise Broken("protocol", f"an answer longer than {self.reply_cap} bytes")
                line = bytes(self.buffer[start:end])
                self._read = end + 1
                if self._read == len(self.buffer) or not more:
                    rest = self._read < len(self.buffer)
                    self.discard()
                    if rest:
                        raise Broken("protocol", "more than one answer to one request")
                return line
            if len(self.buffer) - start > self.reply_cap:
                raise Broken("protocol", f"an answer longer than {self.reply_cap} bytes")
            if start:  # keep only the unread part before reading more
                del self.buffer[:start]
                self._read = 0
            timeout = deadline - time.monotonic()
            if timeout <= 0:
                raise Broken("timeout", "no answer in time")
            for fd, _events in self.poller.poll(math.ceil(timeout * 1000)):
                if fd != reply_fd:
                    self._drain_output()
                    continue
                try:
                    data = os.read(reply_fd, 65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self._drain_output()
                    raise Broken("eof", "the worker stopped")
                self.buffer += data

    def close(self) -> None:
        """Keep whatever output is still buffered, then close every pipe end."""
        self._drain_output()
        for fd in (self.request_fd, self.reply_fd, self.output_fd):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.output_fd = None
