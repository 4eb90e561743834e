"""The Celery backend of ``course grade``: the same grading job on a Celery worker pool, Redis broker.

Two sides, one task (:data:`TASK_NAME`), and nothing shared but the broker:

* **workers** (``solitaire course worker --broker URL``, or
  ``SOLITAIRE_BROKER=URL celery -A grader.course.celery_app worker``) take a
  message holding the submission's rules file (no path: see
  :mod:`grader.course.celery_message`), grade it with
  :func:`grader.course.worker.grade_one`, the very function of the local
  process pool (sandbox included), in a temporary folder of their own, and
  return the results *and* the files the grader wrote (``results.json``,
  ``feedback.md``, ...). A worker needs no course directory, only the same
  version of the project: a worker whose grader differs refuses the task;
* **the parent** (``course grade --backend celery``, :func:`grade_on_workers`)
  sends one message per key not yet graded, writes each reply's files into
  the course's grading folder and hands the outcome to the caller, which
  alone writes the results store, the gradebook and ``feedback/<student>/``.
  It watches the run (:mod:`grader.course.celery_watch`): a task with no
  result after its limit is reported and sent again once; no worker left or
  the broker gone ends the run with one line, and the next run grades the rest.

Celery's own mechanisms, nothing home-made where Celery has one:

* ``task_acks_late`` + ``task_reject_on_worker_lost``: a message is acknowledged
  only after its grading; Redis hands a task whose worker died out again after
  the *visibility timeout*, set per worker (``--visibility-timeout``, default
  :data:`DEFAULT_VISIBILITY`) a bit above the task limit (1.5 x ``[grading]
  timeout`` + 5 s) rather than Redis's hour; each task carries that limit as
  its hard time limit, so a hung grading ends as a failure;
* ``task_track_started``: the parent sees when a grading starts, and measures
  its limit from there (a task waiting in the queue is not late);
* the task id is the result key (:func:`task_id`: course identity, assignment,
  student, SHA, grader version) and the result backend is the same Redis. A
  successful result for the same key *and the same message* is reused instead
  of graded again, by the parent (a previous run that died after the worker
  finished) and by the worker (a duplicate message); a grading that failed is
  stored as Celery's FAILURE, reported, forgotten, and never reused;
* JSON only (no pickle): a message cannot carry code.

Worker log: one INFO line per task (student, variation, score, seconds), the
full result only at DEBUG. Celery's own "Task ... succeeded: <result>" line
(logger ``celery.app.trace``) would print every result at INFO: that logger is
set to WARNING (failures still show).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import kombu.pools
from celery import Celery
from celery import states as celery_states

from .celery_message import PROTOCOL, GradingFailed, grade_payload, request_digest, summary
from .celery_message import course_identity as course_identity  # for `course grade`
from .celery_watch import Dispatch, answers, visibility_timeout
from .graders import get as get_grader
from .worker import SANDBOXES_ENV, GradeOutcome, GradeTask, sandboxes_per_submission

TASK_NAME = "solitaire.course.grade_one"
QUEUE = "solitaire-grading"
BROKER_ENV = "SOLITAIRE_BROKER"
DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
#: results stay in Redis this long (a parent that died may come back for them)
RESULT_SECONDS = 7 * 24 * 3600
#: the visibility timeout of a worker started without one: gradings of the default timeout (600 s)
DEFAULT_VISIBILITY = visibility_timeout(600.0)
#: Celery's per-task success line carries the whole result: kept for failures only
CELERY_TRACE_LOGGER = "celery.app.trace"

log = logging.getLogger("grader.course.celery")


def check_broker(url: str) -> str:
    """``url`` when it is a Redis URL; else a :class:`~solitaire.errors.UserError`."""
    from solitaire.errors import UserError

    if not url.startswith(("redis://", "rediss://")):
        raise UserError(f"the broker must be a Redis URL (redis://HOST:PORT/DB), not {url!r}")
    return url


def make_app(broker: str, visibility: float | None = None) -> Celery:
    """A Celery app on ``broker`` (Redis), which is also its result backend.

    ``visibility``: the Redis visibility timeout, seconds after which a task
    taken by a worker that never acknowledged it (the worker died) is handed
    out again; default :data:`DEFAULT_VISIBILITY`, sized for ``[grading] timeout = 600``.
    """
    app = Celery("solitaire-grading", broker=broker, backend=broker, set_as_current=False)
    app.conf.update(
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_track_started=True,
        worker_prefetch_multiplier=1,
        task_default_queue=QUEUE,
        result_expires=RESULT_SECONDS,
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": visibility or DEFAULT_VISIBILITY},
        redis_socket_timeout=10.0,
        redis_socket_connect_timeout=5.0,
        worker_hijack_root_logger=False,
    )
    app.task(name=TASK_NAME, bind=True, throws=(GradingFailed,))(_grade)
    logging.getLogger(CELERY_TRACE_LOGGER).setLevel(logging.WARNING)
    return app


def task_id(task: GradeTask, course: str) -> str:
    """The Celery task id of ``task`` graded for ``course`` (:func:`course_identity`): its result key."""
    return "/".join(("solitaire-grade", course, task.assignment, task.student, task.sha, task.grader_version))


def _grade(self: Any, message: dict[str, Any]) -> dict[str, Any]:
    """The worker's task: grade one message (:func:`grade_payload`); a failure raises :class:`GradingFailed`.

    A worker whose grader (its files, as the grading will read them) is not the
    version the parent keys the result with refuses: the result would be
    stored under a version that did not make it.
    """
    if not isinstance(message, dict) or message.get("protocol") != PROTOCOL:
        raise GradingFailed(f"the worker speaks Celery message protocol {PROTOCOL}, `course grade` sent "
                            f"{message.get('protocol', 1) if isinstance(message, dict) else '?'}: give the "
                            "workers and `course grade` the same version of solitaire-lab")
    previous = self.backend.get_task_meta(self.request.id, cache=False)
    if previous.get("status") == celery_states.SUCCESS and answers(previous.get("result"), message):
        return dict(previous["result"])  # a duplicate message of a key already graded: same answer
    try:
        mine = get_grader(message["grader"])[1]()
    except Exception as error:  # noqa: BLE001 - reported to the parent for this student
        _fail(message, f"{type(error).__name__}: {error}")
    if mine != message["grader_version"]:
        _fail(message, f"the worker's grader is {mine}, `course grade` expects {message['grader_version']}: "
                       "give the workers the same code and restart them")
    # started as `celery -A ... worker` (its concurrency unknown here): one sandbox, as a pool that
    # fills the CPUs has
    os.environ.setdefault(SANDBOXES_ENV, "1")
    try:
        reply = grade_payload(message)
    except GradingFailed as failed:
        log_outcome({"task": summary(message), "results": None, "error": str(failed), "seconds": 0.0})
        raise
    log_outcome(reply)
    return reply


def _fail(message: dict[str, Any], reason: str) -> NoReturn:
    log_outcome({"task": summary(message), "results": None, "error": reason, "seconds": 0.0})
    raise GradingFailed(reason, request_digest(message))


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


def release(app: Celery) -> None:
    """Close what ``app`` holds open: the result consumer's pub/sub, the backend's and the broker's
    connection pools (sockets and the transport's epoll descriptors). ``course grade`` calls it
    when its run ends; a process that starts runs one after the other (a test session, a service)
    would otherwise collect descriptors with every run."""
    steps: list[Callable[[], object]] = [
        lambda: app.backend.result_consumer.stop(),
        lambda: app.backend.client.connection_pool.disconnect(),
    ]
    # the broker pools are kombu's, shared by every app of this process with the same URL: reset
    # (closed and forgotten, made anew on the next use), never closed in place
    steps.append(kombu.pools.reset)
    steps.append(app.close)
    for step in steps:
        try:
            step()
        except Exception:  # noqa: BLE001 - a connection already gone has nothing left to close
            pass


def grade_on_workers(
    tasks: list[GradeTask],
    broker: str,
    course: str,
    regrade: bool = False,
    app: Celery | None = None,
    warn: Callable[[str], None] | None = None,
) -> Iterator[GradeOutcome]:
    """Grade ``tasks`` of ``course`` (:func:`course_identity`) on the workers of ``broker``.

    Yields each outcome as it arrives (its files already written into the
    task's grading folder); ``regrade``: forget results left in the backend
    instead of reusing them; ``warn``: prints a line (a lost task resent).
    Raises :class:`~grader.course.celery_watch.BrokerLost` or
    :class:`~grader.course.celery_watch.WorkersGone` (one line each) when the
    run cannot go on: see :mod:`grader.course.celery_watch`.
    """
    if not tasks:
        return
    app = app or connect(broker)
    dispatch = Dispatch(app, safe_url(broker), course, TASK_NAME, QUEUE, warn or _stderr)
    yield from dispatch.run(tasks, [task_id(task, course) for task in tasks], regrade)


def _stderr(line: str) -> None:
    print(f"solitaire: warning: {line}", file=sys.stderr)


def worker_main(broker: str, concurrency: int = 1, loglevel: str = "INFO", name: str | None = None,
                visibility: float | None = None) -> None:
    """Run a Celery worker (prefork pool of ``concurrency`` processes) on ``broker``'s grading queue.

    ``visibility``: the broker's visibility timeout (:func:`make_app`).
    """
    app = make_app(broker, visibility)
    # the prefork processes inherit it: two sandboxes per submission only with a CPU to spare
    os.environ.setdefault(SANDBOXES_ENV, str(sandboxes_per_submission(concurrency)))
    argv = ["worker", f"--concurrency={concurrency}", "--pool=prefork", f"--loglevel={loglevel}",
            f"--queues={QUEUE}", "--without-gossip", "--without-mingle"]
    if name:
        argv.append(f"--hostname={name}")
    app.worker_main(argv)


#: the app of ``celery -A grader.course.celery_app worker`` (broker: $SOLITAIRE_BROKER, else celery -b)
app = make_app(os.environ.get(BROKER_ENV) or os.environ.get("CELERY_BROKER_URL") or DEFAULT_BROKER)
