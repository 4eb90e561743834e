"""A second grader version for the regrade tests: the structural check, minus the first rule method.

``course grade --regrade --grader strict_grader:grade`` gives a student whose
first method is implemented fewer points than the static grader did, so the
class report has a grade that changed on a regrade to show.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grader.course.graders import static_grade

VERSION = "strict-static-1"


def grade(
    submission: Path, variation: str, out: Path, timeout: float, points: dict[str, float] | None = None
) -> dict[str, Any]:
    results = static_grade(submission, variation, out, timeout, points)
    first = results["tests"][0]
    first["score"], first["output"] = 0.0, "not accepted by the strict check"
    results["score"] = sum(float(t["score"]) for t in results["tests"])
    (out / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    return results
