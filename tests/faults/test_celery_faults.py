"""The Celery backend of ``course grade`` under faults (issue 18 item 1, issue 13 item 5).

Everything is real: a redis-server, ``solitaire course worker`` processes
and ``course grade`` runs, started here and stopped (or killed) by PID. The
grader is a plug-in (fault_graders.py) that gives the static grader's result,
slowed or broken from the worker's environment. The course's ``[grading]
timeout`` is 2 s, so a task's limit is 1.5 x 2 + 5 = 8 s, and it is lost 5 s later.

Cases: a worker killed mid-grading (another worker finishes its task; with
no worker left the run stops with one line and a rerun grades); a failed
grading never reused; a worker that cannot see the course directory; a
result never reused across course directories; the broker stopped mid-run.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import fault_graders
import kombu.pools
import pytest
from celery_support import (
    REDIS_SERVER,
    SOLITAIRE,
    redis_url,
    start_redis,
    start_worker,
    stop,
    wait_for_worker,
)
from rich.console import Console
from workflow_support import at, published, push

from grader.course import collect, config
from grader.course.celery_watch import WorkersGone
from grader.course.grade_class import GradeReport, grade_class
from grader.course.results import ResultStore

pytestmark = pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server not installed")
celery_app = pytest.importorskip("grader.course.celery_app", reason="celery[redis] is not installed")

from grader.course import celery_message  # noqa: E402 - needs celery only through celery_app's import

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
STUDENTS = ["ada", "bob", "cy"]
TIMEOUT = 2  # [grading] timeout of the test course: a task's limit is 8 s, lost after 13 s
PAUSE = "1.5"  # seconds the slow grader sleeps: time to kill its worker mid-grading
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(HERE)]))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A redis-server for the module; each test uses a database of its own (its own queue)."""
    process = start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield process
    finally:
        stop(process, group=False)


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A collected class of three (the reference on time each), [grading] timeout = 2 s."""
    course = published(tmp_path_factory.mktemp("template") / "course", STUDENTS, variations=("scorpion",))
    for index, student in enumerate(STUDENTS):
        push(course, student, at(-3 + index))
    collect.collect(course, clock=lambda: at(1))
    course_file = course.directory / config.CONFIG_NAME
    text = course_file.read_text(encoding="utf-8")
    assert "\ntimeout = 600\n" in text
    course_file.write_text(text.replace("\ntimeout = 600\n", f"\ntimeout = {TIMEOUT}\n"), encoding="utf-8")
    course = config.load(course.directory)
    # the gradebook created once (nbgrader's schema takes seconds): each copy only adds to it
    grade_class(course, grader="static", console=Console(file=io.StringIO()))
    return course


def _copy(template: config.CourseConfig, directory: Path) -> config.CourseConfig:
    return config.load(shutil.copytree(template.directory, directory, symlinks=True))


def _worker(url: str, log: Path, name: str, concurrency: int = 1, prefix: tuple[str, ...] = (),
            cwd: Path | None = None, **env: str) -> subprocess.Popen[bytes]:
    return start_worker(url, log, extra=["--name", f"{name}@faults", "--visibility-timeout", "10"],
                        env=dict(ENV, **env), cwd=cwd, prefix=prefix, concurrency=concurrency)


def _grade_command(course: config.CourseConfig, url: str, grader: str, *extra: str) -> list[str]:
    return SOLITAIRE + ["course", "grade", str(course.directory), "--backend", "celery", "--broker", url,
                        "--grader", grader, *extra]


def _grade_here(course: config.CourseConfig, url: str, grader: str = "fault_graders:slow") -> tuple[
        GradeReport, str]:
    """``course grade`` in this process (the parent; the workers are real processes): (report, console)."""
    console = Console(file=io.StringIO(), width=300)
    report = grade_class(course, grader=grader, backend="celery", broker=url, console=console)
    return report, console.file.getvalue()  # type: ignore[attr-defined]


class _Background(threading.Thread):
    """:func:`_grade_here` in a thread, while the test kills a worker: its report, or what it raised."""

    def __init__(self, course: config.CourseConfig, url: str) -> None:
        super().__init__(daemon=True)
        self.course, self.url = course, url
        self.report: GradeReport | None = None
        self.console = ""
        self.error: BaseException | None = None

    def run(self) -> None:
        console = Console(file=io.StringIO(), width=300)
        try:
            self.report = grade_class(self.course, grader="fault_graders:slow", backend="celery",
                                      broker=self.url, console=console)
        except BaseException as error:  # noqa: BLE001 - handed to the test
            self.error = error
        self.console = console.file.getvalue()  # type: ignore[attr-defined]

    def result(self, seconds: float = 120.0) -> _Background:
        self.join(seconds)
        assert not self.is_alive(), f"course grade did not end in {seconds:.0f} s"
        return self


def _started_on(url: str, hostname: str | None, seconds: float = 60.0) -> str:
    """The student of the first task seen STARTED (on ``hostname``, if given) in ``url``'s backend."""
    app = celery_app.make_app(url)
    client = app.backend.client
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        for key in client.scan_iter("celery-task-meta-solitaire-grade/*"):
            meta = json.loads(client.get(key) or "{}")
            if meta.get("status") == "STARTED" and hostname in (None, meta["result"].get("hostname")):
                return key.decode().split("/")[3]
        time.sleep(0.05)  # polling a real worker
    raise AssertionError(f"no task STARTED in {seconds:.0f} s")


def _stored_states(url: str, course: config.CourseConfig) -> dict[str, str]:
    """Task id: state, of the results the backend holds for ``course``."""
    client = celery_app.make_app(url).backend.client
    pattern = f"celery-task-meta-solitaire-grade/{celery_message.course_identity(course)}/*"
    return {key.decode(): json.loads(client.get(key) or "{}").get("status")
            for key in client.scan_iter(pattern)}


def _graded(course: config.CourseConfig) -> dict[str, int]:
    """Student: times graded by the fault graders (the template's static gradings left out)."""
    with ResultStore(course.results_path) as store:
        return {key.student: count for key, count in store.grading_counts().items()
                if key.grader_version == fault_graders.VERSION}


def _lines(text: str, prefix: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(prefix)]


# -- what travels: no path ------------------------------------------------------------------
def test_the_message_carries_the_rules_file_and_no_course_path(template, tmp_path):
    big = tmp_path / "big"
    big.mkdir()
    (big / "scorpion.py").write_bytes(b"#" * (celery_message.MAX_RULES_BYTES + 5000))
    task = celery_app.GradeTask("ada", template.assignment, "scorpion", "a" * 40, "v1", "static", str(big),
                                str(template.work_dir / "grading" / "ada" / "x"), 2.0, {"deal": 1.0})
    message = celery_message.payload(task, celery_message.course_identity(template))
    text = json.dumps(message)
    assert str(template.directory) not in text and str(tmp_path) not in text
    assert not re.search(r'"/', text)  # no absolute path anywhere
    assert set(message["files"]) == {"scorpion.py"}  # still larger than the sandbox accepts, but capped
    assert len(base64.b64decode(message["files"]["scorpion.py"])) == celery_message.MAX_RULES_BYTES + 1

    with pytest.raises(OSError, match="not a plain relative path"):
        celery_message.write_files({"files": {"../escape.md": ""}}, tmp_path / "out")
    assert not (tmp_path / "escape.md").exists()


def test_the_visibility_timeout_is_sized_to_the_task_limit_not_an_hour(capsys):
    from solitaire.cli import main

    assert celery_app.make_app("redis://127.0.0.1:1/0").conf.broker_transport_options == {
        "visibility_timeout": 965.0}  # 1.5 x 600 + 5 + 60, for the default [grading] timeout
    assert celery_app.make_app("redis://127.0.0.1:1/0", 20).conf.broker_transport_options == {
        "visibility_timeout": 20}
    assert main(["course", "worker", "--broker", "redis://127.0.0.1:1/0", "--visibility-timeout", "5"]) == 2
    assert "--visibility-timeout must be at least 10 seconds" in capsys.readouterr().err


def test_a_worker_refuses_a_message_of_another_protocol_in_words():
    app = celery_app.make_app("redis://127.0.0.1:1/0")  # no connection is made
    result = app.tasks[celery_app.TASK_NAME].apply(args=[{"student": "ada", "out_dir": "/course/x"}])
    assert result.failed() and isinstance(result.result, celery_message.GradingFailed)
    assert str(result.result) == ("the worker speaks Celery message protocol 2, `course grade` sent 1: give "
                                  "the workers and `course grade` the same version of solitaire-lab")


# -- item 1: a worker killed mid-grading -------------------------------------------------------
def test_a_worker_killed_mid_grading_is_reported_resent_and_graded(server, template, tmp_path):
    url = redis_url(server, 1)
    course = _copy(template, tmp_path / "course")
    doomed = _worker(url, tmp_path / "doomed.log", "doomed", FAULT_GRADER_PAUSE=PAUSE)
    other = _worker(url, tmp_path / "other.log", "other", FAULT_GRADER_PAUSE=PAUSE)
    try:
        started = time.monotonic()
        run = _Background(course, url)
        run.start()
        victim = _started_on(url, "doomed@faults")
        os.killpg(doomed.pid, signal.SIGKILL)  # the worker and its pool process, mid-grading
        run.result()
        seconds = time.monotonic() - started
    finally:
        stop(doomed, group=True)
        stop(other, group=True)
    assert run.error is None and run.report is not None, run.console
    assert len(run.report.graded) == 3 and not run.report.failed
    (warning,) = _lines(run.console, "solitaire: warning:")
    assert warning.startswith(f"solitaire: warning: {victim}: no result from the Celery workers within 13 s")
    assert warning.endswith("sent again")
    assert seconds < 60  # not the broker's hour
    assert _graded(course) == dict.fromkeys(STUDENTS, 1)
    assert all((course.feedback_dir / student / "feedback.md").is_file() for student in STUDENTS)
    assert not _left_behind()  # the killed grading's folder was swept by the next grading


def _left_behind() -> list[Path]:
    """Grading folders of Celery pool processes that are gone."""
    folders = Path(tempfile.gettempdir()).glob(f"{celery_message.FOLDER_PREFIX}*-*")
    return [f for f in folders if not Path(f"/proc/{f.name.split('-')[2]}").exists()]


def test_with_no_worker_left_the_run_stops_with_one_line_and_a_rerun_grades(server, template, tmp_path):
    url = redis_url(server, 2)
    course = _copy(template, tmp_path / "course")
    doomed = _worker(url, tmp_path / "doomed.log", "doomed", FAULT_GRADER_PAUSE=PAUSE)
    try:
        run = _Background(course, url)
        run.start()
        _started_on(url, "doomed@faults")
        os.killpg(doomed.pid, signal.SIGKILL)
        run.result()
    finally:
        stop(doomed, group=True)
    assert isinstance(run.error, WorkersGone), run.console
    missing = len(STUDENTS) - len(_graded(course))
    assert missing >= 1
    assert str(run.error) == (f"no Celery worker answers on {url} any more; the {missing} student(s) not "
                              "graded will be graded by the next run (start a worker: `solitaire course "
                              f"worker --broker {url}`)")
    assert not _lines(run.console, "solitaire: warning:")  # nobody reported failed: not graded, for the rerun

    rescuer = _worker(url, tmp_path / "rescuer.log", "rescuer", FAULT_GRADER_PAUSE="0")
    try:
        rerun, console = _grade_here(course, url)
    finally:
        stop(rescuer, group=True)
    assert len(rerun.graded) == missing and not rerun.failed, console
    assert _graded(course) == dict.fromkeys(STUDENTS, 1)


# -- item 2: a failure is never reused ----------------------------------------------------------
def test_a_failed_grading_is_graded_again_by_the_next_run(server, template, tmp_path):
    url = redis_url(server, 3)
    course = _copy(template, tmp_path / "course")
    marker = tmp_path / "broken"
    marker.write_text("the worker cannot read submissions", encoding="utf-8")
    worker = _worker(url, tmp_path / "worker.log", "fixable", concurrency=2, FAULT_GRADER_BROKEN=str(marker))
    try:
        failed, _ = _grade_here(course, url, "fault_graders:broken")
        # the run released its connections: runs once left their sockets and epoll descriptors in
        # kombu's process-wide pools, and a test session ran out of low descriptor numbers
        assert len(kombu.pools.connections) == 0 and len(kombu.pools.producers) == 0
        assert not _stored_states(url, course)  # each failure forgotten once reported
        marker.unlink()  # the fix
        fixed, _ = _grade_here(course, url, "fault_graders:broken")  # without --regrade
    finally:
        stop(worker, group=True)
    assert not failed.graded and sorted(student for student, _ in failed.failed) == STUDENTS
    for _, reason in failed.failed:
        assert reason.startswith("OSError: cannot read the submission"), reason
    assert len(fixed.graded) == 3 and not fixed.failed and not fixed.already
    assert set(_stored_states(url, course).values()) == {"SUCCESS"}
    assert _graded(course) == dict.fromkeys(STUDENTS, 1)


def test_a_grading_past_its_limit_is_stopped_by_the_worker_and_reported_failed(server, template, tmp_path):
    url = redis_url(server, 6)
    course = _copy(template, tmp_path / "course")
    worker = _worker(url, tmp_path / "worker.log", "hung", concurrency=3, FAULT_GRADER_PAUSE="60")
    try:
        started = time.monotonic()
        report, console = _grade_here(course, url)
        seconds = time.monotonic() - started
    finally:
        stop(worker, group=True)
    assert not report.graded and sorted(student for student, _ in report.failed) == STUDENTS, console
    for _, reason in report.failed:
        assert reason.startswith("the grading ran past its limit of 8 s on the Celery worker"), reason
    assert not _lines(console, "solitaire: warning:")  # failed, not lost: no resend
    assert seconds < 40 and not _graded(course)


# -- item 3: no shared file system ----------------------------------------------------------------
def _bubblewrap(hidden: list[Path], cwd: Path) -> tuple[str, ...]:
    """A prefix that runs a command with each of ``hidden`` an empty folder, or skips the test."""
    bwrap = shutil.which("bwrap")
    prefix = (bwrap, "--dev-bind", "/", "/", *[a for h in hidden for a in ("--tmpfs", str(h))],
              "--chdir", str(cwd), "--") if bwrap else ()
    if not prefix or subprocess.run([*prefix, "true"], capture_output=True).returncode != 0:
        pytest.skip("bubblewrap cannot hide folders here")
    return prefix  # type: ignore[return-value]


def test_a_worker_that_cannot_see_the_course_grades_and_the_feedback_reaches_the_course(
        server, template, tmp_path):
    url = redis_url(server, 4)
    course = _copy(template, tmp_path / "hidden" / "course")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    prefix = _bubblewrap([tmp_path / "hidden", template.directory.parent], elsewhere)
    worker = _worker(url, elsewhere / "worker.log", "remote", concurrency=2, prefix=prefix, cwd=elsewhere,
                     FAULT_GRADER_HIDDEN=str(course.directory))
    try:
        report, console = _grade_here(course, url)
    finally:
        stop(worker, group=True)
    assert len(report.graded) == 3 and not report.failed, console
    for student in STUDENTS:
        (folder,) = (course.work_dir / "grading" / student).glob(f"*-{fault_graders.VERSION}")
        assert (folder / "seen.txt").read_text(encoding="utf-8") == "hidden"  # the worker saw no course
        assert {p.name for p in folder.iterdir()} == {"results.json", "feedback.md", "feedback.html",
                                                      "seen.txt"}
        feedback = course.feedback_dir / student
        assert (feedback / "feedback.md").read_bytes() == (folder / "feedback.md").read_bytes()
        assert json.loads((feedback / "results.json").read_text(encoding="utf-8"))["score"] > 0


# -- item 4: results keyed by the course ---------------------------------------------------------------
def test_a_result_of_another_course_directory_is_not_reused(server, template, tmp_path):
    url = redis_url(server, 5)
    first, second = _copy(template, tmp_path / "first"), _copy(template, tmp_path / "second")
    assert celery_message.course_identity(first) != celery_message.course_identity(second)
    log = tmp_path / "worker.log"
    worker = _worker(url, log, "keyed", concurrency=2)
    try:
        one, two = _grade_here(first, url)[0], _grade_here(second, url)[0]
    finally:
        stop(worker, group=True)
    for report in (one, two):
        assert len(report.graded) == 3 and not report.failed and not report.already
    for student in STUDENTS:  # graded for each course, not taken from the other's result
        assert log.read_text().count(f"graded {student} scorpion: ") == 2
        assert (second.feedback_dir / student / "feedback.md").is_file()


# -- item 5: the broker lost mid-run ----------------------------------------------------------------
def test_a_broker_lost_mid_run_is_one_line_and_a_rerun_completes(template, tmp_path):
    folder = tmp_path / "redis"
    folder.mkdir()
    redis = start_redis(folder, persistent=True)  # a restart keeps queues and results, as in production
    url = redis_url(redis)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    course = _copy(template, tmp_path / "course")
    log = tmp_path / "worker.log"
    worker = _worker(url, log, "steady", FAULT_GRADER_PAUSE=PAUSE)
    try:
        run = subprocess.Popen(_grade_command(course, url, "fault_graders:slow"), env=ENV, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            _started_on(url, None)
            stop(redis, group=False)  # SIGTERM by PID, mid-grading
            stdout, stderr = run.communicate(timeout=120)
        finally:
            stop(run, group=True)
        assert run.returncode == 2, stderr
        assert "Traceback" not in stderr and not _lines(stderr, "solitaire: warning:")
        (line,) = _lines(stderr, "solitaire: error:")
        missing = len(STUDENTS) - len(_graded(course))
        assert re.fullmatch(rf"solitaire: error: lost the Celery broker {re.escape(url)}: .+; the {missing} "
                            r"student\(s\) not graded will be graded by the next run", line), line

        redis = start_redis(folder, port=port, persistent=True)
        wait_for_worker(url, worker, log)  # the worker reconnects by itself
        rerun, console = _grade_here(course, url)
    finally:
        stop(worker, group=True)
        stop(redis, group=False)
    assert len(rerun.graded) == missing and len(rerun.already) == len(STUDENTS) - missing, console
    assert not rerun.failed and not _lines(console, "solitaire: warning:")  # no stale "connection refused"
    assert _graded(course) == dict.fromkeys(STUDENTS, 1)
