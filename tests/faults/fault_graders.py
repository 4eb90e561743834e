"""Grader plug-ins for the Celery fault tests (``fault_graders:slow``, ``fault_graders:broken``).

Both give the static grader's result (:func:`grader.course.graders.static_grade`)
and are steered from the *worker's* environment, so the parent (which only
asks for their version) is never slowed or broken:

* ``slow``: pauses ``FAULT_GRADER_PAUSE`` seconds first (time to kill a worker
  mid-grading), and writes a second feedback file, ``feedback.html``, plus
  ``seen.txt`` saying whether the folder ``FAULT_GRADER_HIDDEN`` has any
  content for the worker (the course directory it must not need);
* ``broken``: raises while the file ``FAULT_GRADER_BROKEN`` exists (a worker
  that cannot grade, fixed by removing the file).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from grader.course.graders import static_grade

VERSION = "fault-static-1"


def slow(
    submission: Path, variation: str, out: Path, timeout: float, points: dict[str, float] | None = None
) -> dict[str, Any]:
    time.sleep(float(os.environ.get("FAULT_GRADER_PAUSE", "0")))  # stands for a long grading; decides nothing
    results = static_grade(submission, variation, out, timeout, points)
    (out / "feedback.html").write_text(f"<p>{variation}: {results['score']:g}</p>\n", encoding="utf-8")
    hidden = os.environ.get("FAULT_GRADER_HIDDEN")
    if hidden:
        seen = Path(hidden).is_dir() and any(Path(hidden).iterdir())
        (out / "seen.txt").write_text("seen" if seen else "hidden", encoding="utf-8")
    return results


def broken(
    submission: Path, variation: str, out: Path, timeout: float, points: dict[str, float] | None = None
) -> dict[str, Any]:
    marker = os.environ.get("FAULT_GRADER_BROKEN")
    if marker and Path(marker).exists():
        raise OSError(f"cannot read the submission ({marker} exists)")
    return static_grade(submission, variation, out, timeout, points)


def plain(
    submission: Path, variation: str, out: Path, timeout: float, points: dict[str, float] | None = None
) -> dict[str, Any]:
    """The static grader's result under this module's name: `--grader static` on the command line is
    a dry run (it never touches the course's store), so a fault test that needs the real store uses this."""
    return static_grade(submission, variation, out, timeout, points)
