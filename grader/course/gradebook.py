"""The course's grades in nbgrader's :class:`~nbgrader.api.Gradebook`.

Mapping: one nbgrader *assignment* per (course assignment, variation), named
``<assignment>-<variation>`` (:func:`nbgrader_assignment`, e.g.
``solitaire-scorpion``), so that nbgrader's own totals are each student's:

* the nbgrader assignment has one *notebook*, named after the variation;
* each rule category of the variation is a *grade cell* of that notebook,
  whose max score is the category's points (catalog, with the course's
  overrides): the assignment's ``max_score`` is the variation's maximum;
* each student is a *student* (the roster name split at its last space into
  first and last name, the e-mail);
* a graded submission is a *submitted assignment* of the student's own
  variation's assignment only (a student reassigned to another variation has
  their submission moved); its timestamp is the receive time of the graded
  commit, each grade cell's auto score the points earned, and the late
  penalty (points) is the notebook's ``late_submission_penalty``.

So nbgrader's ``score``, ``late_submission_penalty`` and ``max_score`` of a
submission, and the row of ``nbgrader export`` for (the student's variation's
assignment, the student), are the student's own: ``score`` there is
``raw - penalty``, as in grades.csv and results.json
(:func:`grader.course.scores.final_grade`). ``nbgrader export`` also writes a
row of 0 for each student and every *other* variation's assignment (nbgrader
lists every student for every assignment); and nbgrader's per-student total
(formgrader's Students tab, ``Student.max_score``) sums every assignment of
the gradebook, so it is not a per-student maximum: use the assignment's rows.

Older gradebooks had one nbgrader assignment named after the course assignment
with a notebook per variation (its ``max_score`` the sum of every variation's).
The next ``course grade`` migrates them (:meth:`CourseGradebook.ensure_structure`):
it copies a SQLite gradebook to ``.work/gradebook-backups/`` and removes the
old assignment; the run then writes every stored result in the new layout.

The folders formgrader needs beside the database are written by
:mod:`grader.course.nbgrader_files`.

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
from .gradebook_state import copy_database
from .points import category_points, known_variations
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


def nbgrader_assignment(assignment: str, variation: str) -> str:
    """The nbgrader assignment of ``variation`` in the course assignment ``assignment``."""
    return f"{assignment}-{variation}"


def _first_last(name: str) -> tuple[str, str]:
    first, _, last = name.strip().rpartition(" ")
    return (first, last) if first else (name.strip(), "")


def backup_sqlite(url: str, folder: Path, label: str) -> Path | None:
    """A copy of the SQLite database at ``url`` in ``folder`` (None: not a SQLite file)."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    target = folder / f"gradebook-{label}-{stamp}.db"
    return target if copy_database(url, target) else None


class CourseGradebook:
    """The course's view of the gradebook; one writer (the ``course grade`` parent)."""

    def __init__(self, config: CourseConfig) -> None:
        self.config = config
        self.gradebook = open_gradebook(config.gradebook_db_url(), config.course_id)
        self.assignment = config.assignment
        self._ours: dict[str, str] | None = None  # nbgrader assignment -> variation (cache)
        self.migrated_backup: Path | None = None

    def close(self) -> None:
        self.gradebook.close()

    def __enter__(self) -> CourseGradebook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def points(self, variation: str) -> dict[str, float]:
        return category_points(variation, self.config.points)

    def assignment_of(self, variation: str) -> str:
        return nbgrader_assignment(self.assignment, variation)

    def course_assignments(self) -> dict[str, str]:
        """nbgrader assignment -> variation, for this course assignment's assignments in the gradebook."""
        if self._ours is None:
            names = {self.assignment_of(v): v for v in (*known_variations(), *self.config.variations)}
            self._ours = {a.name: names[a.name] for a in self.gradebook.assignments if a.name in names}
        return self._ours

    def ensure_structure(self, variations: list[str]) -> None:
        """Per variation: its assignment, its notebook, a grade cell per rule category (see the module)."""
        gb = self.gradebook
        self._migrate_legacy()
        for variation in variations:
            name = self.assignment_of(variation)
            gb.update_or_create_assignment(name, duedate=self.config.deadline,
                                           course_id=self.config.course_id)
            gb.update_or_create_notebook(variation, name)
            for category, points in self.points(variation).items():
                gb.update_or_create_grade_cell(category, variation, name, max_score=points, cell_type="code")
        self._ours = None

    def _migrate_legacy(self) -> None:
        """Remove the old layout's assignment (one notebook per variation), after a backup."""
        gb = self.gradebook
        try:
            legacy = gb.find_assignment(self.assignment)
        except MissingEntry:
            return
        notebooks = {notebook.name for notebook in legacy.notebooks}
        if not notebooks or not notebooks <= {*known_variations(), *self.config.variations}:
            return  # not the old layout of this course: leave it alone
        backups = self.config.work_dir / "gradebook-backups"
        self.migrated_backup = backup_sqlite(self.config.gradebook_db_url(), backups, "before-per-variation")
        gb.remove_assignment(self.assignment)

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

    def _drop_other_variations(self, student: str, keep: str) -> None:
        """Remove ``student``'s submissions of this course's other variations (a reassigned student)."""
        ours = self.course_assignments()
        for submission in list(self.gradebook.find_student(student).submissions):
            name = submission.assignment.name
            if name in ours and name != keep:
                self.gradebook.remove_submission(name, student)

    def _submitted_notebook(self, student: str, variation: str, timestamp: dt.datetime) -> SubmittedNotebook:
        """The student's submitted notebook of ``variation`` with a grade row per cell (made when missing)."""
        gb = self.gradebook
        name = self.assignment_of(variation)
        self._drop_other_variations(student, name)
        try:
            submission = gb.find_submission(name, student)
        except MissingEntry:
            submission = SubmittedAssignment(assignment=gb.find_assignment(name),
                                             student=gb.find_student(student))
            gb.db.add(submission)
        submission.timestamp = timestamp.astimezone(dt.UTC).replace(tzinfo=None)
        notebook = gb.find_notebook(variation, name)
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

    def submissions(self) -> dict[str, tuple[str, dt.datetime]]:
        """Student -> (nbgrader assignment, timestamp in UTC without zone) of every submission."""
        found = {}
        for name in sorted(self.course_assignments()):
            for submission in self.gradebook.assignment_submissions(name):
                found[submission.student.id] = (name, submission.timestamp)
        return found

    def scores(self) -> dict[str, tuple[float, float]]:
        """Student -> (raw score, late penalty) of every submission in the gradebook (to 4 decimals)."""
        result = {}
        for name in sorted(self.course_assignments()):
            for submission in self.gradebook.assignment_submissions(name):
                result[submission.student.id] = (round(float(submission.score), 4),
                                                 round(float(submission.late_submission_penalty or 0.0), 4))
        return result

    def max_scores(self) -> dict[str, float]:
        """Student -> nbgrader's ``max_score`` of their submission (their variation's maximum)."""
        return {submission.student.id: float(submission.max_score)
                for name in sorted(self.course_assignments())
                for submission in self.gradebook.assignment_submissions(name)}

    def cell_scores(self, student: str, variation: str) -> dict[str, float]:
        """Points per grade cell of ``student``'s submitted notebook."""
        submitted = self.gradebook.find_submission_notebook(variation, self.assignment_of(variation), student)
        return {grade.cell.name: float(grade.score) for grade in submitted.grades}
