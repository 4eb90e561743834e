"""From per-category check counts to points and Gradescope's ``results.json``.

A rule category's score is the fraction of its hidden checks the submission
passed times the category's points in the catalog: ``points * passed / total``,
rounded to 2 decimals (full marks exactly when every check passed). A
category of the catalog that no check exercised scores 0 and says so (the
quality gate, ``solitaire check-suite``, makes sure that never happens).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: what each rule category decides, for test names a student understands
DESCRIPTIONS = {
    "deal": "the starting layout",
    "can_pick_up": "which cards may be picked up",
    "foundation_accepts": "what a foundation takes",
    "tableau_accepts": "what a pile takes",
    "space_accepts": "what an empty pile takes",
    "special_moves": "which actions are allowed",
    "apply_special": "what an action does",
    "after_move": "automatic effects after a move",
    "is_won": "when the game is won",
}


@dataclass
class CategoryScore:
    category: str
    max_score: float
    passed: int
    total: int
    first_failure: dict[str, Any] | None = None

    @property
    def score(self) -> float:
        if not self.total:
            return 0.0
        if self.passed == self.total:
            return self.max_score
        return round(self.max_score * self.passed / self.total, 2)

    @property
    def fraction(self) -> float:
        return self.passed / self.total if self.total else 0.0

    @property
    def test_name(self) -> str:
        return f"{self.category}: {DESCRIPTIONS.get(self.category, 'rule')}"


def score_categories(
    counts: dict[str, list[int]],
    points: dict[str, float],
    first_failures: dict[str, dict[str, Any]] | None = None,
) -> list[CategoryScore]:
    """One :class:`CategoryScore` per category of ``points`` (in its order)."""
    first_failures = first_failures or {}
    scores = []
    for category, max_score in points.items():
        passed, total = counts.get(category, [0, 0])
        scores.append(CategoryScore(category, float(max_score), int(passed), int(total),
                                    first_failures.get(category)))
    return scores


def total(scores: list[CategoryScore]) -> float:
    return round(sum(s.score for s in scores), 2)


def results_json(
    scores: list[CategoryScore],
    outputs: dict[str, str],
    summary: str,
    visibility: str,
    execution_time: float,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Gradescope's results format: a top-level score and one test per rule category."""
    tests = []
    for number, item in enumerate(scores, start=1):
        tests.append({
            "name": item.test_name,
            "number": str(number),
            "score": item.score,
            "max_score": item.max_score,
            "status": "passed" if item.total and item.passed == item.total else "failed",
            "output": outputs.get(item.category, ""),
            "output_format": "md",
            "tags": [item.category],
            "visibility": visibility,
        })
    return {
        "score": total(scores),
        "execution_time": round(execution_time, 1),
        "output": summary,
        "output_format": "md",
        "visibility": visibility,
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": extra or {},
    }
