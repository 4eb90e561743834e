"""bench/gradebook_open.py opens a new gradebook both ways, as docs/performance.md reports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from grader.course import config

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from gradebook_open import one_run  # noqa: E402


def test_both_kinds_open_a_gradebook_and_report_cpu_and_wall(tmp_path: Path) -> None:
    course = tmp_path / "course"
    config.init(course, roster="id,name,email\nada,Ada L,ada@example.edu\n")
    for skip in (False, True):
        cpu, wall = one_run(course, skip)
        assert 0 < cpu <= wall + 1  # (a process's CPU can exceed its wall time only by a little here)
    assert not (course / "gradebook.db").exists()  # each run opened its own copy


def test_a_directory_without_a_course_is_one_line_and_no_traceback(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH / "gradebook_open.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "has no course.toml" in done.stderr and "Traceback" not in done.stderr
