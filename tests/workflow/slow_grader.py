"""A deliberately slow grader for the kill -9 test: the structural check, after a pause.

The pause leaves time to kill ``course grade`` while some submissions are
graded and others are not; the result itself is the static grader's.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from grader.course.graders import static_grade

VERSION = "slow-static-1"
PAUSE_SECONDS = 1.0


def grade(
    submission: Path, variation: str, out: Path, timeout: float, points: dict[str, float] | None = None
) -> dict[str, Any]:
    time.sleep(PAUSE_SECONDS)  # stands for a long grading run; decides nothing
    return static_grade(submission, variation, out, timeout, points)
