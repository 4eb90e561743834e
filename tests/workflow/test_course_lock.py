"""One course command at a time (grader/course/lock.py): a second run is told who holds the course."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from workflow_support import at, push

from grader.course import collect
from grader.course.grade_class import grade_class
from grader.course.lock import CourseBusy

HOLD = """
import sys, time
from pathlib import Path
from grader.course.lock import course_lock
with course_lock(Path(sys.argv[1]), "grade"):
    print("held", flush=True)
    time.sleep(120)
"""


@pytest.fixture
def holder(published_course):
    """A course and a separate process holding its lock (as a running `course grade` does)."""
    course = published_course(["ada"])
    process = subprocess.Popen([sys.executable, "-c", HOLD, str(course.work_dir)], stdout=subprocess.PIPE,
                               text=True)
    assert process.stdout is not None and process.stdout.readline().strip() == "held"
    yield course, process
    if process.poll() is None:
        os.kill(process.pid, signal.SIGKILL)
    process.wait()


def test_a_second_run_is_refused_with_the_holder_named(holder) -> None:
    course, process = holder
    with pytest.raises(CourseBusy) as busy:
        collect.collect(course, clock=lambda: at(1))
    message = str(busy.value)
    assert f"pid {process.pid}" in message
    assert "course-grade is already running on this course since" in message
    with pytest.raises(CourseBusy):
        grade_class(course, jobs=1, grader="static")
    assert not course.collected_path.exists()  # nothing was done by the refused run


def test_the_lock_of_a_killed_run_is_taken_at_once(holder) -> None:
    course, process = holder
    push(course, "ada", at(-1))
    os.kill(process.pid, signal.SIGKILL)  # a crash: no cleanup runs
    process.wait()
    rows = collect.collect(course, clock=lambda: at(1))  # not refused: the kernel dropped the lock
    assert rows[0].status == "ok"


def test_a_child_forked_while_the_lock_was_held_does_not_keep_it(tmp_path) -> None:
    """A command's own threads fork children (git, pytest, bwrap) while it holds the lock; a
    child forked just then shares the lock's open file until it execs or exits. The lock must
    be free for the next command the moment the holder leaves it, not when that child goes:
    CI once failed with "course-collect is already running" from the test's own process."""
    from grader.course.lock import course_lock

    with course_lock(tmp_path, "collect"):
        child = os.fork()
        if child == 0:  # a child slow to exec: it keeps its copy of every descriptor meanwhile
            import time

            time.sleep(3)
            os._exit(0)
    try:
        with course_lock(tmp_path, "collect"):
            pass
    finally:
        os.waitpid(child, 0)
