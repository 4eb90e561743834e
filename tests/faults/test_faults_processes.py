"""The hidden suite and its workers die with the grader (issue 18.4); no temporary folder stays.

Each test runs the grader under tests/faults/reaper.py, a child subreaper:
every process of the grader's tree that loses its parent lands there, so the
survivors of a kill are found by pid (and start time), whatever session or
name they have. ``TMPDIR`` points to a private folder, so every temporary
folder of the run is seen too.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from fault_support import HERE, ROOT, cli_env, solitaire

# The sandbox check of the command line starts a bwrap tree 3 deep before any grading (bwrap, its
# init, the entry script); a grading's tree is deeper: for `course grade` pool worker > hidden suite >
# bwrap > its init > the worker's entry script, for `solitaire grade` the same without the pool.
COURSE_GRADE_DEPTH = 5
GRADE_DEPTH = 4


@pytest.fixture
def private_tmp():
    """An empty TMPDIR for the grader (0711, as /tmp lets the sandbox's uid pass)."""
    path = Path(tempfile.mkdtemp(prefix="solitaire-faults-tmp-"))
    os.chmod(path, 0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def kill_at_depth(signame: str, depth: int, command: list[str], tmpdir: Path, errors: Path) -> dict:
    """Run ``command`` under the reaper, send ``signame`` once its tree is ``depth`` deep; the report."""
    done = subprocess.run([sys.executable, str(HERE / "reaper.py"), signame, str(depth), str(errors), "--",
                           *command], env=cli_env(TMPDIR=str(tmpdir)), capture_output=True, text=True,
                          timeout=420)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def grade_command(course) -> list[str]:
    return [sys.executable, "-m", "solitaire", "course", "grade", str(course.directory), "--jobs", "1"]


@pytest.mark.slow  # a minute on a busy machine; the fast test of the suite's death: solitaire grade below
def test_kill_9_of_course_grade_leaves_no_grading_process_and_the_next_run_sweeps(
        collected_course, private_tmp, tmp_path) -> None:
    course = collected_course(["ada"])
    report = kill_at_depth("SIGKILL", COURSE_GRADE_DEPTH, grade_command(course), private_tmp,
                           tmp_path / "stderr")
    assert report["reached"], report  # killed while the sandbox was running the submission
    assert report["returncode"] == -signal.SIGKILL
    assert report["alive"] == [], report["alive"]
    assert [p.name for p in private_tmp.iterdir()], "a SIGKILL leaves the run folder for the next run"

    rerun = solitaire("course", "grade", str(course.directory), "--grader", "static",
                      env=cli_env(TMPDIR=str(private_tmp)))
    assert rerun.returncode == 0, rerun.stderr
    assert list(private_tmp.iterdir()) == []  # the dead run's folder and this run's own are gone


@pytest.mark.slow  # the same on SIGTERM; fast: test_sigterm_of_solitaire_grade_stops_the_suite_...
def test_sigterm_of_course_grade_stops_everything_at_once_with_one_line(
        collected_course, private_tmp, tmp_path) -> None:
    course = collected_course(["ada"])
    report = kill_at_depth("SIGTERM", COURSE_GRADE_DEPTH, grade_command(course), private_tmp,
                           tmp_path / "stderr")
    assert report["reached"], report
    stderr = (tmp_path / "stderr").read_text()
    assert report["returncode"] == 2, stderr
    assert "solitaire: error: course grade stopped by SIGTERM; the results stored so far are kept" in stderr
    assert "Traceback" not in stderr
    assert report["alive"] == [], report["alive"]
    assert list(private_tmp.iterdir()) == []


def test_kill_9_of_solitaire_grade_takes_the_hidden_suite_along(private_tmp, tmp_path) -> None:
    submission = tmp_path / "submission"
    submission.mkdir()
    shutil.copyfile(ROOT / "reference" / "scorpion.py", submission / "scorpion.py")
    command = [sys.executable, "-m", "solitaire", "grade", str(submission), "--variation", "scorpion",
               "--out", str(tmp_path / "out")]
    report = kill_at_depth("SIGKILL", GRADE_DEPTH, command, private_tmp, tmp_path / "stderr")
    assert report["reached"], report
    assert report["returncode"] == -signal.SIGKILL
    assert report["alive"] == [], report["alive"]
    assert [p.name for p in private_tmp.iterdir()]

    empty = tmp_path / "empty"  # the next grading (no rules file: nothing runs) sweeps the dead folder
    empty.mkdir()
    nothing = solitaire("grade", str(empty), "--variation", "scorpion", "--out", str(tmp_path / "out2"),
                        env=cli_env(TMPDIR=str(private_tmp)))
    assert nothing.returncode == 0, nothing.stderr
    assert list(private_tmp.iterdir()) == []


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_a_stopped_solitaire_grade_stops_the_suite_and_removes_its_folders(
        private_tmp, tmp_path, signame) -> None:
    submission = tmp_path / "submission"
    submission.mkdir()
    shutil.copyfile(ROOT / "reference" / "scorpion.py", submission / "scorpion.py")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "solitaire", "grade", str(submission), "--variation", "scorpion",
               "--out", str(out)]
    report = kill_at_depth(signame, GRADE_DEPTH, command, private_tmp, tmp_path / "stderr")
    assert report["reached"], report
    stderr = (tmp_path / "stderr").read_text()
    assert "Traceback" not in stderr
    if signame == "SIGTERM":
        assert report["returncode"] == 2, stderr
        assert f"solitaire: error: solitaire grade stopped by SIGTERM; nothing was written to {out}" in stderr
    else:  # Ctrl-C: the CLI's usual status
        assert report["returncode"] == 130, stderr
    assert report["alive"] == [], report["alive"]
    assert list(private_tmp.iterdir()) == []
    assert not (out / "results.json").exists()
