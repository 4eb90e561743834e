"""From a grader's Gradescope results to the course's points per rule category, and the final grade.

:func:`final_grade` (and :func:`final_grades` for the class) is the one
function that says what a student's grade is; every output calls it or the
arithmetic below it (:func:`late_penalty`, :func:`final_score`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import CourseConfig


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


# -- the final grade: one arithmetic for every place a grade appears ---------------------------
#
# The gradebook, grades.csv (:mod:`grader.course.export`), feedback/<student>/results.json
# (:mod:`grader.course.grade_outputs`), the feedback a student reads and the class report all
# show the grade of this section: ``final = max(0, raw - penalty)``, where ``raw`` is the
# course's points earned (:func:`earned_points`, summed) and ``penalty`` the late penalty in
# points (``raw * penalty_percent / 100``, :mod:`grader.course.late`), both to 4 decimals.
# After a run: :func:`final_grade` / :func:`final_grades` (what the gradebook records). During a
# run, before the gradebook is written: ``grader.course.grade_outputs.record_grade(config, row,
# result)`` gives the same :class:`FinalGrade` from a collected row and its stored result.


def late_penalty(raw: float, penalty_percent: float) -> float:
    """The points a late submission loses: ``penalty_percent`` of its ``raw`` score."""
    return round(raw * penalty_percent / 100.0, 4)


def final_score(raw: float, penalty: float) -> float:
    """What the student gets: the raw score minus the late penalty, never below 0 (nbgrader's rule)."""
    return max(0.0, round(raw - penalty, 4))


@dataclass(frozen=True)
class FinalGrade:
    """A student's grade as every output shows it (see the section comment above)."""

    raw: float
    penalty: float
    max_score: float
    penalty_percent: float = 0.0
    days_late: int = 0

    @property
    def final(self) -> float:
        return final_score(self.raw, self.penalty)

    @property
    def percent(self) -> float:
        return round(100.0 * self.final / self.max_score, 1) if self.max_score else 0.0

    def fields(self) -> dict[str, float | int]:
        """The grade's fields as written to results.json (see :mod:`grader.course.grade_outputs`)."""
        return {"raw_score": round(self.raw, 4), "late_penalty": self.penalty,
                "late_penalty_percent": self.penalty_percent, "days_late": self.days_late,
                "final_score": self.final, "max_score": self.max_score}


def submission_grade(
    earned: dict[str, float], max_score: float, penalty_percent: float = 0.0, days_late: int = 0
) -> FinalGrade:
    """The grade of one graded submission from its points per category (what the gradebook gets)."""
    raw = sum(earned.values())
    return FinalGrade(round(raw, 4), late_penalty(raw, penalty_percent), max_score, penalty_percent,
                      days_late)


def final_grades(config: CourseConfig) -> dict[str, FinalGrade]:
    """Student -> final grade of every graded student, as the gradebook records it.

    Reads the scores ``course grade`` read back from the gradebook while the
    gradebook is unchanged since (fast), else the gradebook itself; the maximum
    is that of the student's own variation. A student absent here has no grade.
    """
    from .assign import load_assignments
    from .collect import read_collected
    from .gradebook_state import course_gradebook, is_current
    from .points import category_points
    from .results import read_gradebook_state

    url = config.gradebook_db_url()
    state = read_gradebook_state(config.results_path, url)
    if state is not None and is_current(state, url):
        scores = state.scores
    else:
        with course_gradebook()(config) as gradebook:
            scores = gradebook.scores()
    collected = {row.student: row for row in read_collected(config)}
    grades = {}
    for assignment in load_assignments(config):
        row = collected.get(assignment.student)
        if assignment.student not in scores or row is None or not row.gradable:
            continue
        raw, penalty = scores[assignment.student]
        maximum = sum(category_points(assignment.variation, config.points).values())
        grades[assignment.student] = FinalGrade(round(raw, 4), penalty, maximum, row.penalty_percent,
                                                row.days_late)
    return grades


def final_grade(config: CourseConfig, student: str) -> FinalGrade | None:
    """``student``'s final grade (:func:`final_grades`), or None when they have none."""
    return final_grades(config).get(student)
