"""A grader plug-in for the disk-full test: the structural check, then (once) it fills the disk.

Stands for another program filling the disk while ``course grade`` runs:
when it grades ``FILLER_STUDENT`` for the first time it writes a file in the
course directory until the disk is full, after writing its own results (so
the failure hits the results store, in the ``course grade`` process), and
only once the previous student is in the gradebook (the last write of
``course grade`` for a student), so that the first write to meet the full
disk is always the store's. A marker file makes it fill only once, so a
rerun after freeing the disk grades normally with the same grader version.
"""

from __future__ import annotations

import errno
import sqlite3
import time
from pathlib import Path
from typing import Any

from grader.course.graders import static_grade

VERSION = "filling-static-1"
FILLER_STUDENT = "bob"
FILLER = "filler.bin"
MARKER = "filled-once"


def fill(directory: Path) -> None:
    """Write ``directory/FILLER`` until the disk is full (ENOSPC), in ever smaller pieces."""
    with open(directory / FILLER, "ab", buffering=0) as handle:
        for size in (1 << 20, 1 << 12, 1):
            try:
                while True:
                    handle.write(b"\0" * size)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise


def wait_for_a_recorded_grade(gradebook: Path) -> None:
    """Poll (a real process: no simulated clock) until the gradebook holds a submission."""
    give_up = time.monotonic() + 120
    while time.monotonic() < give_up:
        try:
            with sqlite3.connect(f"file:{gradebook}?mode=ro", uri=True, timeout=5) as connection:
                if connection.execute("SELECT COUNT(*) FROM submitted_assignment").fetchone()[0]:
                    return
        except sqlite3.Error:
            pass
        time.sleep(0.05)
    raise TimeoutError(f"no grade was recorded in {gradebook}")


def grade(
    submission: Path, variation: str, out: Path, timeout: float, points: dict[str, float] | None = None
) -> dict[str, Any]:
    results = static_grade(submission, variation, out, timeout, points)
    course = out.parents[3]  # COURSE/.work/grading/STUDENT/RUN
    if out.parent.name == FILLER_STUDENT and not (course / MARKER).exists():
        (course / MARKER).touch()
        wait_for_a_recorded_grade(course / "gradebook.db")
        fill(course)
    return results
