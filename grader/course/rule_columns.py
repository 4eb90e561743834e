"""The per-rule columns of grades.csv: each student's points for each rule method.

One column per rule method of the course's variations, named ``points_<method>``
(``points_deal``, ``points_tableau_accepts`` ...), in the engine's rule-method
order, after the columns grades.csv had before. A cell holds the student's
earned points for that method (the course's points for it times the share of
its tests passed), so a student's cells sum to ``raw_score``; it is empty when
the student has nothing graded or their variation has no such method. The
points come from the stored result whose score is the gradebook's
(:mod:`grader.course.class_data`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from solitaire.variation import RULE_METHODS

from .class_data import class_data
from .config import CourseConfig
from .points import category_points

if TYPE_CHECKING:
    from .export import GradeRow

PREFIX = "points_"


def rule_methods(config: CourseConfig, rows: Sequence[GradeRow]) -> list[str]:
    """The rule methods of the students' variations, in the engine's order (others after, by name)."""
    found: set[str] = set()
    for variation in {row.variation for row in rows}:
        found.update(category_points(variation, config.points))
    return [m for m in RULE_METHODS if m in found] + sorted(found - set(RULE_METHODS))


def with_rule_columns(
    config: CourseConfig, rows: list[GradeRow], header: Sequence[str], lines: Sequence[Sequence[object]]
) -> tuple[list[str], list[list[object]]]:
    """``header`` and ``lines`` (one per row of ``rows``) with a ``points_<method>`` column per method."""
    methods = rule_methods(config, rows)
    points = {student.row.student: dict(student.points) for student in class_data(config, rows)}
    extended = []
    for row, line in zip(rows, lines, strict=True):
        earned = points.get(row.student, {})
        extended.append([*line, *(f"{earned[m]:g}" if m in earned else "" for m in methods)])
    return [*header, *(PREFIX + m for m in methods)], extended
