"""Questions sent ahead: a replay's requests answered from batches, one round trip per step.

A replay knows, before a step, which requests it will send if nothing goes
wrong (its probes, the legal-move set, the move's verdict and stages, is_won).
:class:`Ahead` sends them as one :meth:`~solitaire.protocol.Worker.batch` and
then answers the replay's requests, in that order, from the replies. The
replay itself still asks one question at a time, so what it checks, in which
category and with which message, does not change.

What the replay does that was not foreseen is handled so that every question
is answered on exactly the state it would be answered on one by one:

* a ``load`` (the resync after a mismatch or an error): it is sent, and the
  questions still ahead are sent again behind it in the same batch (the
  worker answered them on a state the replay has now discarded), up to the
  next one that failed (the rest follow in a later batch);
* questions the replay asks first (:meth:`Ahead.insert`: the ``can_pick_up``
  calls that explain a different legal-move set): the worker is first put
  back in the state it had after the legal-move set, which the batch records
  right after it (an internal ``state`` request), then they and the questions
  still ahead are sent;
* a failure of the batch itself (timeout, crash, a broken reply) is the
  answer of the request it happened in (:attr:`WorkerError.answered` says
  which); the requests after it were never answered and are sent again after
  the resync.

A request whose kind mostly fails (every rule of the untouched starter
raises) is sent with its resync right behind it when the replay gives one
(only the state the step started in, which the worker has already seen: a
batch must reveal no answer still to be asked): a ``load`` of that state
with ``"resync": true``, which the worker
carries out only when the replay will ask for it (the request failed, or
gave another state: :func:`~solitaire.protocol.needs_resync`). The replay's
own ``load`` is then answered from it, and the questions behind it stand:
they were answered on the state the replay asks them on. Without this, every
failed request would end its batch (one round trip per failure).

Anything else would be a bug in the replay's plan: :class:`RuntimeError`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .protocol import Worker, WorkerError, checked_ok, checked_state, needs_resync

Answer = dict[str, Any] | WorkerError | None  # None: not (validly) answered yet


@dataclass
class Item:
    """One request sent ahead and its answer. ``internal``: asked for the bookkeeping here."""

    message: dict[str, Any]
    answer: Answer = None
    internal: bool = False
    failed_before: bool = False  # it is expected to fail (it did, or its kind mostly does)
    restore: str | None = None  # the state the replay loads if it fails (None: not foreseen)
    resynced: Answer = None  # the answer of its resync sent ahead (None: none was)


SNAPSHOT = {"op": "state"}  # the internal request recording the worker's state after the legal-move set


class Ahead(Worker):
    """A :class:`Worker` for the replay that answers from batches sent ahead.

    ``current`` returns the real worker (the replay may replace it); call
    :meth:`forget` when it does.
    """

    def __init__(self, current: Any) -> None:
        self.current = current
        self.queue: deque[Item] = deque()
        self.snapshot: str | None = None
        self.resync: tuple[str, Answer] | None = None  # the last request's resync sent ahead: (state, answer)
        self.outcomes: dict[tuple[Any, ...], list[int]] = {}  # kind of request -> [failed, answered]

    # -- what the replay announces ------------------------------------------------
    def send(self, items: list[Item]) -> None:
        """The replay will ask the requests of ``items`` next, in this order: ask them now.

        A kind of request that failed more often than not so far (every rule of a starter
        raises) is taken as failing again, which ends the batch there (see :meth:`_run`).
        """
        if self._answered():
            raise RuntimeError(f"replay plan out of step: {self.queue[0].message} was never asked")
        self.resync = None
        for item in items:
            failed, answered = self.outcomes.get(_kind(item.message), (0, 0))
            item.failed_before = item.failed_before or 2 * failed > answered
        self.queue = deque(items)
        self._run()

    def insert(self, messages: list[dict[str, Any]], fallback: str) -> None:
        """The replay will ask ``messages`` first, then the requests still ahead.

        ``fallback`` is the state to return to should the worker's own state after the
        legal-move set be unknown (its text could not be made).
        """
        front = [Item(m) for m in messages]
        if self._answered():
            front.insert(0, Item({"op": "load", "state": self.snapshot or fallback}, internal=True))
        self._void()
        self.queue.extendleft(reversed(front))
        self._run()

    def drop(self, unwanted: Callable[[dict[str, Any]], bool]) -> None:
        """The replay will not ask the queued requests ``unwanted`` picks (a rule method it
        stopped asking): take them out of the queue."""
        self.queue = deque(item for item in self.queue if item.internal or not unwanted(item.message))

    def forget(self) -> None:
        """The real worker was replaced: it answered nothing of what is queued."""
        self._void()
        self.snapshot = None
        self.resync = None

    # -- the Worker interface -----------------------------------------------------
    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        resync, self.resync = self.resync, None
        if resync is not None:
            done = self._resynced(message, *resync)
            if done is not None:
                return done
        if self.queue and self.queue[0].message != message:
            if message.get("op") != "load":
                self.send([])  # raises unless nothing queued was answered
            else:  # a resync: the questions still ahead are answered again after it
                self._void()
                self.queue.appendleft(Item(message))
                self._run()
        if not self.queue:
            return self.current().request(message)
        if self.queue[0].answer is None:  # not answered (not sent yet, or the batch failed before it)
            self._run()
        item = self.queue.popleft()
        answer = item.answer
        if item.resynced is not None and item.restore is not None:
            self.resync = item.restore, item.resynced
        counts = self.outcomes.setdefault(_kind(message), [0, 0])
        counts[0] += _failed(answer, item.restore)
        counts[1] += 1
        self._internal()
        if isinstance(answer, WorkerError):
            raise answer
        assert answer is not None
        return answer

    def _resynced(self, message: dict[str, Any], state: str, answer: Answer) -> dict[str, Any] | None:
        """The answer to ``message`` if the resync sent ahead answers it, else None (go on as usual).

        The replay's ``load`` of ``state`` right after the request is that resync, if the worker
        carried it out (else it is sent as any resync is). If the batch broke at the resync, the
        replay's load meets the failure; any other request meets it as behind an internal one.
        """
        if message == {"op": "load", "state": state}:
            if isinstance(answer, WorkerError):
                raise answer
            assert answer is not None
            if answer.get("ok") is not True or answer.get("value") is True:
                return {"ok": True} if answer.get("ok") is True else answer
            return None
        if isinstance(answer, WorkerError) and self.queue and self.queue[0].answer is None:
            self.queue[0].answer = answer
        return None  # the worker did not resync either (or said it did untruthfully: its own loss)

    # -- helpers ------------------------------------------------------------------
    def _answered(self) -> bool:
        """Whether the worker answered requests still queued (they are a prefix of the queue)."""
        return bool(self.queue) and self.queue[0].answer is not None

    def _void(self) -> None:
        """Forget the answers still queued (the state they were answered on is gone)."""
        for item in self.queue:
            if item.answer is None:
                break
            item.failed_before = item.failed_before or _failed(item.answer, item.restore)
            item.answer = item.resynced = None

    def _run(self) -> None:
        """Send the unanswered requests at the head of the queue as one batch; record the answers.

        The batch ends at the first request that failed before (its answer was voided by a
        resync, or its kind fails more often than not): it will most likely fail again and
        be followed by another resync, so what lies beyond it would only be answered in vain
        (for a submission whose every rule fails, every request would be answered again
        after every resync). What is left out stays queued, unanswered, for a later batch.
        """
        self.snapshot = None
        items: list[Item] = []
        wire: list[dict[str, Any]] = []  # the items' messages, a resync behind each expected to fail
        for item in self.queue:
            items.append(item)
            wire.append(item.message)
            if item.failed_before:
                if item.restore is None or item.internal:
                    break
                wire.append(resync_message(item.restore))
        if not items:
            return
        try:
            replies: list[Answer] = list(self.current().batch(wire))
        except WorkerError as error:
            replies = [*error.answered, error]
        answers = iter(replies)
        for item in items:
            item.answer = next(answers, None)
            if item.failed_before and item.restore is not None and not item.internal:
                item.resynced = next(answers, None)
            if isinstance(item.answer, WorkerError) or isinstance(item.resynced, WorkerError):
                break
        self._internal()

    def _internal(self) -> None:
        """Consume the internal requests at the head of the queue; a failure moves on to the next."""
        while self.queue and self.queue[0].internal:
            item = self.queue.popleft()
            failure: WorkerError | None = None
            if isinstance(item.answer, WorkerError):
                failure = item.answer  # the batch broke here: the next request meets the failure
            elif item.answer is not None and item.message == SNAPSHOT:
                try:
                    self.snapshot = checked_state(item.answer)
                except WorkerError:
                    self.snapshot = None  # read-only: the requests after it stand
            elif item.answer is not None:
                try:
                    checked_ok(item.answer)
                except WorkerError as error:  # the state was not restored: what follows is void
                    failure = error
            if failure is not None and self.queue:
                self.queue[0].answer = failure


def _failed(answer: Answer, restore: str | None = None) -> bool:
    """Whether the replay resyncs after ``answer`` (a failure, or a state other than ``restore``)."""
    if isinstance(answer, WorkerError):
        return True
    if isinstance(answer, dict):
        return answer.get("ok") is not True if restore is None else needs_resync(answer, restore)
    return False


def resync_message(state: str) -> dict[str, Any]:
    """The resync sent ahead: load ``state`` if the request before needs it (see the protocol)."""
    return {"op": "load", "state": state, "resync": True}


def _kind(message: dict[str, Any]) -> tuple[Any, ...]:
    return message.get("op"), message.get("method"), message.get("stage")
