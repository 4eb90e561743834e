"""The ``course grade`` side of the Celery backend: send, reuse, wait, and a watchdog.

One :class:`Dispatch` per run. It never hangs and never lies:

* **reuse** only a finished grading of exactly the same message
  (:func:`answers`); anything else left in the backend under the task id (a
  failure, a dead worker's STARTED, a reply to another message) is forgotten
  before the task is sent, so a rerun never reads a stale answer;
* **failures are failures**: a worker stores a grading that failed as
  Celery's FAILURE (:class:`~grader.course.celery_message.GradingFailed`, or
  the time limit); it is reported, forgotten in the backend, and graded again
  by the next run. A task that broke otherwise (the broker went away under
  the worker) is sent again once, like a lost one;
* **the watchdog**: a task is *lost* when it has run (state STARTED, as first
  seen here) longer than its limit (:func:`task_limit`) plus
  :data:`LATE_SECONDS`, or when nothing at all happened for that long (no
  result, no task started) while tasks wait.
  With a worker still answering, a lost task is reported (one line naming
  the student) and sent again once, under the same id (a duplicate grading
  writes the same result under the same key: harmless); lost twice, it is
  left not graded for the next run. When nothing happened for
  :data:`PING_SECONDS` (or that long, if shorter) and no worker answers a
  ping, the run stops with one line (:class:`WorkersGone`): the students not
  graded are graded by the next run, their tasks stay queued;
* **broker loss**: a broker that does not answer for :data:`BROKER_GRACE`
  seconds stops the run with one line (:class:`BrokerLost`); what was graded
  is stored, the rest is graded by the next run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from celery import Celery
from celery import states as celery_states
from celery.exceptions import TimeLimitExceeded

from solitaire.errors import UserError

from .celery_message import GradingFailed, payload, request_digest, write_files
from .worker import GradeOutcome, GradeTask

#: seconds a broker may fail to answer before the run stops
BROKER_GRACE = 10.0
#: seconds between two looks at the results
POLL_SECONDS = 0.5
#: with no news for this long (or a task's patience, if shorter), ask whether any worker still answers
PING_SECONDS = 30.0
#: a task is lost this long after its limit (:func:`task_limit`) with no result
LATE_SECONDS = 5.0


def task_limit(timeout: float) -> float:
    """Seconds a grading of ``timeout`` may take on a worker, start to result: 1.5 x timeout + 5 s.

    The worker kills a grading past it (Celery's hard time limit); the
    watchdog calls a task lost past it; the broker's visibility timeout must
    exceed it (:func:`visibility_timeout`).
    """
    return 1.5 * timeout + 5.0


def visibility_timeout(timeout: float) -> float:
    """The Redis visibility timeout for gradings of ``timeout``: a bit more than :func:`task_limit`."""
    return task_limit(timeout) + 60.0


class BrokerLost(UserError):
    """The broker stopped answering during the run (one line)."""


class WorkersGone(UserError):
    """No worker answers any more during the run (one line)."""


@dataclass
class Waiting:
    """A task sent and not answered yet."""

    task: GradeTask
    message: dict[str, Any]
    identifier: str
    started: float | None = None  # when this process first saw it STARTED
    resent: bool = False

    @property
    def request(self) -> str:
        return request_digest(self.message)

    @property
    def limit(self) -> float:
        """The worker's hard time limit of this task."""
        return task_limit(self.task.timeout)

    @property
    def patience(self) -> float:
        """How long this process waits for it: the limit and :data:`LATE_SECONDS` (the worker's own
        time limit ends a grading first, as a failure, rather than the task being called lost)."""
        return self.limit + LATE_SECONDS


class _BrokerDown(Exception):
    """The broker did not answer within :data:`BROKER_GRACE` (the reason is the message)."""


def answers(reply: Any, message: dict[str, Any]) -> bool:
    """Whether ``reply`` is a finished grading of exactly ``message``."""
    return (isinstance(reply, dict) and reply.get("request") == request_digest(message)
            and isinstance(reply.get("results"), dict) and isinstance(reply.get("files"), dict))


def failure_text(result: Any, limit: float = 0.0) -> str:
    """What a FAILURE state's result says, for the instructor (``limit``: the task's)."""
    if isinstance(result, GradingFailed):
        return str(result)
    if isinstance(result, TimeLimitExceeded):
        return (f"the grading ran past its limit of {limit:.0f} s on the Celery worker, which stopped it "
                "(raise [grading] timeout if the grader needs longer)")
    if isinstance(result, BaseException):
        return f"the Celery task failed: {type(result).__name__}: {result}"
    return f"the Celery task failed: {result}"


class Dispatch:
    """The tasks of one run on the workers of ``app`` (see the module docstring).

    ``warn``: prints one line for the instructor (a lost task).
    """

    def __init__(self, app: Celery, url: str, course: str, task_name: str, queue: str,
                 warn: Callable[[str], None]) -> None:
        self.app, self.url, self.course = app, url, course
        self.task_name, self.queue, self.warn = task_name, queue, warn
        self.waiting: dict[str, Waiting] = {}  # sent, no answer yet
        self._left: dict[str, GradeTask] = {}  # no outcome yet (sent or not)

    def run(self, tasks: list[GradeTask], ids: list[str], regrade: bool) -> Iterator[GradeOutcome]:
        """Every task's outcome, reused ones first; raises :class:`BrokerLost` or :class:`WorkersGone`."""
        try:
            yield from self._send_all(tasks, ids, regrade)
            yield from self._wait()
        except _BrokerDown as error:
            raise BrokerLost(f"lost the Celery broker {self.url}: {error}; the {len(self._left)} "
                             "student(s) not graded will be graded by the next run") from None

    # -- sending -----------------------------------------------------------------------
    def _send_all(self, tasks: list[GradeTask], ids: list[str], regrade: bool) -> Iterator[GradeOutcome]:
        self._left = dict(zip(ids, tasks, strict=True))
        for identifier, task in zip(ids, tasks, strict=True):
            try:
                message = payload(task, self.course)
            except OSError as error:  # the collected submission cannot be read here: this student only
                self._left.pop(identifier)
                yield GradeOutcome(task, None, f"cannot read the submission {task.submission}: {error}", 0.0)
                continue
            meta = None if regrade else self._meta(identifier)
            if meta and meta.get("status") == celery_states.SUCCESS and answers(meta.get("result"), message):
                # graded by a worker for a run that died before storing it
                yield self._finished(Waiting(task, message, identifier), meta["result"])
                continue
            if meta is None or meta.get("status") != celery_states.PENDING:
                self._forget(identifier)  # a failure, a stale state, or --regrade: never reused
            self._send(Waiting(task, message, identifier))

    def _send(self, waiting: Waiting) -> None:
        limit = waiting.limit
        self._guarded(lambda: self.app.send_task(self.task_name, args=[waiting.message],
                                                 task_id=waiting.identifier, queue=self.queue,
                                                 time_limit=limit))
        self.waiting[waiting.identifier] = waiting

    def _meta(self, identifier: str) -> dict[str, Any]:
        return dict(self._guarded(lambda: self.app.backend.get_task_meta(identifier, cache=False)))

    def _forget(self, identifier: str) -> None:
        self._guarded(lambda: self.app.backend.forget(identifier))

    # -- waiting -----------------------------------------------------------------------
    def _wait(self) -> Iterator[GradeOutcome]:
        last_news = last_ping = time.monotonic()
        while self.waiting:
            now = time.monotonic()
            for identifier, meta in self._states():
                waiting = self.waiting[identifier]
                status = meta.get("status")
                if status == celery_states.SUCCESS:
                    if answers(meta.get("result"), waiting.message):
                        del self.waiting[identifier]
                        last_news = now
                        yield self._finished(waiting, meta["result"])
                    else:  # a reply to another message under this id (an old duplicate): not ours
                        self._forget(identifier)
                elif status in celery_states.READY_STATES:
                    result = meta.get("result")
                    last_news = now
                    if isinstance(result, GradingFailed) and result.request not in ("", waiting.request):
                        self._forget(identifier)  # an old duplicate's failure: not ours
                    elif isinstance(result, GradingFailed | TimeLimitExceeded) or waiting.resent:
                        del self.waiting[identifier]
                        self._forget(identifier)  # a failure is reported once, never reused
                        self._left.pop(identifier, None)
                        yield GradeOutcome(waiting.task, None, failure_text(result, waiting.limit), 0.0)
                    else:  # the task itself broke (the broker went away under it ...): once more
                        self._resend(waiting, f"the Celery task failed ({failure_text(result)})")
                elif status == celery_states.STARTED and waiting.started is None:
                    waiting.started = last_news = now
            if not self.waiting:
                break
            patience = max(waiting.patience for waiting in self.waiting.values())
            lost = [w for w in self.waiting.values()
                    if w.started is not None and now - w.started > w.patience]
            if now - last_news > patience:
                lost = list(self.waiting.values())  # nothing happened for that long: nobody works on them
            due = now - last_ping > min(patience, PING_SECONDS)
            if due and not lost and last_news > last_ping:
                last_ping = now  # a result or a start since the last look: someone works
            elif lost or due:
                last_ping = now
                if not self._workers_answer():
                    raise WorkersGone(f"no Celery worker answers on {self.url} any more; the "
                                      f"{len(self._left)} student(s) not graded will be graded by the next "
                                      f"run (start a worker: `solitaire course worker --broker {self.url}`)")
            for waiting in lost:
                last_news = now
                yield from self._lost(waiting)
            time.sleep(POLL_SECONDS)

    def _lost(self, waiting: Waiting) -> Iterator[GradeOutcome]:
        if waiting.resent:
            del self.waiting[waiting.identifier]
            self._left.pop(waiting.identifier, None)
            yield GradeOutcome(waiting.task, None, "lost twice by the Celery workers (no result within "
                                                   f"{waiting.patience:.0f} s each time); not graded", 0.0)
            return
        self._resend(waiting, f"no result from the Celery workers within {waiting.patience:.0f} s "
                              "(its worker died or stopped)")

    def _resend(self, waiting: Waiting, why: str) -> None:
        """Report ``why`` (one line naming the student) and send the task again, under its id."""
        self.warn(f"{waiting.task.student}: {why}; sent again")
        self._forget(waiting.identifier)
        waiting.started, waiting.resent = None, True
        self._send(waiting)

    def _finished(self, waiting: Waiting, reply: dict[str, Any]) -> GradeOutcome:
        """The outcome of a reply: its files written into the course's grading folder first."""
        self._left.pop(waiting.identifier, None)
        task = waiting.task
        try:
            write_files(reply, Path(task.out_dir))
        except OSError as error:  # the result stays in the backend: the next run takes it
            return GradeOutcome(task, None, f"graded, but its files could not be written to {task.out_dir}: "
                                            f"{error}", 0.0)
        return GradeOutcome(task, reply["results"], "", float(reply.get("seconds", 0.0)))

    # -- the broker ----------------------------------------------------------------------
    def _states(self) -> list[tuple[str, dict[str, Any]]]:
        """(id, meta) of each waiting task the backend knows something about."""
        backend = self.app.backend
        ids = list(self.waiting)
        values = self._guarded(lambda: backend.mget([backend.get_key_for_task(i) for i in ids]))
        return [(i, backend.decode_result(value)) for i, value in zip(ids, values, strict=True) if value]

    def _workers_answer(self) -> bool:
        return bool(self._guarded(lambda: self.app.control.ping(timeout=2.0)))

    def _guarded(self, call: Callable[[], Any]) -> Any:
        """``call()``, tried again for :data:`BROKER_GRACE` seconds while the broker does not answer."""
        give_up = time.monotonic() + BROKER_GRACE
        while True:
            try:
                return call()
            except broker_errors() as error:
                if time.monotonic() > give_up:
                    raise _BrokerDown(_reason(error)) from None
                time.sleep(1.0)


def broker_errors() -> tuple[type[BaseException], ...]:
    """What kombu, redis-py and the sockets raise when the broker is gone."""
    import kombu.exceptions
    import redis.exceptions

    return (OSError, kombu.exceptions.OperationalError, redis.exceptions.RedisError)


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[-1].rstrip(".") if text else type(error).__name__
