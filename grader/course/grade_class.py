"""``solitaire course grade``: every collected submission, in parallel, resumable.

* Each gradable row of ``collected.csv`` is a key (student, assignment, SHA,
  grader version). A key already in the results store (:mod:`results`) is not
  graded again unless ``regrade``; so a rerun after a crash or ``kill -9``
  grades only what is missing.
* Grading runs in a process pool (``jobs`` workers, spawned processes): each
  worker calls the grader (:func:`grade_one`, which calls the named grader of
  :mod:`grader.course.graders`) and *returns* the result; only this parent
  process writes, to the results store and to the gradebook (SQLite suits one
  writer). Every result is committed as soon as it arrives.
* ``backend="celery"``: the same tasks go to a Celery worker pool through a
  Redis broker (:mod:`grader.course.celery_app`); the workers run the same
  :func:`grade_one` and send the outcome back; this process still writes alone.
* After the pool, every stored result of the current collect is written to
  the gradebook again (idempotent), so a crash between the two writes heals
  on the next run. A run with nothing to grade whose writes would change
  nothing (:mod:`grader.course.gradebook_state`) neither opens the gradebook
  nor starts a pool: it returns in well under a second.
* The console shows the phase the run is in from start to end
  (:mod:`grader.course.grade_progress`).
* A submission whose grading fails (the grader raised, its process died) is
  reported and left out of the store, so the next run tries it again; the
  rest of the class is graded.
* Under faults (issue 18): publishing a result's feedback is recorded with it
  and every run publishes again what a stop left out (:mod:`.publication`);
  the grading processes die with this one and their temporary folders go
  with them (:mod:`grader.lifeline`); a storage error is one line naming the
  file, and a full disk stops the run after the submissions being graded
  (:mod:`.storage`).

Feedback: ``feedback/<student>/feedback.md``, ``feedback.html`` (with the late
penalty and the final grade) and ``results.json`` (the latest graded commit,
with the final grade the gradebook records: :mod:`grader.course.grade_outputs`);
every grading run keeps its own folder under ``.work/grading``. A dry run
(:mod:`grader.course.dry_run`) writes all of this in a folder of its own.
"""

from __future__ import annotations

import datetime as dt
import json
import multiprocessing
import os
import re
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from rich.console import Console

from solitaire.errors import UserError

from ..lifeline import Stopped, grading_run, kill_pool_workers
from . import faults, feedback_files, publication, storage
from .assign import load_assignments, roster_by_id
from .collect import Collected, read_collected
from .config import CourseConfig
from .grade_outputs import OUTPUTS_VERSION, outputs_present, record_grade, sync_outputs
from .grade_progress import GRADING, REACHING, STARTING, WRITING, RunProgress
from .gradebook_opening import OpeningGradebook, open_now, opened, start_opening
from .gradebook_state import GradebookState, file_digest, inputs_digest, is_current
from .graders import get as get_grader
from .lock import course_lock
from .points import category_points
from .results import Key, Result, ResultStore
from .roster import Student
from .scores import category_fractions, earned_points
from .task_order import longest_first
from .worker import GradeOutcome, GradeTask, grade_one, sandboxes_per_submission, start_pool_process

BACKENDS = ("local", "celery")

if TYPE_CHECKING:
    from .gradebook import CourseGradebook


@dataclass
class GradeReport:
    graded: list[Key] = field(default_factory=list)
    already: list[Key] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    not_gradable: list[Collected] = field(default_factory=list)
    run_id: str = ""
    republished: list[str] = field(default_factory=list)  # feedback a stopped run had not published
    unpublished: list[tuple[str, str]] = field(default_factory=list)  # (student, why it could not be)


@dataclass
class GradebookWrites:
    """Everything a run writes to the gradebook: structure, students, a record per stored result."""

    variations: list[str]
    students: list[Student]
    records: list[tuple[Collected, Result]]
    digest: str  # of everything above, as written (inputs_digest)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", text)


def plan(
    config: CourseConfig, grader: str, regrade: bool, store: ResultStore, version: str
) -> tuple[list[GradeTask], list[Key], list[Collected], list[Collected]]:
    """(tasks to run, keys already graded, gradable rows, rows that cannot be graded)."""
    rows = read_collected(config)
    tasks, already, gradable, not_gradable = [], [], [], []
    for row in rows:
        if not row.gradable:
            not_gradable.append(row)
            continue
        gradable.append(row)
        key = Key(row.student, config.assignment, row.sha, version)
        if store.has(key) and not regrade:
            already.append(key)
            continue
        out = config.work_dir / "grading" / row.student / f"{row.sha[:12]}-{_slug(version)}"
        tasks.append(GradeTask(row.student, config.assignment, row.variation, row.sha, version, grader,
                               row.submission, str(out), config.timeout,
                               category_points(row.variation, config.points)))
    return tasks, already, gradable, not_gradable


@dataclass(frozen=True)
class CeleryWorkers:
    """A reachable broker with a worker: the :mod:`celery_app` module, its URL, the Celery app."""

    module: ModuleType
    url: str
    app: Any


class ClassGrader:
    """One ``course grade`` run: the single writer of the store and the gradebook."""

    def __init__(self, config: CourseConfig, grader: str = "sandbox", run_id: str | None = None) -> None:
        self.config = config
        self.grader = grader
        self._version_of = get_grader(grader)[1]
        self.run_id = run_id or uuid.uuid4().hex[:12]

    @cached_property
    def version(self) -> str:
        """The grader's version, computed when the run needs it (a digest of the grader's files)."""
        return self._version_of()

    def to_result(self, outcome: GradeOutcome) -> Result:
        task = outcome.task
        assert outcome.results is not None
        points = category_points(task.variation, self.config.points)
        categories = category_fractions(outcome.results, list(points))
        earned = earned_points(categories, points)
        feedback = Path(task.out_dir) / "feedback.md"
        return Result(
            key=task.key,
            variation=task.variation,
            score=round(sum(earned.values()), 4),
            max_score=sum(points.values()),
            categories=categories,
            results=outcome.results,
            feedback_path=str(feedback) if feedback.exists() else "",
            graded_at=dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat(),
            run_id=self.run_id,
            seconds=round(outcome.seconds, 3),
        )

    def publish_feedback(self, student: str, out_dir: Path, row: Collected, result: Result) -> None:
        """The latest graded run's feedback to ``feedback/<student>/``, with the late penalty and the
        final grade as the gradebook records them (:mod:`grader.course.feedback_files`)."""
        _, _, _, earned, penalty = self.record_values(row, result)
        target = self.config.feedback_dir / student
        feedback_files.publish(out_dir, target, row, sum(earned.values()), penalty)

    def record_values(
        self, row: Collected, result: Result
    ) -> tuple[str, str, dt.datetime, dict[str, float], float]:
        """The arguments of :meth:`CourseGradebook.record` for ``row`` graded as ``result``."""
        earned, grade = record_grade(self.config, row, result)
        return row.student, row.variation, dt.datetime.fromisoformat(row.received_at), earned, grade.penalty

    def record(self, gradebook: CourseGradebook, row: Collected, result: Result) -> None:
        gradebook.record(*self.record_values(row, result))

    def gradebook_writes(self, store: ResultStore, gradable: list[Collected]) -> GradebookWrites:
        """What this run writes to the gradebook given the results stored now, with its digest."""
        config = self.config
        assignments = load_assignments(config)
        variations = list(dict.fromkeys(list(config.variations) + [a.variation for a in assignments]))
        roster = roster_by_id(config)
        dropped = [Student(a.student, "", "") for a in assignments if a.student not in roster]
        records = []
        for row in gradable:
            result = store.get(Key(row.student, config.assignment, row.sha, self.version))
            if result is not None:
                records.append((row, result))
        students = list(roster.values()) + dropped
        digest = inputs_digest({
            "url": config.gradebook_db_url(), "course": config.course_id, "assignment": config.assignment,
            "outputs": OUTPUTS_VERSION,
            "deadline": config.deadline.isoformat(),
            "variations": [[v, category_points(v, config.points)] for v in variations],
            "students": [[s.id, s.name, s.email] for s in students],
            "records": [self.record_values(row, result) for row, result in records],
        })
        return GradebookWrites(variations, students, records, digest)

    def run(
        self,
        jobs: int | None = None,
        regrade: bool = False,
        console: Console | None = None,
        on_result: Callable[[GradeOutcome], None] | None = None,
        backend: str = "local",
        broker: str | None = None,
    ) -> GradeReport:
        """Grade what is missing; ``backend``: ``local`` (process pool) or ``celery`` (``broker``)."""
        if backend not in BACKENDS:
            raise UserError(f"unknown grading backend {backend!r} (known: {', '.join(BACKENDS)})")
        config = self.config
        report = GradeReport(run_id=self.run_id)
        url = config.gradebook_db_url()
        with RunProgress(console or Console(stderr=True)) as progress, \
                ResultStore(config.results_path) as store:
            tasks, report.already, gradable, report.not_gradable = plan(
                config, self.grader, regrade, store, self.version
            )
            writes = self.gradebook_writes(store, gradable)
            stored = {row.student: (row, result) for row, result in writes.records}
            report.republished, report.unpublished = publication.heal(
                store.connection, [(student, result) for student, (_, result) in stored.items()],
                config.feedback_dir,
                lambda student, out: self.publish_feedback(student, out, *stored[student]))
            # a folder published again still needs its results.json brought in line (sync_outputs)
            if not tasks and not report.republished \
                    and is_current(store.gradebook_state(url), url, writes.digest) \
                    and outputs_present(config, writes.records):
                progress.finish(f"nothing to grade: {len(report.already)} already graded with "
                                f"{self.version}, {len(report.not_gradable)} with nothing to grade; "
                                "the gradebook is up to date")
                return report
            # the broker and a worker first: when they cannot be reached, that is the one line printed
            workers = self._connect_celery(broker, progress) if backend == "celery" and tasks else None
            store.forget_gradebook_state()  # the gradebook is about to change
            # opened in the background once the grading processes have started (gradebook_opening)
            with OpeningGradebook(config, writes.variations, writes.students, progress) as opening:
                gradebook = cast("CourseGradebook", opening)
                self._grade(tasks, jobs, regrade, workers, store, gradebook, gradable, report, progress,
                            on_result)
                gradebook = opened(gradebook)
                progress.phase(WRITING)
                writes = self.gradebook_writes(store, gradable)
                written = self._write_all(gradebook, writes, report)
                scores = gradebook.scores() if written else None
                sync_outputs(config, gradebook, writes.records)
                # after sync_outputs: the digests recorded are those of the files as they stay
                publication.record_all(store.connection, writes.records, report.failed, config.feedback_dir)
            digest = file_digest(url)
            if scores is not None and digest is not None:
                store.save_gradebook_state(GradebookState(url, writes.digest, digest, scores))
            progress.finish(f"{len(report.graded)} graded, {len(report.already)} already graded, "
                            f"{len(report.failed)} failed")
        return report

    def _grade(
        self,
        tasks: list[GradeTask],
        jobs: int | None,
        regrade: bool,
        workers: CeleryWorkers | None,
        store: ResultStore,
        gradebook: CourseGradebook,
        gradable: list[Collected],
        report: GradeReport,
        progress: RunProgress,
        on_result: Callable[[GradeOutcome], None] | None,
    ) -> None:
        """Grade ``tasks`` (on Celery ``workers``, else a pool), storing and recording each result."""
        rows = {row.student: row for row in gradable}
        pending = list(tasks)
        if workers is not None and pending:
            start_opening(gradebook)
            try:
                self._run_celery(pending, workers, regrade, store, gradebook, rows, report, progress,
                                 on_result)
            finally:
                workers.module.release(workers.app)
            pending = []
        for attempt in range(2):  # a dead worker breaks the pool: one more round with a new pool
            if not pending:
                break
            pending = self._run_pool(pending, jobs or self.config.jobs, store, gradebook, rows, report,
                                     progress, on_result, attempt)
        for task in pending:
            report.failed.append((task.student, "the grading process died twice"))

    def _write_all(self, gradebook: CourseGradebook, writes: GradebookWrites, report: GradeReport) -> bool:
        """Write every stored result again (heals a crash between the two writes), and its feedback with the
        late penalty recorded; False if one failed."""
        written = True
        for row, result in writes.records:
            try:
                self.record(gradebook, row, result)
                if result.feedback_path:  # the penalty may have changed since (a new late policy)
                    self.publish_feedback(row.student, Path(result.feedback_path).parent, row, result)
            except Exception as error:  # noqa: BLE001 - reported; the store keeps the result
                written = False
                if row.student not in {student for student, _ in report.failed}:
                    report.failed.append((row.student, "not written to the gradebook: "
                                                       f"{type(error).__name__}: {error}"))
        return written

    def _run_pool(
        self,
        tasks: list[GradeTask],
        jobs: int,
        store: ResultStore,
        gradebook: CourseGradebook,
        rows: dict[str, Collected],
        report: GradeReport,
        progress: RunProgress,
        on_result: Callable[[GradeOutcome], None] | None,
        attempt: int,
    ) -> list[GradeTask]:
        """Grade ``tasks``; returns those lost to a broken pool."""
        lost: list[GradeTask] = []
        context = multiprocessing.get_context("spawn")
        workers = max(1, min(jobs, len(tasks)))
        progress.phase(STARTING.format(jobs=workers))
        with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=start_pool_process,
                                 initargs=(os.getpid(), sandboxes_per_submission(workers))) as pool, \
                stop_on_error(pool):
            futures: dict[Future[GradeOutcome], GradeTask] = {pool.submit(grade_one, t): t
                                                              for t in longest_first(tasks)}
            start_opening(gradebook)  # in the background, while the first submissions are graded
            progress.phase(GRADING if attempt == 0 else f"{GRADING} (retry)", total=len(tasks))
            for future in as_completed(futures):
                task = futures[future]
                try:
                    outcome = future.result()
                except BrokenProcessPool:
                    lost.append(task)
                    progress.advance(f"{task.student} (its process died)")
                    continue
                self._handle(outcome, store, gradebook, rows, report)
                if on_result:
                    on_result(outcome)
                progress.advance(task.student)
        return lost

    def _run_celery(
        self,
        tasks: list[GradeTask],
        workers: CeleryWorkers,
        regrade: bool,
        store: ResultStore,
        gradebook: CourseGradebook,
        rows: dict[str, Collected],
        report: GradeReport,
        progress: RunProgress,
        on_result: Callable[[GradeOutcome], None] | None,
    ) -> None:
        """Grade ``tasks`` on Celery workers; each outcome is handled here, as it arrives."""
        def warn(line: str) -> None:
            progress.console.print(f"solitaire: warning: {line}", highlight=False, soft_wrap=True)

        course = workers.module.course_identity(self.config)
        outcomes = workers.module.grade_on_workers(tasks, workers.url, course, regrade=regrade,
                                                   app=workers.app, warn=warn)
        progress.phase(f"{GRADING} (celery {workers.module.safe_url(workers.url)})", total=len(tasks))
        for outcome in outcomes:
            self._handle(outcome, store, gradebook, rows, report)
            if on_result:
                on_result(outcome)
            progress.advance(outcome.task.student)

    def _connect_celery(self, broker: str | None, progress: RunProgress) -> CeleryWorkers:
        """The broker's app once a worker answers; else a one-line :class:`UserError`."""
        progress.phase(REACHING, printed=False)
        celery_app = import_celery_app()
        url = celery_app.check_broker(broker or self.config.broker or celery_app.DEFAULT_BROKER)
        try:
            return CeleryWorkers(celery_app, url, celery_app.connect(url))
        except celery_app.NoWorker as error:
            raise UserError(str(error)) from None

    def _handle(
        self,
        outcome: GradeOutcome,
        store: ResultStore,
        gradebook: CourseGradebook,
        rows: dict[str, Collected],
        report: GradeReport,
    ) -> None:
        task = outcome.task
        if outcome.results is None:
            report.failed.append((task.student, outcome.error))
            return
        result = self.to_result(outcome)
        store.put(result)  # first the store: it decides what is graded again
        faults.checkpoint("stored")
        self.publish_feedback(task.student, Path(task.out_dir), rows[task.student], result)
        publication.record(store.connection, task.key, self.config.feedback_dir / task.student)
        report.graded.append(task.key)
        ready = open_now(gradebook)
        if ready is None:  # still opening: written with every stored result at the end (_write_all)
            return
        try:
            self.record(ready, rows[task.student], result)
        except Exception as error:  # noqa: BLE001 - stored; the next run writes the gradebook again
            report.failed.append((task.student, f"graded and stored, but not written to the gradebook: "
                                                f"{type(error).__name__}: {error}"))


@contextmanager
def stop_on_error(pool: ProcessPoolExecutor) -> Iterator[None]:
    """On an error (a full disk) no queued submission starts and those being graded finish; on a stop
    (SIGTERM, Ctrl-C) the workers are killed, with everything they started."""
    try:
        yield
    except BaseException as error:
        pool.shutdown(wait=False, cancel_futures=True)
        if isinstance(error, (Stopped, KeyboardInterrupt)):
            kill_pool_workers()
        raise


def import_celery_app() -> ModuleType:
    """:mod:`grader.course.celery_app`, or a one-line error when celery is not installed."""
    try:
        from . import celery_app
    except ImportError as error:
        raise UserError(f"the celery backend needs celery with Redis ({error}); install it with "
                        "`pip install 'celery[redis]'` (the project's `scale` extra)") from None
    return celery_app


def grade_class(
    config: CourseConfig,
    jobs: int | None = None,
    regrade: bool = False,
    grader: str = "sandbox",
    console: Console | None = None,
    backend: str = "local",
    broker: str | None = None,
) -> GradeReport:
    """Grade the class (see the module docstring); one grading per course at a time."""
    with storage.guard(config.results_path, "grade"), course_lock(config.work_dir, "grade"), \
            grading_run("course grade", "the results stored so far are kept: run it again to grade the rest"):
        return ClassGrader(config, grader).run(jobs, regrade, console, backend=backend, broker=broker)


def load_results(config: CourseConfig, grader: str = "sandbox") -> dict[str, Result]:
    """Student → stored result of their collected commit under the current grader version."""
    version = get_grader(grader)[1]()
    found = {}
    with ResultStore(config.results_path) as store:
        for row in read_collected(config):
            if row.gradable:
                result = store.get(Key(row.student, config.assignment, row.sha, version))
                if result is not None:
                    found[row.student] = result
    return found


def results_summary(result: Result) -> str:
    return json.dumps({c: list(v) for c, v in result.categories.items()})
