"""Grade files a learning-management system imports: Canvas and Moodle.

Both hold one grade per student: the final score (late penalty included) in
percent of the student's variation's maximum, as the ``percent`` column of
grades.csv, so that a variation worth other than 100 points still grades out
of 100. A student whose work the course could not reach or grade yet
(``missing``, ``unreachable``, ``not-collected``, ``not-graded``) gets an empty
cell, which both systems import as "no change"; a student's own outcome
(not submitted, empty repo, wrong branch) is a 0, as in grades.csv.

* ``export/canvas.csv``, Canvas's gradebook import: ``Student``, ``ID``,
  ``SIS User ID``, ``SIS Login ID``, ``Section``, then one column named after
  the assignment; a second row ``Points Possible`` (100), as Canvas's own
  export has it. Canvas matches students by ``ID`` (Canvas's user id),
  ``SIS User ID`` or ``SIS Login ID``.
* ``export/moodle.csv``, Moodle's CSV grade import: ``ID number``,
  ``Email address``, ``Full name``, then the assignment's grade; map
  ``Email address`` to ``useremail`` (or ``ID number`` to ``useridnumber``).

The identifying cells come from the roster: optional columns ``canvas_id``,
``sis_user_id``, ``sis_login_id``, ``section`` and ``idnumber`` when present,
else the roster's ``id`` (SIS User ID, ID number) and ``email`` (SIS Login ID);
docs/instructor-guide.md lists them.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from solitaire.errors import UserError

from .config import CourseConfig
from .roster import ROSTER_COLUMNS, read_rows, write_csv

if TYPE_CHECKING:
    from .export import GradeRow

EXPORT_DIR = "export"
CANVAS_NAME = "canvas.csv"
MOODLE_NAME = "moodle.csv"
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
MOODLE_COLUMNS = ("ID number", "Email address", "Full name")
POINTS_POSSIBLE = "Points Possible"
#: optional roster columns that fill the identifying cells
OPTIONAL_ROSTER = ("canvas_id", "sis_user_id", "sis_login_id", "section", "idnumber")


def paths(config: CourseConfig) -> tuple[Path, Path]:
    """Where the Canvas and Moodle files go: ``DIR/export/canvas.csv`` and ``DIR/export/moodle.csv``."""
    directory = config.directory / EXPORT_DIR
    return directory / CANVAS_NAME, directory / MOODLE_NAME


def roster_extras(config: CourseConfig) -> dict[str, dict[str, str]]:
    """Student id -> the optional roster columns it fills (see :data:`OPTIONAL_ROSTER`)."""
    extras: dict[str, dict[str, str]] = {}
    try:
        for _, row in read_rows(config.roster_path, "roster", ROSTER_COLUMNS):
            extras.setdefault(row["id"], {k: row[k] for k in OPTIONAL_ROSTER if row.get(k)})
    except UserError:  # a roster gone since assign: the ids and emails of grades.csv still identify
        return {}
    return extras


def grade_cell(row: GradeRow, blank: Collection[str]) -> str:
    """The imported grade: the final percent, 0 without a submission, empty for ``blank`` statuses."""
    if row.status in blank:
        return ""
    percent = row.percent
    return f"{percent if percent is not None else 0.0:g}"


def write_lms_csvs(config: CourseConfig, rows: list[GradeRow], blank: Collection[str]) -> tuple[Path, Path]:
    """Write the Canvas and Moodle files for ``rows`` (the rows of grades.csv); returns their paths."""
    canvas, moodle = paths(config)
    extras = roster_extras(config)
    title = config.assignment
    canvas_lines: list[list[object]] = [[POINTS_POSSIBLE, "", "", "", "", "100"]]
    moodle_lines: list[list[object]] = []
    for row in rows:
        extra = extras.get(row.student, {})
        grade = grade_cell(row, blank)
        canvas_lines.append([row.name or row.student, extra.get("canvas_id", ""),
                             extra.get("sis_user_id", row.student), extra.get("sis_login_id", row.email),
                             extra.get("section", ""), grade])
        moodle_lines.append([extra.get("idnumber", row.student), row.email, row.name, grade])
    write_csv(canvas, (*CANVAS_COLUMNS, title), canvas_lines)
    write_csv(moodle, (*MOODLE_COLUMNS, title), moodle_lines)
    return canvas, moodle
