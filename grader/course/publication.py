"""Feedback publication as part of the recorded result: ``feedback/<student>/`` follows the store.

``course grade`` stores a result, then copies the feedback files of its
grading folder to ``feedback/<student>/``. A kill between the two used to
leave that folder missing for good: the key was stored, so no later run
graded it again. Now each publication is recorded in the results store (table
``publications``: the key published for a student and the SHA-256 of each
file as copied), and every run first checks each stored result of the current
collect against the student's folder (:func:`heal`): a folder with no record,
a record of another key, or files that differ from the recorded digests is
published again from the result's grading folder. The check reads two small
files per student, so it also runs when there is nothing to grade.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

from .collect import Collected
from .results import Key, Result

FILES = ("feedback.md", "feedback.html", "feedback.json", "results.json")
SCHEMA = """
CREATE TABLE IF NOT EXISTS publications (
    student TEXT NOT NULL,
    assignment TEXT NOT NULL,
    sha TEXT NOT NULL,
    grader_version TEXT NOT NULL,
    files TEXT NOT NULL,
    PRIMARY KEY (student, assignment)
);
"""


def digests(folder: Path) -> dict[str, str]:
    """SHA-256 of each feedback file present in ``folder``."""
    found = {}
    for name in FILES:
        path = folder / name
        if path.is_file():
            found[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def record(connection: sqlite3.Connection, key: Key, target: Path) -> None:
    """Record that ``target`` (``feedback/<student>/``) now shows the result of ``key``."""
    with connection:
        connection.executescript(SCHEMA)
        connection.execute("INSERT OR REPLACE INTO publications VALUES (?,?,?,?,?)",
                           (key.student, key.assignment, key.sha, key.grader_version,
                            json.dumps(digests(target), sort_keys=True)))


def record_all(
    connection: sqlite3.Connection,
    written: Sequence[tuple[Collected, Result]],
    failed: Sequence[tuple[str, str]],
    feedback_dir: Path,
) -> None:
    """Record the folders that writing every stored result again has just rendered (the late penalty
    may have changed), except those of ``failed`` students, which the next run checks again."""
    skipped = {student for student, _ in failed}
    for row, result in written:
        if row.student not in skipped and result.feedback_path:
            record(connection, result.key, feedback_dir / row.student)


def is_published(connection: sqlite3.Connection, key: Key, target: Path) -> bool:
    """Whether ``target`` holds exactly the files recorded as published for ``key``."""
    connection.executescript(SCHEMA)
    row = connection.execute(
        "SELECT sha, grader_version, files FROM publications WHERE student=? AND assignment=?",
        (key.student, key.assignment)).fetchone()
    if row is None or (row[0], row[1]) != (key.sha, key.grader_version):
        return False
    recorded = json.loads(row[2])
    return bool(recorded) and recorded == digests(target)


def source_folder(result: Result) -> Path | None:
    """The grading folder whose files were published for ``result`` (None: it had no feedback file)."""
    return Path(result.feedback_path).parent if result.feedback_path else None


def heal(
    connection: sqlite3.Connection,
    results: Sequence[tuple[str, Result]],
    feedback_dir: Path,
    publish: Callable[[str, Path], None],
) -> tuple[list[str], list[tuple[str, str]]]:
    """Publish again every (student, stored result) whose folder does not show it.

    Returns (students published again, (student, why not) for those that could not be).
    """
    republished: list[str] = []
    problems: list[tuple[str, str]] = []
    for student, result in results:
        target = feedback_dir / student
        if is_published(connection, result.key, target):
            continue
        source = source_folder(result)
        if source is None or not any((source / name).is_file() for name in FILES):
            problems.append((student, f"its feedback is not published and its grading folder "
                                      f"{source or '(none)'} is gone: run `solitaire course grade "
                                      "--regrade` to grade and publish it again"))
            continue
        publish(student, source)
        record(connection, result.key, target)
        republished.append(student)
    return republished, problems
