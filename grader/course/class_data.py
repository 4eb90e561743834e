"""Each student's grade with what lies behind it: the stored result and the grade's history.

The class report and the per-rule columns of grades.csv read the class through
here, so that both use the grade ``course export`` writes (``export.grade_rows``:
the gradebook's raw score, the late penalty, the final score) and the stored
result that gave that raw score (its tests, rule methods and grading time).

The results store is opened read-only: reading never creates, migrates or locks
it, and a store written before the ``gradings`` log kept scores still reads
(those gradings have no score of their own; the result row gives it when the
row is theirs).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from solitaire.errors import UserError

from . import scores
from .collect import read_collected
from .config import CourseConfig
from .points import category_points
from .results import Key, Result
from .scores import earned_points

if TYPE_CHECKING:  # export writes grades.csv with this module's per-rule points: no import cycle
    from .export import GradeRow

#: how far apart the gradebook's raw score and a stored result's score may be and still match
SCORE_TOLERANCE = 1e-3


@dataclass(frozen=True)
class Grading:
    """One grading of a student's collected commit, from the store's ``gradings`` log."""

    number: int
    grader_version: str
    run_id: str
    graded_at: str
    score: float | None  # raw points; None for a grading logged before scores were kept
    seconds: float | None


@dataclass(frozen=True)
class StudentData:
    """A student's row of grades.csv, the stored result behind its raw score, the gradings of its commit."""

    row: GradeRow
    result: Result | None
    history: tuple[Grading, ...] = ()
    matches_gradebook: bool = True  # False: the store holds no result with the gradebook's raw score
    penalty_percent: float = 0.0  # of the collected commit (collected.csv)
    points: tuple[tuple[str, float], ...] = ()  # earned per rule method, course points: sum = raw score

    def final(self, raw: float) -> float:
        """The final score ``raw`` points would give this student (their late penalty applied)."""
        return final_score(raw, self.penalty_percent)

    @property
    def percent(self) -> float | None:
        """The final score in percent of the variation's maximum, unrounded (None: nothing graded)."""
        score = self.row.score
        return None if score is None or not self.row.max_score else 100.0 * score / self.row.max_score


class StoreReader:
    """Read-only queries on the results store (absent store: nothing stored)."""

    def __init__(self, path: Path) -> None:
        self.connection: sqlite3.Connection | None = None
        self.logged = False
        self.problem = ""  # why a store that is there could not be read (then it reads as empty)
        if not path.is_file():
            return
        try:
            self.connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
            columns = {row[1] for row in self.connection.execute("PRAGMA table_info(gradings)")}
            self.connection.execute("SELECT 1 FROM results LIMIT 1").fetchall()
        except sqlite3.Error as error:  # not a store, or damaged: the grades still come from the gradebook
            self.close()
            self.connection, self.problem = None, f"{path}: not readable as a results store ({error})"
            return
        self.logged = {"score", "seconds"} <= columns

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()

    def __enter__(self) -> StoreReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def results(self, student: str, assignment: str, sha: str) -> list[Result]:
        """Every stored result of this commit (one per grader version)."""
        if self.connection is None:
            return []
        rows = self.connection.execute(
            "SELECT grader_version, variation, score, max_score, categories, results_json, feedback_path, "
            "graded_at, run_id, seconds FROM results WHERE student=? AND assignment=? AND sha=?",
            (student, assignment, sha),
        ).fetchall()
        found = []
        for row in rows:
            categories = {c: (float(v[0]), float(v[1])) for c, v in json.loads(row[4]).items()}
            found.append(Result(Key(student, assignment, sha, row[0]), row[1], row[2], row[3], categories,
                                json.loads(row[5]), row[6], row[7], row[8], row[9]))
        return found

    def gradings(self, student: str, assignment: str, sha: str) -> list[Grading]:
        """The log's gradings of this commit, oldest first."""
        if self.connection is None:
            return []
        extra = "score, seconds" if self.logged else "NULL, NULL"
        rows = self.connection.execute(
            f"SELECT number, grader_version, run_id, graded_at, {extra} FROM gradings "
            "WHERE student=? AND assignment=? AND sha=? ORDER BY number",
            (student, assignment, sha),
        ).fetchall()
        return [Grading(*row) for row in rows]


def _with_known_scores(gradings: list[Grading], results: list[Result]) -> tuple[Grading, ...]:
    """``gradings`` with an unlogged score taken from the result row written by that same grading."""
    by_grading = {(r.key.grader_version, r.run_id, r.graded_at): r for r in results}
    filled = []
    for grading in gradings:
        result = by_grading.get((grading.grader_version, grading.run_id, grading.graded_at))
        if grading.score is None and result is not None:
            seconds = grading.seconds if grading.seconds is not None else result.seconds
            grading = Grading(grading.number, grading.grader_version, grading.run_id, grading.graded_at,
                              result.score, seconds)
        filled.append(grading)
    return tuple(filled)


def _behind(
    raw: float, results: list[Result], history: tuple[Grading, ...], points: dict[str, float]
) -> tuple[Result | None, bool]:
    """The stored result whose score under the course's current ``points`` is the gradebook's ``raw``
    (``course grade`` writes every result with the current points), the latest graded first; else the
    latest result and False."""
    if not results:
        return None, False
    last_graded = {g.grader_version: g.number for g in history}
    ordered = sorted(results, key=lambda r: (last_graded.get(r.key.grader_version, -1), r.graded_at),
                     reverse=True)
    for result in ordered:
        if abs(sum(earned_points(result.categories, points).values()) - raw) <= SCORE_TOLERANCE:
            return result, True
    return ordered[0], False


def class_data(config: CourseConfig, rows: list[GradeRow]) -> list[StudentData]:
    """Every student of ``rows`` (:func:`export.grade_rows`: the rows of grades.csv) with their stored
    result and its history."""
    try:
        penalties = {c.student: c.penalty_percent for c in read_collected(config)}
    except UserError:  # nothing collected yet: nobody is graded either
        penalties = {}
    found = []
    with StoreReader(config.results_path) as store:
        for row in rows:
            if row.raw_score is None or not row.sha:
                found.append(StudentData(row, None))
                continue
            results = store.results(row.student, config.assignment, row.sha)
            history = _with_known_scores(store.gradings(row.student, config.assignment, row.sha), results)
            course_points = category_points(row.variation, config.points)
            result, matches = _behind(row.raw_score, results, history, course_points)
            points: tuple[tuple[str, float], ...] = ()
            if result is not None:
                points = tuple(earned_points(result.categories, course_points).items())
            found.append(StudentData(row, result, history, matches, penalties.get(row.student, 0.0), points))
    return found


def final_score(raw: float, penalty_percent: float) -> float:
    """The final score of ``raw`` points with the late penalty, as the gradebook and export compute it
    (the course's one arithmetic: :mod:`grader.course.scores`)."""
    return scores.final_score(raw, scores.late_penalty(raw, penalty_percent))
