"""Reading the roster CSV (``id,name,email``) and other small CSV files of a course.

A problem with the whole file (missing, empty, not UTF-8, a required column
missing) raises :class:`~solitaire.errors.UserError`. A problem with one line
(duplicate or invalid id) is reported as a :class:`Problem` naming the file,
the line and the student; that line is skipped and the others are kept.
"""

from __future__ import annotations

import csv
import io
import os
import re
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from solitaire.errors import UserError

STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
ROSTER_COLUMNS = ("id", "name", "email")


@dataclass(frozen=True)
class Problem:
    """One line of an input file that could not be used, and why."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Student:
    id: str
    name: str
    email: str


def read_text(path: Path, what: str) -> str:
    """The UTF-8 text of ``path`` (a byte-order mark is accepted); clear errors otherwise."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{path}: {what} not found") from None
    except OSError as error:
        raise UserError(f"{path}: cannot read the {what} ({error.strerror})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise UserError(
            f"{path}:{line}: the {what} is not UTF-8 text (byte 0x{data[error.start]:02x}); "
            "save it as UTF-8 (CSV UTF-8 in a spreadsheet) and run again"
        ) from None


def read_rows(
    path: Path, what: str, required: Sequence[str]
) -> Iterable[tuple[int, dict[str, str]]]:
    """(line number, row) for each non-blank data line of the CSV at ``path``.

    Column names are matched without regard to case or surrounding spaces;
    values are stripped. Raises UserError for an empty file or a missing column.
    """
    text = read_text(path, what)
    if not text.strip():
        raise UserError(f"{path}: the {what} is empty (expected a header line: {','.join(required)})")
    reader = csv.reader(io.StringIO(text))
    try:
        header = [name.strip().lower() for name in next(reader)]
    except csv.Error as error:
        raise UserError(f"{path}:1: not a CSV header ({error})") from None
    missing = [name for name in required if name not in header]
    if missing:
        raise UserError(
            f"{path}:1: the {what} has no column {', '.join(repr(m) for m in missing)} "
            f"(header is {','.join(header)}; expected {','.join(required)})"
        )
    index = {name: header.index(name) for name in header}
    try:
        for fields in reader:
            if not any(field.strip() for field in fields):
                continue
            row = {name: (fields[i].strip() if i < len(fields) else "") for name, i in index.items()}
            yield reader.line_num, row
    except csv.Error as error:
        raise UserError(f"{path}:{reader.line_num}: malformed CSV ({error})") from None


def check_id(student_id: str) -> str | None:
    """Why ``student_id`` cannot be used (it names repos and folders), or None."""
    if not student_id:
        return "empty student id"
    if not STUDENT_ID.match(student_id):
        return (f"student id {student_id!r} may hold only letters, digits, '.', '_' and '-' "
                "(at most 64, not starting with '.' or '-')")
    return None


def read_roster(path: Path) -> tuple[list[Student], list[Problem]]:
    """The students of the roster at ``path`` in file order, and the lines skipped."""
    students: list[Student] = []
    problems: list[Problem] = []
    first_line: dict[str, int] = {}
    for line, row in read_rows(path, "roster", ROSTER_COLUMNS):
        student_id = row["id"]
        reason = check_id(student_id)
        if reason:
            problems.append(Problem(str(path), line, f"{reason}; line skipped"))
            continue
        if student_id in first_line:
            problems.append(Problem(
                str(path), line,
                f"duplicate id {student_id!r} (first on line {first_line[student_id]}); line skipped",
            ))
            continue
        first_line[student_id] = line
        students.append(Student(student_id, row["name"], row["email"]))
    if not students and not problems:
        raise UserError(f"{path}: the roster has a header but no students")
    return students, problems


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    """Write a CSV atomically (a crash leaves the old file or the new one, never half of one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(header)
            for row in rows:
                writer.writerow(["" if value is None else value for value in row])
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
