"""The figures of the class report, computed from :mod:`grader.course.class_data`.

Every score here is the *final* score (late penalty included) in percent of the
student's own variation's maximum, the one grades.csv and the gradebook give.
Students with nothing graded (not submitted, missing ...) are counted by status,
not averaged in as zeros.

Uncertainty: each variation's mean gets a 95 % percentile-bootstrap interval,
and so does its difference from the class mean (a stratified bootstrap:
every resample redraws each variation's students from that variation, so the
groups keep their sizes). The draws come from the engine's SplitMix64 with a
fixed seed (:data:`SEED`), so the same class always gives the same intervals.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from solitaire.rng import SplitMix64

from .class_data import StudentData

SEED = 14
RESAMPLES = 2000
#: a group smaller than this is flagged as too small for its interval to say much
SMALL_GROUP = 5
#: statuses without a graded submission, in the order the report lists them
NOT_GRADED_ORDER = ("not-submitted", "missing", "empty", "wrong-branch", "unreachable", "not-collected",
                    "not-graded")


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


@dataclass(frozen=True)
class GroupStats:
    """A variation's (or the class's) final scores in percent: centre, spread and uncertainty."""

    name: str
    n: int
    mean: float
    median: float
    minimum: float
    maximum: float
    interval: Interval | None  # 95 % bootstrap interval of the mean; None for a single student
    difference: float = 0.0  # mean minus the class mean
    difference_interval: Interval | None = None

    @property
    def small(self) -> bool:
        return self.n < SMALL_GROUP

    @property
    def apart(self) -> bool:
        """Whether the interval of the difference from the class mean leaves out 0."""
        interval = self.difference_interval
        return interval is not None and (interval.low > 0 or interval.high < 0)


@dataclass(frozen=True)
class RuleRate:
    """How the class did on one rule method (``ruling`` empty) or one ruling test of a variation."""

    method: str
    ruling: str
    variation: str  # empty for a rule method over every variation
    description: str
    submissions: int
    passed: int

    @property
    def rate(self) -> float:
        return self.passed / self.submissions if self.submissions else 0.0


@dataclass(frozen=True)
class GradeChange:
    """A student whose grade of the same commit changed between two gradings."""

    student: str
    variation: str
    before: float  # final scores, late penalty applied
    after: float
    before_version: str
    after_version: str
    before_at: str
    after_at: str


def _percentile(sorted_values: list[float], share: float) -> float:
    """Linear-interpolated percentile of already sorted values (``share`` in 0..1)."""
    position = share * (len(sorted_values) - 1)
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def _resample_mean(values: list[float], rng: SplitMix64) -> float:
    return sum(values[rng.below(len(values))] for _ in values) / len(values)


def variation_stats(
    groups: dict[str, list[float]], seed: int = SEED, resamples: int = RESAMPLES
) -> tuple[GroupStats | None, list[GroupStats]]:
    """(the class, each variation by name) from final percents per variation; bootstrap as above."""
    groups = {name: values for name, values in sorted(groups.items()) if values}
    everyone = [v for values in groups.values() for v in values]
    if not everyone:
        return None, []
    rng = SplitMix64(seed)
    class_means: list[float] = []
    group_means: dict[str, list[float]] = {name: [] for name in groups}
    for _ in range(resamples):
        total = 0.0
        for name, values in groups.items():
            mean = _resample_mean(values, rng)
            group_means[name].append(mean)
            total += mean * len(values)
        class_means.append(total / len(everyone))
    class_mean = statistics.fmean(everyone)

    def interval(draws: list[float], n: int) -> Interval | None:
        if n < 2:
            return None
        ordered = sorted(draws)
        return Interval(_percentile(ordered, 0.025), _percentile(ordered, 0.975))

    whole = GroupStats("class", len(everyone), class_mean, statistics.median(everyone), min(everyone),
                       max(everyone), interval(class_means, len(everyone)))
    stats = []
    for name, values in groups.items():
        mean = statistics.fmean(values)
        differences = [g - c for g, c in zip(group_means[name], class_means, strict=True)]
        stats.append(GroupStats(name, len(values), mean, statistics.median(values), min(values), max(values),
                                interval(group_means[name], len(values)), mean - class_mean,
                                interval(differences, len(values))))
    return whole, stats


def final_percents(students: list[StudentData]) -> dict[str, list[float]]:
    """Variation -> the final percents of its graded students."""
    groups: dict[str, list[float]] = defaultdict(list)
    for student in students:
        if student.percent is not None:
            groups[student.row.variation].append(student.percent)
    return dict(groups)


def _test_parts(test: dict[str, Any]) -> tuple[str, str, str, bool]:
    """(method, ruling, description, passed) of one test of a results.json."""
    raw_tags = test.get("tags")
    tags = [str(t) for t in raw_tags] if isinstance(raw_tags, list) else []
    name = str(test.get("name", ""))
    method = tags[0] if tags else re.split(r"[\s:·]", name, maxsplit=1)[0]
    ruling = tags[1] if len(tags) > 1 else ""
    _, _, title = name.partition(" · ")
    description = title.split(": ", 1)[1] if ": " in title else title
    status = test.get("status")
    if status is not None:
        passed = status == "passed"
    else:
        maximum = float(test.get("max_score") or 0.0)
        passed = maximum > 0 and float(test.get("score") or 0.0) >= maximum
    return method, ruling, description, passed


def rule_rates(students: list[StudentData]) -> tuple[list[RuleRate], list[RuleRate]]:
    """(per rule method over the class, per ruling test of each variation), hardest first.

    A method is passed by a submission when every test of that method passed; a
    ruling test when it passed. Every graded submission counts, one that scored 0 too.
    """
    method_counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    ruling_counts: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    descriptions: dict[tuple[str, str, str], str] = {}
    for student in students:
        if student.result is None:
            continue
        variation = student.row.variation
        per_method: dict[str, bool] = {}
        for test in student.result.results.get("tests") or []:
            if not isinstance(test, dict):
                continue
            method, ruling, description, passed = _test_parts(test)
            per_method[method] = per_method.get(method, True) and passed
            key = (variation, method, ruling)
            ruling_counts[key][0] += 1
            ruling_counts[key][1] += passed
            descriptions.setdefault(key, description)
        for method, passed in per_method.items():
            method_counts[method][0] += 1
            method_counts[method][1] += passed
    methods = [RuleRate(m, "", "", "", n, p) for m, (n, p) in method_counts.items()]
    rulings = [RuleRate(m, r, v, descriptions[(v, m, r)], n, p)
               for (v, m, r), (n, p) in ruling_counts.items()]
    methods.sort(key=lambda r: (r.rate, r.method))
    rulings.sort(key=lambda r: (r.rate, r.variation, r.method, r.ruling))
    return methods, rulings


def status_counts(students: list[StudentData]) -> Counter[str]:
    """How many students have each status of grades.csv."""
    return Counter(student.row.status for student in students)


def slowest(students: list[StudentData], count: int = 5) -> list[StudentData]:
    """The ``count`` graded submissions whose grading took longest (the stored result's seconds)."""
    timed = [s for s in students if s.result is not None]
    timed.sort(key=lambda s: (-(s.result.seconds if s.result else 0.0), s.row.student))
    return timed[:count]


def grade_changes(students: list[StudentData]) -> list[GradeChange]:
    """Every change of a student's score between consecutive gradings of the same commit
    (gradings whose score the store did not keep are skipped)."""
    changes = []
    for student in students:
        known = [g for g in student.history if g.score is not None]
        for before, after in zip(known, known[1:], strict=False):
            assert before.score is not None and after.score is not None
            if abs(before.score - after.score) > 1e-6:
                changes.append(GradeChange(student.row.student, student.row.variation,
                                           student.final(before.score), student.final(after.score),
                                           before.grader_version, after.grader_version,
                                           before.graded_at, after.graded_at))
    return changes
