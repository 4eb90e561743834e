"""The Celery backend of ``course grade``: the same grading job on a Celery worker pool, Redis broker.

Two sides, one task (:data:`TASK_NAME`):

* **workers** (``solitaire course worker --broker URL``, or
  ``SOLITAIRE_BROKER=URL celery -A grader.course.celery_app worker``) run
  :func:`grader.course.worker.grade_one`, the very function of the local
  process pool (sandbox included), and return its outcome as JSON;
* **the parent** (``course grade --backend celery``, :func:`grade_on_workers`)
  sends one message per key not yet graded and hands each outcome, as it
  arrives, to the caller, which alone writes the results store and the
  gradebook.

Celery's own mechanisms, nothing home-made:

* ``task_acks_late`` + ``task_reject_on_worker_lost``: a message is acknowledged
  only after its grading; a worker that dies mid-grading leaves it to another;
* the task id is the result key (:func:`task_id`), and the result backend is
  the same Redis: a result already in the backend for the same key *and the
  same task* is reused instead of graded again, by the parent (a previous run
  that died after the worker finished) and by the worker (a duplicate message);
* JSON only (no pickle): a message cannot carry code.

Workers read the submissions and write the grading folders at the paths the
parent sends: they need the course directory at the same path (same machine,
or a shared file system).

Worker log: one INFO line per task (student, variation, score, seconds), the
full result only at DEBUG. Celery's own "Task ... succeeded: <result>" line
(logger ``celery.app.trace``) would print every result at INFO: that logger is
set to WARNING (failures still show).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from celery import Celery
from celery import states as celery_states

from .graders import get as get_grader
from .worker import GradeOutcome, GradeTask, grade_one

TASK_NAME = "solitaire.course.grade_one"
QUEUE = "solitaire-grading"
BROKER_ENV = "SOLITAIRE_BROKER"
DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
#: results stay in Redis this long (a parent that died may come back for them)
RESULT_SECONDS = 7 * 24 * 3600
#: Celery's per-task success line carries the whole result: kept for failures only
CELERY_TRACE_LOGGER = "celery.app.trace"

log = logging.getLogger("grader.course.celery")


def check_broker(url: str) -> str:
    """``url`` when it is a Redis URL; else a :class:`~solitaire.errors.UserError`."""
    from solitaire.errors import UserError

    if not url.startswith(("redis://", "rediss://")):
        raise UserError(f"the broker must be a Redis URL (redis://HOST:PORT/DB), not {url!r}")
    return url


def make_app(broker: str) -> Celery:
    """A Celery app on ``broker`` (Redis), which is also its result backend."""
    app = Celery("solitaire-grading", broker=broker, backend=broker, set_as_current=False)
    app.conf.update(
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_default_queue=QUEUE,
        result_expires=RESULT_SECONDS,
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
    )
    app.task(name=TASK_NAME, bind=True)(_grade)
    logging.getLogger(CELERY_TRACE_LOGGER).setLevel(logging.WARNING)
    return app


def task_id(task: GradeTask) -> str:
    """The Celery task id of ``task``: its result key (student, assignment, SHA, grader version)."""
    return "/".join(("solitaire-grade", task.assignment, task.student, task.sha, task.grader_version))


def _payload(task: GradeTask) -> dict[str, Any]:
    return dataclasses.asdict(task)


def _reusable(meta: dict[str, Any] | None, payload: dict[str, Any]) -> bool:
    """Whether the backend's ``meta`` is a finished grading of exactly ``payload``, its files still there."""
    if not meta or meta.get("status") != celery_states.SUCCESS:
        return False
    result = meta.get("result")
    return (isinstance(result, dict) and result.get("task") == payload and result.get("results") is not None
            and (Path(payload["out_dir"]) / "results.json").is_file())


def _grade(self: Any, payload: dict[str, Any]) -> dict[str, Any]:
    """The worker's task: grade one submission with :func:`grade_one` (never raises).

    A worker whose grader (its files, as the grading will read them) is not the
    version the parent keys the result with refuses: the result would be
    stored under a version that did not make it.
    """
    previous = self.backend.get_task_meta(self.request.id, cache=False)
    if _reusable(previous, payload):  # a duplicate message of a key already graded: same answer
        return dict(previous["result"])
    try:
        mine = get_grader(payload["grader"])[1]()
    except Exception as error:  # noqa: BLE001 - reported to the parent for this student
        return {"task": payload, "results": None, "error": f"{type(error).__name__}: {error}", "seconds": 0.0}
    if mine != payload["grader_version"]:
        return {"task": payload, "results": None, "seconds": 0.0,
                "error": f"the worker's grader is {mine}, `course grade` expects "
                         f"{payload['grader_version']}: give the workers the same code and restart them"}
    outcome = grade_one(GradeTask(**payload))
    reply = {"task": payload, "results": outcome.results, "error": outcome.error, "seconds": outcome.seconds}
    log_outcome(reply)
    return reply


def log_outcome(reply: dict[str, Any]) -> None:
    """One INFO line (student, variation, score, seconds) for a graded task; the whole
    ``reply`` at DEBUG. A task that failed is one WARNING line with the reason."""
    task, results = reply["task"], reply.get("results")
    if results is None:
        log.warning("grading failed: %s %s after %.1f s: %s", task["student"], task["variation"],
                    reply.get("seconds", 0.0), reply.get("error"))
    else:
        maximum = sum(task.get("points", {}).values())
        log.info("graded %s %s: %g / %g in %.1f s", task["student"], task["variation"],
                 float(results.get("score", 0.0)), maximum, reply.get("seconds", 0.0))
    if log.isEnabledFor(logging.DEBUG):
        log.debug("result of %s %s: %s", task["student"], task["variation"], json.dumps(reply, default=str))


def _outcome(task: GradeTask, result: Any) -> GradeOutcome:
    if not isinstance(result, dict):
        return GradeOutcome(task, None, f"the worker returned {type(result).__name__}", 0.0)
    return GradeOutcome(task, result.get("results"), str(result.get("error", "")),
                        float(result.get("seconds", 0.0)))


def _failure(task: GradeTask, meta: dict[str, Any]) -> GradeOutcome:
    return GradeOutcome(task, None, f"the Celery task ended {meta.get('status')}: {meta.get('result')}", 0.0)


class NoWorker(Exception):
    """No Celery worker answered; the message says what to start."""


def safe_url(url: str) -> str:
    """``url`` without its password, fit for a message."""
    from kombu.utils.url import maybe_sanitize_url

    return str(maybe_sanitize_url(url))


def check_reachable(app: Celery, broker: str, wait_seconds: float = 5.0) -> None:
    """Raise :class:`NoWorker` unless the broker answers and at least one worker pings back."""
    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=2, interval_start=0.2, interval_step=0.5)
    except Exception as error:  # noqa: BLE001 - kombu raises many kinds; all mean "not reachable"
        raise NoWorker(f"cannot reach the Celery broker {safe_url(broker)}: {error}") from None
    deadline = time.monotonic() + wait_seconds
    while not app.control.ping(timeout=1.0):
        if time.monotonic() > deadline:
            raise NoWorker(f"no Celery worker answers on {safe_url(broker)}; start one with "
                           f"`solitaire course worker --broker {safe_url(broker)}`")


def connect(broker: str) -> Celery:
    """A Celery app on ``broker`` once the broker and a worker answer (else :class:`NoWorker`)."""
    app = make_app(broker)
    check_reachable(app, broker)
    return app


def grade_on_workers(
    tasks: list[GradeTask],
    broker: str,
    regrade: bool = False,
    patience: float = 660.0,
    app: Celery | None = None,
) -> Iterator[GradeOutcome]:
    """Grade ``tasks`` on the workers of ``broker``; yields each outcome as it arrives.

    ``regrade``: forget results left in the backend instead of reusing them.
    When no result arrives for ``patience`` seconds and no worker answers a
    ping, the remaining tasks are yielded as failures (their messages stay
    queued; the next ``course grade`` reuses or resends them).
    """
    if not tasks:
        return
    app = app or connect(broker)
    by_id = {task_id(task): task for task in tasks}
    waiting: set[str] = set()
    for identifier, task in by_id.items():
        payload = _payload(task)
        if regrade:
            app.backend.forget(identifier)
        else:
            meta = app.backend.get_task_meta(identifier, cache=False)
            if _reusable(meta, payload):  # graded by a worker for a run that died before storing it
                yield _outcome(task, meta["result"])
                continue
        app.send_task(TASK_NAME, args=[payload], task_id=identifier, queue=QUEUE)
        waiting.add(identifier)
    if waiting:
        yield from _collect(app, by_id, waiting, patience)


def _collect(
    app: Celery, by_id: dict[str, GradeTask], waiting: set[str], patience: float
) -> Iterator[GradeOutcome]:
    last_news = time.monotonic()

    def give_up_when_nobody_works() -> None:
        if time.monotonic() - last_news > patience and not app.control.ping(timeout=2.0):
            raise NoWorker(f"no result for {patience:.0f} s and no worker answers")

    try:
        for identifier, meta in app.backend.get_many(set(waiting), interval=0.25,
                                                     on_interval=give_up_when_nobody_works):
            last_news = time.monotonic()
            waiting.discard(identifier)
            task = by_id[identifier]
            if meta.get("status") == celery_states.SUCCESS:
                yield _outcome(task, meta.get("result"))
            else:
                yield _failure(task, meta)
    except NoWorker as error:
        for identifier in sorted(waiting):
            yield GradeOutcome(by_id[identifier], None, f"{error}; still queued for the next run", 0.0)


def worker_main(broker: str, concurrency: int = 1, loglevel: str = "INFO", name: str | None = None) -> None:
    """Run a Celery worker (prefork pool of ``concurrency`` processes) on ``broker``'s grading queue."""
    app = make_app(broker)
    argv = ["worker", f"--concurrency={concurrency}", "--pool=prefork", f"--loglevel={loglevel}",
            f"--queues={QUEUE}", "--without-gossip", "--without-mingle"]
    if name:
        argv.append(f"--hostname={name}")
    app.worker_main(argv)


#: the app of ``celery -A grader.course.celery_app worker`` (broker: $SOLITAIRE_BROKER, else celery -b)
app = make_app(os.environ.get(BROKER_ENV) or os.environ.get("CELERY_BROKER_URL") or DEFAULT_BROKER)
