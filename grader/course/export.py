"""``solitaire course export``: the grades CSV, and the gradebook as a table.

One row per assigned student, whether graded or not: the collect status says
why a student has no score (not submitted, empty repo ...); ``grading_status`` what the
grader found (``ok``, ``missing-file``, ``syntax-error`` ...: grader/load_status.py). Scores come from
nbgrader's gradebook (or what ``course grade`` read back from it, while it is
unchanged: :mod:`grader.course.gradebook_state`); the final score is
``raw - late penalty`` (nbgrader's ``score`` alone does not subtract the
penalty; its CSV export does, and so does this one: :func:`grader.course.scores.final_score`,
the arithmetic of every place a grade appears). ``max_score`` is the
student's own variation's maximum.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from solitaire.errors import UserError

from . import storage
from .assign import load_assignments, roster_by_id
from .collect import ATTENTION, Collected, read_collected
from .config import CourseConfig
from .gradebook_state import course_gradebook, is_current
from .lms import write_lms_csvs
from .points import category_points
from .results import read_gradebook_state
from .roster import write_csv
from .rule_columns import with_rule_columns
from .scores import final_score

#: Rows that need the instructor (exit status 1 of ``course export``): what collect counts as
#: attention, plus students not collected yet or collected but not graded.
NEEDS_ATTENTION = (*ATTENTION, "not-collected", "not-graded")
#: Width of the table when stdout is not a terminal: full rows, never clipped at 80 columns.
PIPE_WIDTH = 1000

GRADES_COLUMNS = (
    "id", "name", "email", "variation", "status", "grading_status", "sha", "received_at", "days_late",
    "raw_score", "late_penalty", "score", "max_score", "percent", "feedback",
)


@dataclass(frozen=True)
class GradeRow:
    student: str
    name: str
    email: str
    variation: str
    status: str
    sha: str
    received_at: str
    days_late: int
    raw_score: float | None
    late_penalty: float
    max_score: float
    feedback: str
    reason: str
    grading_status: str = ""  # results.json's extra_data.status: ok, missing-file, syntax-error ...

    @property
    def score(self) -> float | None:
        return None if self.raw_score is None else final_score(self.raw_score, self.late_penalty)

    @property
    def percent(self) -> float | None:
        score = self.score
        return None if score is None or not self.max_score else round(100.0 * score / self.max_score, 1)

    def csv_row(self) -> tuple[object, ...]:
        def number(value: float | None) -> str:
            return "" if value is None else f"{value:g}"

        return (self.student, self.name, self.email, self.variation, self.status, self.grading_status,
                self.sha, self.received_at, self.days_late, number(self.raw_score), number(self.late_penalty),
                number(self.score if self.score is not None else 0.0), number(self.max_score),
                number(self.percent if self.percent is not None else 0.0), self.feedback)


def grade_rows(config: CourseConfig) -> list[GradeRow]:
    """Every assigned student with their collect status and gradebook scores."""
    roster = roster_by_id(config)
    try:
        collected = {row.student: row for row in read_collected(config)}
    except UserError:  # exporting before any collect lists everyone as not collected
        collected = {}
    scores = recorded_scores(config)
    if scores is None:
        with course_gradebook()(config) as gradebook:
            scores = gradebook.scores()
    rows = []
    for assignment in load_assignments(config):
        student = assignment.student
        info = roster.get(student)
        row = collected.get(student) or Collected(student, assignment.variation, "not-collected",
                                                  reason="not collected yet")
        raw, penalty = scores.get(student, (None, 0.0)) if row.gradable else (None, 0.0)
        feedback = config.feedback_dir / student / "feedback.md"
        rows.append(GradeRow(
            student=student,
            name=info.name if info else "",
            email=info.email if info else "",
            variation=assignment.variation,
            status=row.status if raw is not None or not row.gradable else "not-graded",
            sha=row.sha,
            received_at=row.received_at,
            days_late=row.days_late,
            raw_score=raw,
            late_penalty=penalty,
            max_score=sum(category_points(assignment.variation, config.points).values()),
            feedback=str(feedback) if feedback.exists() and raw is not None else "",
            reason=row.reason,
            grading_status=grading_status(config, student) if raw is not None else "",
        ))
    return rows


def grading_status(config: CourseConfig, student: str) -> str:
    """The status the grader gave the student's latest graded commit (grader/load_status.py), or ''."""
    try:
        results = json.loads((config.feedback_dir / student / "results.json").read_text(encoding="utf-8"))
        return str(results.get("extra_data", {}).get("status", ""))
    except (OSError, ValueError, AttributeError):
        return ""


def recorded_scores(config: CourseConfig) -> dict[str, tuple[float, float]] | None:
    """The gradebook's scores as ``course grade`` last read them back, while the gradebook is unchanged
    since (same bytes); else None, and the gradebook itself is read (nbgrader takes seconds to import)."""
    url = config.gradebook_db_url()
    state = read_gradebook_state(config.results_path, url)
    return state.scores if state is not None and is_current(state, url) else None


def export_csv(config: CourseConfig, path: Path | None = None) -> tuple[Path, list[GradeRow]]:
    """Write the grades CSV (default ``grades.csv`` in the course directory) with a ``points_<method>``
    column per rule method (:mod:`.rule_columns`), and the Canvas and Moodle imports (:mod:`.lms`)."""
    path = path or config.grades_path
    with storage.guard(config.results_path, "export"):
        rows = grade_rows(config)
        write_csv(path, *with_rule_columns(config, rows, GRADES_COLUMNS, [row.csv_row() for row in rows]))
        write_lms_csvs(config, rows, blank=NEEDS_ATTENTION)
    return path, rows


def needing_attention(rows: list[GradeRow]) -> list[GradeRow]:
    """The rows whose status is in :data:`NEEDS_ATTENTION`."""
    return [row for row in rows if row.status in NEEDS_ATTENTION]


def table(rows: list[GradeRow], title: str = "Gradebook") -> Group:
    """The gradebook as a rich table (fits 80 columns for usual ids), then a note per student
    who needs one. Print it with a console of :data:`PIPE_WIDTH` columns when stdout is not a
    terminal, so that a pipe or a file gets whole rows."""
    grid = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name in ("id", "variation", "status", "sha"):
        grid.add_column(name, no_wrap=True)
    for name in ("raw", "late", "score", "max"):
        grid.add_column(name, justify="right", no_wrap=True)
    notes = []
    for row in rows:
        late = f"-{row.late_penalty:g}" if row.late_penalty else ""
        grid.add_row(
            row.student, row.variation, row.status, row.sha[:7],
            "" if row.raw_score is None else f"{row.raw_score:g}", late,
            "" if row.score is None else f"{row.score:g}", f"{row.max_score:g}",
        )
        if row.status != "ok" and row.reason:
            notes.append(Text(f"  {row.student}: {row.reason}"))
    return Group(grid, *([Text("")] + notes if notes else []))
