"""A plug-in grader that gives every rule category full marks, for the dry-run tests.

Its results differ from the static check's on any unfinished submission, so a
dry run with it that left the real outputs unchanged proves it wrote elsewhere.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grader.course.points import catalog_points

VERSION = "full-marks-1"


def grade(
    submission: Path, variation: str, out: Path, timeout: float, points: dict[str, float] | None = None
) -> dict[str, Any]:
    points = points or catalog_points(variation)
    tests = [{"name": c, "score": p, "max_score": p, "output": "full marks"} for c, p in points.items()]
    results = {"score": sum(points.values()), "output": "full marks for everyone", "tests": tests}
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results), encoding="utf-8")
    (out / "feedback.md").write_text(f"# {variation}: full marks\n", encoding="utf-8")
    return results
