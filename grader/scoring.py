"""From check counts to points, and Gradescope's ``results.json``.

The unit of scoring is a *test* of the rubric (:mod:`grader.rubric`): one
per rule method and ruling, plus one for random play. A test earns its
points only when every one of its checks passed; a method's score is the sum
of its tests' points. So a bug scores what the rule it breaks is worth, however
few of the hidden checks happen to show it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .rubric import PLAY, Rubric, RuleTest

#: what each rule method decides, for names a student understands
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
class TestScore:
    test: RuleTest
    passed: int = 0
    total: int = 0
    first_failure: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.total > 0 and self.passed == self.total

    @property
    def score(self) -> float:
        return self.test.points if self.ok else 0.0

    @property
    def max_score(self) -> float:
        return self.test.points

    @property
    def method(self) -> str:
        return self.test.method


@dataclass
class MethodScore:
    """A rule method's tests and their total."""

    method: str
    tests: list[TestScore] = field(default_factory=list)

    @property
    def score(self) -> float:
        return round(sum(t.score for t in self.tests), 2)

    @property
    def max_score(self) -> float:
        return round(sum(t.max_score for t in self.tests), 2)

    @property
    def title(self) -> str:
        return f"{self.method}: {DESCRIPTIONS.get(self.method, 'rule')}"


def score_tests(rubric: Rubric, cells: dict[str, dict[str, list[int]]],
                failures: dict[str, dict[str, dict[str, Any]]] | None = None) -> list[MethodScore]:
    """Score every test of ``rubric`` from per-(trace, method) counts ``cells`` and first failures.

    A test's first failure is that of its first trace (in rubric order) with a failure.
    """
    failures = failures or {}
    by_id = {t.id: TestScore(t) for t in rubric.tests}
    for trace, per_method in cells.items():
        for method, (passed, total) in per_method.items():
            test_id = rubric.test_of(trace, method)
            if test_id is None:
                continue
            item = by_id[test_id]
            item.passed += int(passed)
            item.total += int(total)
    for item in by_id.values():
        for trace in item.test.traces:
            found = failures.get(trace, {}).get(item.method)
            if found is not None:
                item.first_failure = found
                break
        if item.first_failure is None and not item.ok:  # a failure outside the test's own traces
            for trace, failed in failures.items():
                if rubric.test_of(trace, item.method) == item.test.id and item.method in failed:
                    item.first_failure = failed[item.method]
                    break
    methods: dict[str, MethodScore] = {}
    for test in rubric.tests:
        methods.setdefault(test.method, MethodScore(test.method)).tests.append(by_id[test.id])
    return list(methods.values())


def total(methods: list[MethodScore]) -> float:
    return round(sum(m.score for m in methods), 2)


def maximum(methods: list[MethodScore]) -> float:
    return round(sum(m.max_score for m in methods), 2)


def lost_shares(methods: list[MethodScore]) -> dict[str, float]:
    """Per method that lost points, the share of its points lost (0..1)."""
    return {m.method: round(1 - m.score / m.max_score, 4)
            for m in methods if m.max_score and m.score < m.max_score}


def results_json(
    methods: list[MethodScore],
    outputs: dict[str, str],
    summary: str,
    visibility: str,
    execution_time: float,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Gradescope's results format: a top-level score and one test per (method, ruling),
    numbered ``<method>.<test>`` and tagged with both, so they group by method."""
    tests = []
    for number, method in enumerate(methods, start=1):
        for index, item in enumerate(method.tests, start=1):
            ruling = item.test.ruling
            tests.append({
                "name": item.test.title,
                "number": f"{number}.{index}",
                "score": item.score,
                "max_score": item.max_score,
                "status": "passed" if item.ok else "failed",
                "output": outputs.get(item.test.id, ""),
                "output_format": "md",
                "tags": [method.method, ruling if ruling != PLAY else "play"],
                "visibility": visibility,
            })
    return {
        "score": total(methods),
        "execution_time": round(execution_time, 1),
        "output": summary,
        "output_format": "md",
        "visibility": visibility,
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": extra or {},
    }
