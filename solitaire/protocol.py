"""The rule-method protocol: JSON requests answered by a variation.

The grader never calls student code in its own process. It sends requests,
plain JSON objects, to a worker that holds one game and answers with plain
JSON objects. :func:`handle` is the worker's side (it runs next to the
student's rules file, on the grader's own copy of the engine); :class:`Worker`
is the interface the trusted side programs against; :class:`LocalWorker`
answers in-process, for trusted code (the reference) and for a student's own
public tests. The sandboxed worker in ``grader/`` implements the same interface.

Requests and replies (every reply has ``"ok"``; failures carry ``"error"``,
the exception's type name, ``"message"`` and, when known, ``"method"``, the
rule method it came from):

===========================================================  ==========================
request                                                      reply on success
===========================================================  ==========================
``{"op":"start","cards":["AS",..],"options":{..}}``          ``{"ok":true,"state":S}``
``{"op":"load","state":S}``                                  ``{"ok":true}``
``{"op":"load","state":S,"resync":true}``                    ``{"ok":true,"value":bool}``
``{"op":"state"}``                                           ``{"ok":true,"state":S}``
``{"op":"legal","move":"t3>f2"}``                            ``{"ok":true,"value":bool}``
``{"op":"apply","move":M,"stage":"full"|"move"|"effects"}``  ``{"ok":true,"state":S}``
``{"op":"moves"}``                                           ``{"ok":true,"value":[M,..]}``
``{"op":"won"}``                                             ``{"ok":true,"value":bool}``
``{"op":"call","method":NAME,"args":[..]}``                  ``{"ok":true,"value":V}``
``{"op":"batch","requests":[R,..]}``                         ``{"ok":true,"replies":[..]}``
===========================================================  ==========================

``apply`` does not check legality (the trusted side asks ``legal`` first).
Stage ``move`` carries the cards or performs the action only; ``effects`` runs
``after_move`` for ``move`` on the current state; ``full`` does both.
``call`` probes one rule method on the current state; its arguments are
``can_pick_up [pile, count]``, ``*_accepts [pile, [cards], source]``,
``special_moves []`` (value: list of moves), ``is_won []``.

``batch`` answers up to :data:`MAX_BATCH` requests in one round trip: each
inner request is answered in order, on the state the previous ones left, and
its reply is exactly the reply it would get on its own (an error reply
included: a failed inner request stops nothing). Batches do not nest.

``load`` with ``"resync": true`` is the resync the trusted side sends *ahead*,
right behind a request it expects to fail (:mod:`solitaire.ahead`): it loads
``S`` only if the request before it on this worker failed, or succeeded with
a state other than ``S`` (the trusted side resyncs after exactly these), and
its value says whether it did. So a submission whose rules fail at every call
is answered in one round trip per round of questions about a position, and on
exactly the states it would be answered on one request at a time. (The
replay sends only a state the worker has already seen this way: never one
that answers a question of the same batch.)
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import traceback
from abc import ABC, abstractmethod
from typing import Any

from .cards import parse_card
from .engine import check_move, legal_moves, move_cards, start
from .moves import parse_move
from .state import State, format_state, parse_state
from .variation import RULE_METHODS, Variation

ACCEPT_METHODS = ("foundation_accepts", "tableau_accepts", "space_accepts")
PROBE_METHODS = ("can_pick_up", *ACCEPT_METHODS, "special_moves", "is_won")
BOOL_METHODS = frozenset({"can_pick_up", *ACCEPT_METHODS, "is_won"})  # the methods answering True/False
MAX_BATCH = 256  # most requests in one batch (Worker.batch splits longer lists)


class Session:
    """The worker's side: one variation and the current state."""

    def __init__(self, variation: Variation) -> None:
        self.variation = variation
        self.state: State | None = None
        # the reply to the request before the one being answered (None: it raised through)
        self.previous: dict[str, Any] | None = None
        self._last: dict[str, Any] | None = None

    def _current(self) -> State:
        if self.state is None:
            raise ValueError("no game yet: send start or load first")
        return self.state

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer one request; never raises (failures become error replies)."""
        if request.get("op") == "batch":
            try:
                return {"ok": True, "replies": [self.handle_inner(r) for r in batch_requests(request)]}
            except Exception as error:  # noqa: BLE001 - every failure becomes a reply
                return error_reply(error, self.variation)
        # None until answered: a request that raises through (SystemExit from student code) failed
        self.previous, self._last = self._last, None
        try:
            reply = {"ok": True, **self._dispatch(request)}
        except Exception as error:  # noqa: BLE001 - every failure becomes a reply
            reply = error_reply(error, self.variation)
        self._last = reply
        return reply

    def handle_inner(self, request: Any) -> dict[str, Any]:
        """Answer one request of a batch: as :meth:`handle`, but a batch inside a batch is an error."""
        if not isinstance(request, dict):
            self._last = error_reply(TypeError("a request must be a JSON object"))
            return self._last
        if request.get("op") == "batch":
            self._last = error_reply(ValueError("a batch cannot hold another batch"))
            return self._last
        return self.handle(request)

    def _dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        v = self.variation
        if op == "start":
            cards = [parse_card(c) for c in request["cards"]]
            self.state = start(v, cards, request.get("options") or {})
            return {"state": format_state(self.state)}
        if op == "load":
            resync = request.get("resync") is True
            if resync and not needs_resync(self.previous, request["state"]):
                return {"value": False}
            self.state = parse_state(request["state"])
            return {"value": True} if resync else {}
        if op == "state":
            return {"state": format_state(self._current())}
        if op == "legal":
            return {"value": check_move(v, self._current(), parse_move(request["move"])) is None}
        if op == "apply":
            return {"state": self._apply(parse_move(request["move"]), request.get("stage", "full"))}
        if op == "moves":
            return {"value": sorted(str(m) for m in legal_moves(v, self._current()))}
        if op == "won":
            return {"value": _strict_bool(v.is_won(self._current()), "is_won")}
        if op == "call":
            return {"value": self._call(request["method"], list(request.get("args") or []))}
        raise ValueError(f"unknown op {op!r}")

    def _apply(self, move: Any, stage: str) -> str:
        if stage not in ("full", "move", "effects"):
            raise ValueError(f"unknown stage {stage!r}")
        new = self._current().copy()
        if stage in ("full", "move"):
            move_cards(self.variation, new, move)
        if stage in ("full", "effects"):
            self.variation.after_move(new, move)
        self.state = new
        return format_state(new)

    def _call(self, method: str, args: list[Any]) -> Any:
        state = self._current()
        v = self.variation
        if method == "can_pick_up":
            pile, count = args
            return _strict_bool(v.can_pick_up(state, str(pile), int(count)), method)
        if method in ACCEPT_METHODS:
            pile, cards, source = args
            value = getattr(v, method)(state, str(pile), tuple(parse_card(c) for c in cards), str(source))
            return _strict_bool(value, method)
        if method == "special_moves":
            return sorted(str(m) for m in v.special_moves(state))
        if method == "is_won":
            return _strict_bool(v.is_won(state), method)
        raise ValueError(f"cannot probe {method!r}")


def needs_resync(reply: dict[str, Any] | None, state: str) -> bool:
    """Whether the trusted side loads ``state`` after a request answered ``reply`` (None: the
    request raised through): after a failure, or a state other than the one expected."""
    if reply is None or reply.get("ok") is not True:
        return True
    return "state" in reply and reply["state"] != state


def batch_requests(request: dict[str, Any]) -> list[Any]:
    """The inner requests of a batch request (a list of at most :data:`MAX_BATCH`), or ValueError."""
    requests = request.get("requests")
    if type(requests) is not list:
        raise ValueError("a batch needs a list of requests")
    if len(requests) > MAX_BATCH:
        raise ValueError(f"a batch holds at most {MAX_BATCH} requests, not {len(requests)}")
    return requests


def _strict_bool(value: object, method: str) -> bool:
    if type(value) is not bool:
        raise TypeError(f"{method} must return True or False, not {type(value).__name__}")
    return value


def error_reply(error: BaseException, variation: Variation | None = None) -> dict[str, Any]:
    """An error reply naming the exception and, when found, the rule method it came from."""
    reply: dict[str, Any] = {"ok": False, "error": type(error).__name__, "message": str(error)[:500]}
    method = _rule_method_in(error, variation)
    if method:
        reply["method"] = method
    return reply


def _rule_method_in(error: BaseException, variation: Variation | None) -> str | None:
    if variation is None:
        return None
    module_file = getattr(sys.modules.get(type(variation).__module__), "__file__", None)
    found = None
    for frame, _line in traceback.walk_tb(error.__traceback__):  # no source lines read: cheap
        code = frame.f_code
        if code.co_name in RULE_METHODS and (module_file is None or code.co_filename == module_file):
            found = code.co_name
    return found


class WorkerError(Exception):
    """A request the worker could not answer.

    ``kind`` is ``"error"`` (student code raised; ``error`` and ``method`` say
    what and where), ``"timeout"``, ``"crashed"`` or ``"protocol"`` (a reply
    that breaks the protocol). Raised by :meth:`Worker.batch`, ``answered``
    holds the inner replies received before the failure, which belongs to the
    next inner request (none: the failure could not be placed, it is the first's).
    """

    def __init__(self, kind: str, message: str, error: str = "", method: str = "",
                 answered: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.error = error
        self.method = method
        self.answered: list[dict[str, Any]] = list(answered or [])


def checked_ok(reply: dict[str, Any]) -> dict[str, Any]:
    """``reply`` if it reports success; else :class:`WorkerError` (``error``, or ``protocol`` without ok)."""
    if reply.get("ok") is not True:
        if reply.get("ok") is False:
            raise WorkerError(
                "error",
                str(reply.get("message", "")),
                str(reply.get("error", "")),
                str(reply.get("method", "")),
            )
        raise WorkerError("protocol", "reply without ok")
    return reply


def checked_value(reply: dict[str, Any], kind: type) -> Any:
    """The ``value`` of a successful reply, checked to be a bool or a list of move strings."""
    value = checked_ok(reply).get("value")
    if kind is bool and type(value) is not bool:
        raise WorkerError("protocol", f"expected true or false, got {type(value).__name__}")
    if kind is list and not (
        type(value) is list and all(type(item) is str for item in value)
    ):
        raise WorkerError("protocol", "expected a list of moves")
    return value


def checked_state(reply: dict[str, Any]) -> str:
    """The ``state`` text of a successful reply."""
    state = checked_ok(reply).get("state")
    if type(state) is not str:
        raise WorkerError("protocol", "expected a state text")
    return state


def checked_batch(reply: dict[str, Any], count: int) -> list[dict[str, Any]]:
    """The inner replies of a batch reply: exactly ``count`` JSON objects, each with ok true or false.

    A malformed inner reply is a ``protocol`` error placed at its index (``answered``: the ones before).
    """
    replies = checked_ok(reply).get("replies")
    if type(replies) is not list:
        raise WorkerError("protocol", "a batch reply without a list of replies")
    if len(replies) != count:
        raise WorkerError("protocol", f"a batch of {count} requests answered with {len(replies)} replies")
    for index, inner in enumerate(replies):
        if type(inner) is not dict or type(inner.get("ok")) is not bool:
            raise WorkerError("protocol", "a reply in a batch that is not a JSON object with ok",
                              answered=replies[:index])
    return replies


class Worker(ABC):
    """The trusted side's view of a worker. Every value crossing is a JSON primitive."""

    @abstractmethod
    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return its reply (checked to be a JSON object with ok)."""

    def close(self) -> None:
        """Release the worker (a process, say)."""

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def batch(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Send ``messages`` as batch requests (one round trip per :data:`MAX_BATCH`); their replies.

        Each inner reply is what the request alone would get, checked to be a
        JSON object with ``ok`` (read it with :func:`checked_value` etc.). A
        failure of the batch itself (timeout, crash, a malformed reply) raises
        :class:`WorkerError` whose ``answered`` lists the replies received before it.
        """
        replies: list[dict[str, Any]] = []
        for first in range(0, len(messages), MAX_BATCH):
            chunk = list(messages[first:first + MAX_BATCH])
            try:
                replies += checked_batch(self.request({"op": "batch", "requests": chunk}), len(chunk))
            except WorkerError as error:
                error.answered = replies + error.answered
                raise
        return replies

    def _ok(self, message: dict[str, Any]) -> dict[str, Any]:
        return checked_ok(self.request(message))

    def _value(self, message: dict[str, Any], kind: type) -> Any:
        return checked_value(self.request(message), kind)

    def _state(self, message: dict[str, Any]) -> str:
        return checked_state(self.request(message))

    def start(self, cards: list[str], options: dict[str, Any]) -> str:
        return self._state({"op": "start", "cards": cards, "options": options})

    def load(self, state: str) -> None:
        self._ok({"op": "load", "state": state})

    def state(self) -> str:
        return self._state({"op": "state"})

    def legal(self, move: str) -> bool:
        return bool(self._value({"op": "legal", "move": move}, bool))

    def apply(self, move: str, stage: str = "full") -> str:
        return self._state({"op": "apply", "move": move, "stage": stage})

    def moves(self) -> list[str]:
        return list(self._value({"op": "moves"}, list))

    def won(self) -> bool:
        return bool(self._value({"op": "won"}, bool))

    def call(self, method: str, args: list[Any]) -> Any:
        kind = list if method == "special_moves" else bool
        return self._value({"op": "call", "method": method, "args": args}, kind)


class LocalWorker(Worker):
    """A worker in this process. Only for trusted code or a student's own tests.

    Requests and replies still go through JSON text, so that what the trusted
    side sees is what a sandboxed worker would send. ``call_timeout`` (seconds,
    main thread only) bounds each request, each inner request of a batch
    too: a rule method that loops fails with a ``timeout`` error instead of
    hanging the caller (a student's public tests use it).
    """

    def __init__(self, variation: Variation, call_timeout: float | None = None) -> None:
        self.session = Session(variation)
        self.call_timeout = call_timeout

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        message = json.loads(json.dumps(message))
        if message.get("op") != "batch" or self.call_timeout is None:
            return self._checked(self._answer(message, self.session.handle, []))
        try:
            inner = batch_requests(message)
        except ValueError as error:
            return self._checked(error_reply(error))
        replies: list[dict[str, Any]] = []
        for request in inner:
            replies.append(self._checked(self._answer(request, self.session.handle_inner, replies)))
        return {"ok": True, "replies": replies}

    def _answer(self, message: Any, handle: Any, answered: list[dict[str, Any]]) -> dict[str, Any]:
        if self.call_timeout is None or threading.current_thread() is not threading.main_thread():
            return handle(message)  # type: ignore[no-any-return,unused-ignore]
        previous = signal.signal(signal.SIGALRM, _time_up)
        signal.setitimer(signal.ITIMER_REAL, self.call_timeout)
        try:
            return handle(message)  # type: ignore[no-any-return,unused-ignore]
        except _TimeUp:
            raise WorkerError("timeout", f"your code did not answer within {self.call_timeout:g} s",
                              answered=answered) from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    @staticmethod
    def _checked(reply: Any) -> dict[str, Any]:
        try:
            decoded = json.loads(json.dumps(reply))
        except (TypeError, ValueError) as error:
            raise WorkerError("protocol", f"reply is not JSON: {error}") from None
        if not isinstance(decoded, dict) or "ok" not in decoded:
            raise WorkerError("protocol", "reply is not a JSON object with ok")
        return decoded


class _TimeUp(BaseException):
    """Raised in a rule method that ran past a LocalWorker's ``call_timeout`` (not an Exception,
    so that the session's error handling does not turn it into an ordinary error reply)."""


def _time_up(_signum: int, _frame: Any) -> None:
    raise _TimeUp
