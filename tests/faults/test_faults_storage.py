"""Storage errors (issue 18.5): one line naming the file and what to do; no recorded grade lost.

Real SQLite files and real file systems: garbage bytes in results.db, a
read-only course directory (a read-only bind mount as root, file modes
otherwise), an immutable results.db (chattr +i as root, mode 0444 otherwise),
and a full disk (a small tmpfs mounted by the test, root only).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from fault_support import solitaire

from grader.course.grade_class import grade_class
from grader.course.gradebook_opening import opened
from grader.course.storage import StorageError

AS_ROOT = os.geteuid() == 0


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The single ``solitaire: error:`` line of a failed run (and no traceback)."""
    assert done.returncode == 2, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("solitaire: error:")]
    assert len(errors) == 1, done.stderr
    return errors[0]


def grades(course) -> dict[str, float]:
    with sqlite3.connect(f"file:{course.results_path}?mode=ro", uri=True) as connection:
        return dict(connection.execute("SELECT student, score FROM results").fetchall())


def grade(course, *options: str) -> subprocess.CompletedProcess[str]:
    # not --grader static: on the command line that is a dry run, which never opens the course's store
    return solitaire("course", "grade", str(course.directory), "--jobs", "1",
                     "--grader", "fault_graders:plain", *options)


def run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True)


def test_a_damaged_results_store_is_one_line_and_left_as_it_is(collected_course) -> None:
    course = collected_course(["ada"])
    garbage = bytes(range(256)) * 64
    course.results_path.write_bytes(garbage)
    for command in ("grade", "export"):
        line = one_error_line(solitaire("course", command, str(course.directory)) if command == "export"
                              else grade(course))
        assert f"{course.results_path}: the results store is damaged (file is not a database)" in line
        assert "mv results.db results.db.damaged" in line and f"solitaire course {command}" in line
    assert course.results_path.read_bytes() == garbage  # never rewritten


@pytest.fixture
def read_only(tmp_path):
    """read_only(path): make ``path`` read-only (a read-only bind mount as root); undone at the end."""
    undo = []

    def make(path: Path) -> None:
        if AS_ROOT:
            run("mount", "--bind", str(path), str(path))
            # lazy: a file still open in this process (SQLAlchemy keeps the gradebook open) makes a
            # plain umount fail with EBUSY, and the mount would outlive the test
            undo.append(["umount", "-l", str(path)])
            run("mount", "-o", "remount,bind,ro", str(path))
        else:
            for item in [path, *path.rglob("*")]:
                item.chmod(item.stat().st_mode & ~0o222)
            undo.append(["chmod", "-R", "u+w", str(path)])

    yield make
    for command in reversed(undo):
        subprocess.run(command, capture_output=True, check=True)


def test_a_read_only_course_directory_is_one_line_and_keeps_the_grades(collected_course, read_only) -> None:
    course = collected_course(["ada", "bob"])
    grade_class(course, jobs=1, grader="static")
    before = grades(course)
    read_only(course.directory)
    line = one_error_line(grade(course, "--regrade"))
    assert str(course.directory) in line
    assert ("read-only file system" if AS_ROOT else "permission denied") in line
    assert "run `solitaire course grade` again" in line
    assert grades(course) == before


def test_an_unwritable_results_store_is_one_line_and_keeps_the_grades(collected_course) -> None:
    course = collected_course(["ada", "bob"])
    grade_class(course, jobs=1, grader="static")
    before = grades(course)
    if AS_ROOT and shutil.which("chattr"):
        run("chattr", "+i", str(course.results_path))
        undo = ["chattr", "-i", str(course.results_path)]
    else:
        course.results_path.chmod(0o444)
        undo = ["chmod", "u+w", str(course.results_path)]
    try:
        line = one_error_line(grade(course, "--regrade"))
    finally:
        run(*undo)
    assert f"{course.results_path}: cannot write the results store (attempt to write a readonly database)" \
        in line
    assert grades(course) == before


@pytest.fixture
def small_disk(tmp_path):
    """A 16 MB tmpfs mounted for the test (root only), always unmounted."""
    if not AS_ROOT or not shutil.which("mount"):
        pytest.skip("a full disk is made with a small tmpfs, which only root can mount")
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(disk)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        if subprocess.run(["umount", str(disk)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(disk)], capture_output=True, check=True)


def test_a_full_disk_stops_after_the_current_student_and_keeps_the_grades(
        collected_course, small_disk, monkeypatch) -> None:
    # one variation for all, so that the grading order (longest expected first, stable among
    # equals: grader/course/task_order.py) is the roster's: ada, then bob (who fills the disk), then cy
    course = collected_course(["ada", "bob", "cy"], directory=small_disk / "course", variations=("scorpion",))
    # The filler (bob's grading) waits until ada is in the gradebook. course grade opens the
    # gradebook in the background and records a result that comes in while it opens only at the
    # end, so ada's came first on a busy machine once (fresh-clone CI, 2026-12-04): the filler
    # waited its 120 s out and bob failed instead. Here the gradebook is opened before any
    # result is handled, so ada is recorded when her result comes in.
    monkeypatch.setattr("grader.course.grade_class.start_opening", opened)
    # in this process (the one-line printing of a StorageError by the CLI is tested above)
    with pytest.raises(StorageError) as stopped:
        grade_class(course, jobs=1, grader="filling_grader:grade")
    line = str(stopped.value)
    assert "\n" not in line
    assert f"{course.results_path}: the disk is full (database or disk is full)" in line
    assert "the grades stored before are kept: free space on that disk" in line
    assert list(grades(course)) == ["ada"]  # bob's result could not be stored; cy's was not either

    (course.directory / "filler.bin").unlink()
    rerun = grade_class(course, jobs=1, grader="filling_grader:grade")
    assert sorted(key.student for key in rerun.graded) == ["bob", "cy"] and len(rerun.already) == 1
    with sqlite3.connect(course.results_path) as connection:
        counts = dict(connection.execute("SELECT student, COUNT(*) FROM gradings GROUP BY student"))
    assert counts == {"ada": 1, "bob": 1, "cy": 1}
