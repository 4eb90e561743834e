"""The results store (``results.db``, SQLite): one row per graded key.

The key is (student, assignment, SHA, grader version): the same commit graded
by the same grader always gives the same result, so a key already in the
store is never graded again (unless ``--regrade``). Only the parent process
of ``course grade`` writes here (SQLite suits one writer); each result is
committed as soon as it arrives, so a crash or ``kill -9`` loses at most the
submissions being graded at that moment.

Every completed grading is also appended to the ``gradings`` log, which is how
the tests prove that nothing is graded twice; it keeps each grading's score and
seconds too (a regrade under the same grader version replaces the result row, so
the log is the only history of a grade: the class report reads it). Stores
written before those two columns existed get them on opening, empty for the old
rows (:func:`migrate`). The ``gradebook_state`` table
holds what the last complete run wrote to the gradebook
(:mod:`grader.course.gradebook_state`), so that a run with nothing new skips it.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .gradebook_state import GradebookState

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    student TEXT NOT NULL,
    assignment TEXT NOT NULL,
    sha TEXT NOT NULL,
    grader_version TEXT NOT NULL,
    variation TEXT NOT NULL,
    score REAL NOT NULL,
    max_score REAL NOT NULL,
    categories TEXT NOT NULL,
    results_json TEXT NOT NULL,
    feedback_path TEXT NOT NULL,
    graded_at TEXT NOT NULL,
    run_id TEXT NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (student, assignment, sha, grader_version)
);
CREATE TABLE IF NOT EXISTS gradings (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    student TEXT NOT NULL,
    assignment TEXT NOT NULL,
    sha TEXT NOT NULL,
    grader_version TEXT NOT NULL,
    run_id TEXT NOT NULL,
    graded_at TEXT NOT NULL,
    score REAL,
    seconds REAL
);
CREATE TABLE IF NOT EXISTS gradebook_state (
    url TEXT PRIMARY KEY,
    inputs TEXT NOT NULL,
    file_digest TEXT NOT NULL,
    scores TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class Key:
    student: str
    assignment: str
    sha: str
    grader_version: str


@dataclass(frozen=True)
class Result:
    """One graded submission: per rule category (earned fraction, grader's max points) and the files."""

    key: Key
    variation: str
    score: float
    max_score: float
    categories: dict[str, tuple[float, float]]
    results: dict[str, Any]
    feedback_path: str
    graded_at: str
    run_id: str
    seconds: float


class ResultStore:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.connection = sqlite3.connect(path, timeout=30)
        self.connection.executescript(SCHEMA)
        migrate(self.connection)
        self.connection.commit()

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def has(self, key: Key) -> bool:
        row = self.connection.execute(
            "SELECT 1 FROM results WHERE student=? AND assignment=? AND sha=? AND grader_version=?",
            (key.student, key.assignment, key.sha, key.grader_version),
        ).fetchone()
        return row is not None

    def put(self, result: Result) -> None:
        """Store ``result`` (replacing an earlier one of the same key) and log the grading, atomically."""
        key = result.key
        with self.connection:
            self.connection.execute(
                "INSERT OR REPLACE INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (key.student, key.assignment, key.sha, key.grader_version, result.variation,
                 result.score, result.max_score,
                 json.dumps({c: list(v) for c, v in result.categories.items()}),
                 json.dumps(result.results), result.feedback_path, result.graded_at,
                 result.run_id, result.seconds),
            )
            self.connection.execute(
                "INSERT INTO gradings (student, assignment, sha, grader_version, run_id, graded_at, score, "
                "seconds) VALUES (?,?,?,?,?,?,?,?)",
                (key.student, key.assignment, key.sha, key.grader_version, result.run_id, result.graded_at,
                 result.score, result.seconds),
            )

    def get(self, key: Key) -> Result | None:
        row = self.connection.execute(
            "SELECT variation, score, max_score, categories, results_json, feedback_path, graded_at, "
            "run_id, seconds FROM results WHERE student=? AND assignment=? AND sha=? AND grader_version=?",
            (key.student, key.assignment, key.sha, key.grader_version),
        ).fetchone()
        if row is None:
            return None
        categories = {c: (float(v[0]), float(v[1])) for c, v in json.loads(row[3]).items()}
        return Result(key, row[0], row[1], row[2], categories, json.loads(row[4]), row[5], row[6],
                      row[7], row[8])

    def grading_counts(self) -> dict[Key, int]:
        """How many times each key was graded to completion (the audit log)."""
        rows = self.connection.execute(
            "SELECT student, assignment, sha, grader_version, COUNT(*) FROM gradings "
            "GROUP BY student, assignment, sha, grader_version"
        ).fetchall()
        return {Key(*row[:4]): row[4] for row in rows}

    def gradebook_state(self, url: str) -> GradebookState | None:
        """What the last complete run wrote to the gradebook at ``url`` (None: unknown)."""
        return _state(self.connection, url)

    def save_gradebook_state(self, state: GradebookState) -> None:
        with self.connection:
            self.connection.execute(
                "INSERT OR REPLACE INTO gradebook_state VALUES (?,?,?,?)",
                (state.url, state.inputs, state.file_digest,
                 json.dumps({s: list(v) for s, v in state.scores.items()})),
            )

    def forget_gradebook_state(self) -> None:
        """Before writing the gradebook: a run that stops half-way leaves no state behind."""
        with self.connection:
            self.connection.execute("DELETE FROM gradebook_state")


#: columns added to the ``gradings`` log after the first stores were written (name, SQL type)
GRADINGS_ADDED = (("score", "REAL"), ("seconds", "REAL"))


def migrate(connection: sqlite3.Connection) -> None:
    """Bring a store written by an older version up to :data:`SCHEMA` (idempotent).

    Old rows of the ``gradings`` log keep NULL in the added columns: their score
    was never recorded (readers fall back on the result row, when it is theirs).
    """
    present = {row[1] for row in connection.execute("PRAGMA table_info(gradings)")}
    for name, kind in GRADINGS_ADDED:
        if name not in present:
            connection.execute(f"ALTER TABLE gradings ADD COLUMN {name} {kind}")


def _state(connection: sqlite3.Connection, url: str) -> GradebookState | None:
    row = connection.execute(
        "SELECT inputs, file_digest, scores FROM gradebook_state WHERE url=?", (url,)
    ).fetchone()
    if row is None:
        return None
    scores = {s: (float(v[0]), float(v[1])) for s, v in json.loads(row[2]).items()}
    return GradebookState(url, row[0], row[1], scores)


def read_gradebook_state(path: Path, url: str) -> GradebookState | None:
    """:meth:`ResultStore.gradebook_state` without creating or changing ``path`` (for readers)."""
    if not path.is_file():
        return None
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error:
        return None
    try:
        return _state(connection, url)
    except sqlite3.OperationalError:  # a store written before the table existed
        return None
    finally:
        connection.close()
