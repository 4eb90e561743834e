"""What ``course grade`` writes from the gradebook once it is written: one grade everywhere.

After every stored result is written to the gradebook (which publishes each
student's feedback.md and feedback.html again: :mod:`grader.course.feedback_files`),
each graded student's ``feedback/<student>/results.json`` is rewritten from the
stored result (Gradescope's format), so that no earlier run with another grader
is left behind, with the grade the gradebook records
(:class:`grader.course.scores.FinalGrade`):

  ==========================  ====================================================
  ``score``                   the final score (raw - late penalty, at least 0)
  ``final_score``             the same, by its name
  ``raw_score``               the course's points earned before the penalty
  ``late_penalty``            points taken off for lateness
  ``late_penalty_percent``    the percent of ``raw_score`` taken off
  ``days_late``               started days late (after the grace period)
  ``max_score``               the student's own variation's maximum
  ==========================  ====================================================

The tests keep the grader's points per test (summing to ``raw_score``).

Then nbgrader's folders for formgrader are written (:mod:`grader.course.nbgrader_files`).
:data:`OUTPUTS_VERSION` is part of what decides whether a run with nothing new
may skip the gradebook (:mod:`grader.course.gradebook_state`): changing what is
written here, or the gradebook's layout, makes the next run write everything again;
so does a missing file (:func:`outputs_present`: a deleted ``feedback/`` comes back).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .collect import Collected
from .config import CourseConfig
from .nbgrader_files import nbgrader_root, write_course_files
from .points import category_points
from .results import Result
from .scores import FinalGrade, earned_points, submission_grade

if TYPE_CHECKING:
    from .gradebook import CourseGradebook

#: bump when the gradebook's layout or the fields written here change (see the module docstring)
OUTPUTS_VERSION = "per-variation-assignments+final-score-1"


def record_grade(config: CourseConfig, row: Collected, result: Result) -> tuple[dict[str, float], FinalGrade]:
    """(points per category, grade) of ``row`` graded as ``result``: what the gradebook is given."""
    points = category_points(row.variation, config.points)
    earned = earned_points(result.categories, points)
    return earned, submission_grade(earned, sum(points.values()), row.penalty_percent, row.days_late)


def results_with_grade(results: dict[str, Any], grade: FinalGrade) -> dict[str, Any]:
    """The grader's ``results`` with the grade's fields (see the module docstring)."""
    return {**results, **grade.fields(), "score": grade.final}


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` to ``path`` atomically (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".results-", suffix=".json")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(data, indent=1) + "\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def outputs_present(config: CourseConfig, records: list[tuple[Collected, Result]]) -> bool:
    """Whether every file :func:`sync_outputs` writes exists (a run with nothing new may skip it)."""
    if not (nbgrader_root(config) / "nbgrader_config.py").is_file():
        return False
    return all((config.feedback_dir / row.student / "results.json").is_file() for row, _ in records)


def sync_outputs(
    config: CourseConfig, gradebook: CourseGradebook, records: list[tuple[Collected, Result]]
) -> None:
    """results.json and nbgrader's folders in line with the gradebook (see the module docstring)."""
    recorded = gradebook.scores()
    for row, result in records:
        grade = record_grade(config, row, result)[1]
        if row.student in recorded:  # the gradebook's own values (formgrader may have changed them)
            raw, penalty = recorded[row.student]
            grade = FinalGrade(raw, penalty, grade.max_score, grade.penalty_percent, grade.days_late)
        target = config.feedback_dir / row.student / "results.json"
        write_json(target, results_with_grade(result.results, grade))
    write_course_files(config, gradebook.course_assignments(), gradebook.submissions())
