"""The course's grades in nbgrader's :class:`~nbgrader.api.Gradebook`.

Mapping (one nbgrader *assignment* per course assignment):

* each variation of the course is a *notebook* of the assignment;
* each rule category of a variation is a *grade cell* of its notebook, whose
  max score is the category's points (catalog, with the course's overrides);
* each student is a *student* (the roster name split at its last space into
  first and last name, the e-mail);
* a graded submission is a *submitted assignment* holding one submitted
  notebook, the student's variation; its timestamp is the receive time of the
  graded commit, each grade cell's auto score the points earned, and the late
  penalty (points) is the notebook's ``late_submission_penalty``.

nbgrader's own ``score`` does not subtract the penalty; its CSV export does,
and so does ours (:mod:`grader.course.export`). Note that nbgrader computes the
assignment's ``max_score`` as the sum over all its notebooks, so in nbgrader's
CSV export ``max_score`` is the sum over every variation of the course; the
score of a student is right, and our export gives each student's own maximum.

The database is SQLite by default, any SQLAlchemy URL otherwise. Creating a
fresh database makes nbgrader run the ``alembic`` command; :func:`open_gradebook`
puts the running Python's ``bin`` directory on ``PATH`` so it is found even
when the virtual environment is not activated.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from nbgrader.api import Grade as NbGrade
from nbgrader.api import Gradebook, MissingEntry, SubmittedAssignment, SubmittedNotebook

from solitaire.errors import UserError

from .config import CourseConfig
from .points import category_points
from .roster import Student


@contextlib.contextmanager
def tools_on_path() -> Iterator[None]:
    """``PATH`` with this Python's ``bin`` directory first (where ``alembic`` is installed)."""
    bin_dir = str(Path(sys.executable).parent)
    old = os.environ.get("PATH", "")
    if bin_dir in old.split(os.pathsep):
        yield
        return
    os.environ["PATH"] = bin_dir + os.pathsep + old
    try:
        yield
    finally:
        os.environ["PATH"] = old


def open_gradebook(url: str, course_id: str) -> Gradebook:
    """nbgrader's Gradebook at ``url`` (created when new)."""
    if url.startswith("sqlite:///"):
        Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    try:
        with tools_on_path():
            return Gradebook(url, course_id=course_id)
    except FileNotFoundError as error:
        raise UserError(f"cannot create the gradebook: {error.filename or 'alembic'} not found "
                        "(install the project's dependencies: bash scripts/setup.sh)") from None
    except Exception as error:  # noqa: BLE001 - SQLAlchemy reports bad URLs with many types
        raise UserError(f"cannot open the gradebook {url}: {error}") from None


def _first_last(name: str) -> tuple[str, str]:
    first, _, last = name.strip().rpartition(" ")
    return (first, last) if first else (name.strip(), "")


class CourseGradebook:
    """The course's view of the gradebook; one writer (the ``course grade`` parent)."""

    def __init__(self, config: CourseConfig) -> None:
        self.config = config
        self.gradebook = open_gradebook(config.gradebook_db_url(), config.course_id)
        self.assignment = config.assignment

    def close(self) -> None:
        self.gradebook.close()

    def __enter__(self) -> CourseGradebook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def points(self, variation: str) -> dict[str, float]:
        return category_points(variation, self.config.points)

    def ensure_structure(self, variations: list[str]) -> None:
        """The assignment, a notebook per variation and a grade cell per rule category."""
        gb = self.gradebook
        gb.update_or_create_assignment(self.assignment, duedate=self.config.deadline,
                                       course_id=self.config.course_id)
        for variation in variations:
            gb.update_or_create_notebook(variation, self.assignment)
            for category, points in self.points(variation).items():
                gb.update_or_create_grade_cell(category, variation, self.assignment,
                                               max_score=points, cell_type="code")

    def ensure_students(self, students: list[Student]) -> None:
        """Add or update each student; one known without a name or e-mail (who left the roster)
        keeps what the gradebook holds: a name is never wiped."""
        for student in students:
            if not student.name and not student.email:
                try:
                    self.gradebook.find_student(student.id)
                    continue
                except MissingEntry:
                    pass
            first, last = _first_last(student.name)
            self.gradebook.update_or_create_student(student.id, first_name=first, last_name=last,
                                                    email=student.email or None)

    def _submitted_notebook(self, student: str, variation: str, timestamp: dt.datetime) -> SubmittedNotebook:
        """The student's submitted notebook of ``variation`` with a grade row per cell (made when missing)."""
        gb = self.gradebook
        try:
            submission = gb.find_submission(self.assignment, student)
        except MissingEntry:
            submission = SubmittedAssignment(assignment=gb.find_assignment(self.assignment),
                                             student=gb.find_student(student))
            gb.db.add(submission)
        submission.timestamp = timestamp.astimezone(dt.UTC).replace(tzinfo=None)
        notebook = gb.find_notebook(variation, self.assignment)
        for other in list(submission.notebooks):
            if other.notebook_id != notebook.id:  # a student has one variation: drop any other
                for row in list(other.grades) + list(other.comments):
                    gb.db.delete(row)
                gb.db.delete(other)
        submitted = next((n for n in submission.notebooks if n.notebook_id == notebook.id), None)
        if submitted is None:
            submitted = SubmittedNotebook(notebook=notebook, assignment=submission)
            gb.db.add(submitted)
        have = {grade.cell_id for grade in submitted.grades}
        for cell in notebook.grade_cells:
            if cell.id not in have:
                gb.db.add(NbGrade(cell_id=cell.id, notebook=submitted))
        gb.db.flush()
        return submitted

    def record(
        self,
        student: str,
        variation: str,
        received: dt.datetime,
        earned: dict[str, float],
        penalty_points: float,
    ) -> None:
        """Store one graded submission: points per category and the late penalty in points."""
        gb = self.gradebook
        try:
            submitted = self._submitted_notebook(student, variation, received)
            for grade in submitted.grades:
                grade.auto_score = float(earned.get(grade.cell.name, 0.0))
                grade.needs_manual_grade = False
            submitted.late_submission_penalty = float(penalty_points)
            gb.db.commit()
        except Exception:
            gb.db.rollback()
            raise

    def scores(self) -> dict[str, tuple[float, float]]:
        """Student → (raw score, late penalty) of every submission in the gradebook."""
        result = {}
        for submission in self.gradebook.assignment_submissions(self.assignment):
            result[submission.student.id] = (float(submission.score),
                                             float(submission.late_submission_penalty or 0.0))
        return result

    def cell_scores(self, student: str, variation: str) -> dict[str, float]:
        """Points per grade cell of ``student``'s submitted notebook."""
        submitted = self.gradebook.find_submission_notebook(variation, self.assignment, student)
        return {grade.cell.name: float(grade.score) for grade in submitted.grades}
