"""course grade --backend celery: a real Redis, a real Celery worker, the real sandboxed grader.

The test starts its own ``redis-server`` (127.0.0.1 only, a free port, no
persistence, in a temporary folder) and a worker (``solitaire course worker``,
prefork, 2 processes) and stops both at the end, also on failure. The class
graded on Celery must give the gradebook the local process pool gives; a rerun
grades nothing; a result that reached Redis but not the store (the parent died
in between) is taken from Redis with its files, not graded again.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from celery_support import REDIS_SERVER, SOLITAIRE, free_port, redis_url, start_redis, start_worker, stop
from workflow_support import at, published, push

from grader.course import collect, config, export, simulate
from grader.course.grade_class import grade_class
from grader.course.results import Key, ResultStore
from solitaire.errors import UserError

pytestmark = [
    pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server not installed (scripts/setup.sh adds it)"),
    pytest.mark.skipif(not simulate.reference_text("scorpion"), reason="no Scorpion reference"),
]
celery_app = pytest.importorskip("grader.course.celery_app",
                                 reason="celery[redis] is not installed (the dev extra brings it)")

STUDENTS = ["ada", "bob", "cy"]


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    """A private redis-server on 127.0.0.1; yields its URL."""
    process = start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield redis_url(process)
    finally:
        stop(process, group=False)


@pytest.fixture(scope="module")
def worker(broker, tmp_path_factory):
    """``solitaire course worker`` on ``broker`` (its own process group); yields its log file."""
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    process = start_worker(broker, log_path)
    try:
        yield log_path
    finally:
        stop(process, group=True)


@pytest.fixture(scope="module")
def courses(tmp_path_factory):
    """The same collected class twice: (to grade on Celery, to grade locally).

    ada: reference on time; bob: two rules, 30 h late; cy: never pushes.
    """
    root = tmp_path_factory.mktemp("celery-course")
    course = published(root / "course", STUDENTS, variations=("scorpion",))
    push(course, "ada", at(-2))
    text, _ = simulate.partial("scorpion", 2)
    push(course, "bob", at(30), simulate.write_rules("scorpion", text))
    collect.collect(course, clock=lambda: at(48))
    local = config.load(shutil.copytree(course.directory, root / "local", symlinks=True))
    return course, local


def _grade_cli(course, broker, *extra):
    return subprocess.run(SOLITAIRE + ["course", "grade", str(course.directory), "--backend", "celery",
                                       "--broker", broker, *extra],
                          capture_output=True, text=True, timeout=300)


def _comparable(course):
    _, rows = export.export_csv(course)
    return {row.student: (row.status, row.sha, row.raw_score, row.late_penalty, row.score, row.max_score,
                          bool(row.feedback) and Path(row.feedback).is_file()) for row in rows}


def _categories(course):
    with ResultStore(course.results_path) as store:
        return {key.student: store.get(key).categories for key in store.grading_counts()}


def test_celery_gives_the_local_gradebook_and_never_grades_twice(courses, broker, worker):
    course, local = courses
    graded = _grade_cli(course, broker)
    assert graded.returncode == 0, graded.stderr + worker.read_text()
    assert "2 graded, 0 already graded, 0 failed, 1 with nothing to grade" in graded.stdout

    report = grade_class(local, jobs=2, grader="sandbox")
    assert not report.failed and len(report.graded) == 2

    on_celery, on_pool = _comparable(course), _comparable(local)
    assert on_celery == on_pool
    assert on_celery["ada"][4] == on_celery["ada"][5] > 0  # full marks
    assert 0 < on_celery["bob"][2] < on_celery["bob"][5] and on_celery["bob"][3] > 0  # partial, late
    assert on_celery["cy"][0] == "not-submitted"
    assert _categories(course) == _categories(local)
    log = worker.read_text()  # graded by the worker, not in this process: one INFO line per task
    for student in ("ada", "bob"):
        (line,) = [line for line in log.splitlines() if f"graded {student} scorpion: " in line]
        score, maximum = re.search(r"graded \w+ scorpion: (\S+) / (\S+) in \d+\.\d s$", line).groups()
        assert float(score) == on_celery[student][2] and float(maximum) == on_celery[student][5], line
    assert "succeeded in" not in log and '"tests"' not in log  # Celery's full-result line is gone

    again = _grade_cli(course, broker)
    assert again.returncode == 0, again.stderr
    assert "0 graded, 2 already graded" in again.stdout
    with ResultStore(course.results_path) as store:
        counts = store.grading_counts()
    assert sorted(key.student for key in counts) == ["ada", "bob"]
    assert set(counts.values()) == {1}


def test_a_result_left_in_redis_is_taken_not_graded_again(courses, broker, worker):
    course, _ = courses
    with ResultStore(course.results_path) as store:
        (bob,) = [key for key in store.grading_counts() if key.student == "bob"]
        assert store.has(bob), "the first test did not grade bob"
    results_files = sorted((course.work_dir / "grading").glob("bob/*/results.json"))
    assert len(results_files) == 1
    written = results_files[0].read_bytes()
    gradings = worker.read_text().count("graded bob scorpion: ")
    _forget_in_store(course.results_path, bob)  # as if `course grade` died before storing bob
    shutil.rmtree(results_files[0].parent)  # ... and before writing its files: they come from Redis

    report = grade_class(course, grader="sandbox", backend="celery", broker=broker)
    assert report.graded == [bob] and not report.failed
    assert worker.read_text().count("graded bob scorpion: ") == gradings  # not graded again
    assert results_files[0].read_bytes() == written  # the files came back with the result
    assert (course.feedback_dir / "bob" / "feedback.md").is_file()
    written = results_files[0].stat().st_mtime_ns
    with ResultStore(course.results_path) as store:
        assert set(store.grading_counts().values()) == {1}

    forced = _grade_cli(course, broker, "--regrade")
    assert forced.returncode == 0, forced.stderr
    assert "2 graded, 0 already graded" in forced.stdout
    assert results_files[0].stat().st_mtime_ns != written
    assert worker.read_text().count("graded bob scorpion: ") == gradings + 1  # --regrade really grades
    with ResultStore(course.results_path) as store:
        assert set(store.grading_counts().values()) == {2}


def _forget_in_store(path: Path, key: Key) -> None:
    with sqlite3.connect(path) as connection:
        for table in ("results", "gradings"):
            connection.execute(f"DELETE FROM {table} WHERE student=? AND sha=? AND grader_version=?",
                               (key.student, key.sha, key.grader_version))


def test_no_broker_or_no_worker_is_one_clear_line(courses, broker, worker):
    _, local = courses
    closed = f"redis://127.0.0.1:{free_port()}/0"
    refused = _grade_cli(local, closed, "--grader", "static")
    assert refused.returncode == 2
    assert refused.stderr.strip().count("\n") == 0 and "cannot reach the Celery broker" in refused.stderr
    assert "Traceback" not in refused.stderr

    lonely = broker.rsplit("/", 1)[0] + "/1"  # the same server, a database no worker listens on
    with pytest.raises(UserError, match="no Celery worker answers"):
        grade_class(local, grader="static", backend="celery", broker=lonely)
    with pytest.raises(UserError, match="Redis URL"):
        grade_class(local, grader="static", backend="celery", broker="amqp://127.0.0.1//")
