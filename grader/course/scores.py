"""From a grader's Gradescope results to the course's points per rule category."""

from __future__ import annotations

import re
from typing import Any


def category_fractions(results: dict[str, Any], categories: list[str]) -> dict[str, tuple[float, float]]:
    """Per rule category: (score, max score) summed over the results' tests of that category.

    A test belongs to a category when its name is the category or starts with
    it followed by a non-word character (``"tableau_accepts: S2"``), or when
    its ``tags`` name it.
    """
    sums = {category: [0.0, 0.0] for category in categories}
    for test in results.get("tests", []) or []:
        if not isinstance(test, dict):
            continue
        name = str(test.get("name", ""))
        tags = [str(t) for t in test.get("tags", []) or []]
        for category in categories:
            if category in tags or re.match(rf"^{re.escape(category)}(\W|$)", name):
                sums[category][0] += float(test.get("score") or 0.0)
                sums[category][1] += float(test.get("max_score") or 0.0)
                break
    return {category: (s, m) for category, (s, m) in sums.items()}


def earned_points(categories: dict[str, tuple[float, float]], points: dict[str, float]) -> dict[str, float]:
    """The course's points per category: the fraction earned times the category's points."""
    return {
        category: round(points[category] * (score / maximum if maximum > 0 else 0.0), 4)
        for category, (score, maximum) in categories.items()
        if category in points
    }
