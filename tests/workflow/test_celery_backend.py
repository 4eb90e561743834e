"""course grade --backend celery: a real Redis, a real Celery worker, the real sandboxed grader.

The test starts its own ``redis-server`` (127.0.0.1 only, a free port, no
persistence, in a temporary folder) and a worker (``solitaire course worker``,
prefork, 2 processes) and stops both at the end, also on failure. The class
graded on Celery must give the gradebook the local process pool gives; a rerun
grades nothing; a result that reached Redis but not the store (the parent died
in between) is taken from Redis, not graded again.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from workflow_support import at, published, push

from grader.course import collect, config, export, simulate
from grader.course.grade_class import grade_class
from grader.course.results import Key, ResultStore
from solitaire.errors import UserError

REDIS_SERVER = shutil.which("redis-server")
pytestmark = [
    pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server not installed (scripts/setup.sh adds it)"),
    pytest.mark.skipif(not simulate.reference_text("scorpion"), reason="no Scorpion reference"),
]
celery_app = pytest.importorskip("grader.course.celery_app",
                                 reason="celery[redis] is not installed (the dev extra brings it)")

STUDENTS = ["ada", "bob", "cy"]
SOLITAIRE = [sys.executable, "-m", "solitaire"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _stop(process: subprocess.Popen[bytes], group: bool) -> None:
    """Stop ``process`` (and its process group): TERM, then KILL after 10 s."""
    if process.poll() is None:
        if group:
            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
    if group:  # prefork children and graders left behind
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    elif process.poll() is None:
        process.kill()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    """A private redis-server on 127.0.0.1; yields its URL."""
    import redis

    folder = tmp_path_factory.mktemp("redis")
    port = _free_port()
    log = (folder / "redis.log").open("wb")
    process = subprocess.Popen(
        [str(REDIS_SERVER), "--port", str(port), "--bind", "127.0.0.1", "--protected-mode", "yes",
         "--save", "", "--appendonly", "no", "--dir", str(folder)],
        stdout=log, stderr=subprocess.STDOUT, cwd=folder,
    )
    try:
        client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1)
        give_up = time.monotonic() + 15
        while True:
            assert process.poll() is None, (folder / "redis.log").read_text()
            try:
                if client.ping():
                    break
            except redis.ConnectionError:
                assert time.monotonic() < give_up, "redis-server did not answer in 15 s"
                time.sleep(0.1)  # waiting for a real server to listen
        client.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop(process, group=False)
        log.close()


@pytest.fixture(scope="module")
def worker(broker, tmp_path_factory):
    """``solitaire course worker`` on ``broker`` (its own process group); yields its log file."""
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    log = log_path.open("wb")
    process = subprocess.Popen(
        SOLITAIRE + ["course", "worker", "--broker", broker, "--concurrency", "2", "--loglevel", "INFO"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        app = celery_app.make_app(broker)
        give_up = time.monotonic() + 45
        while not app.control.ping(timeout=0.5):
            assert process.poll() is None, log_path.read_text()
            assert time.monotonic() < give_up, "the worker did not answer in 45 s:\n" + log_path.read_text()
        yield log_path
    finally:
        _stop(process, group=True)
        log.close()


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
    written = results_files[0].stat().st_mtime_ns
    _forget_in_store(course.results_path, bob)  # as if `course grade` died before storing bob

    report = grade_class(course, grader="sandbox", backend="celery", broker=broker)
    assert report.graded == [bob] and not report.failed
    assert results_files[0].stat().st_mtime_ns == written  # not graded again: Redis had the result
    with ResultStore(course.results_path) as store:
        assert set(store.grading_counts().values()) == {1}

    forced = _grade_cli(course, broker, "--regrade")
    assert forced.returncode == 0, forced.stderr
    assert "2 graded, 0 already graded" in forced.stdout
    assert results_files[0].stat().st_mtime_ns != written  # --regrade really grades again
    with ResultStore(course.results_path) as store:
        assert set(store.grading_counts().values()) == {2}


def _forget_in_store(path: Path, key: Key) -> None:
    with sqlite3.connect(path) as connection:
        for table in ("results", "gradings"):
            connection.execute(f"DELETE FROM {table} WHERE student=? AND sha=? AND grader_version=?",
                               (key.student, key.sha, key.grader_version))


def test_no_broker_or_no_worker_is_one_clear_line(courses, broker, worker):
    _, local = courses
    closed = f"redis://127.0.0.1:{_free_port()}/0"
    refused = _grade_cli(local, closed, "--grader", "static")
    assert refused.returncode == 2
    assert refused.stderr.strip().count("\n") == 0 and "cannot reach the Celery broker" in refused.stderr
    assert "Traceback" not in refused.stderr

    lonely = broker.rsplit("/", 1)[0] + "/1"  # the same server, a database no worker listens on
    with pytest.raises(UserError, match="no Celery worker answers"):
        grade_class(local, grader="static", backend="celery", broker=lonely)
    with pytest.raises(UserError, match="Redis URL"):
        grade_class(local, grader="static", backend="celery", broker="amqp://127.0.0.1//")
