"""nbgrader's folders beside the gradebook (grader.course.nbgrader_files) and the final-grade arithmetic."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from nbgrader.utils import parse_utc
from traitlets.config.loader import PyFileConfigLoader
from workflow_support import new_course

from grader.course.nbgrader_files import nbgrader_root, write_course_files
from grader.course.scores import FinalGrade, final_score, late_penalty, submission_grade

RECEIVED = dt.datetime(2030, 3, 15, 22, 58, 59, 123456)  # UTC, no zone: as the gradebook keeps it


def test_the_folders_formgrader_reads(tmp_path: Path) -> None:
    course = new_course(tmp_path / "c", ["ada", "bob"])
    ours = {"solitaire-scorpion": "scorpion", "solitaire-bismarck": "bismarck"}
    root = write_course_files(course, ours, {"ada": ("solitaire-scorpion", RECEIVED)})
    assert root == nbgrader_root(course) == course.directory / "nbgrader"
    settings = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    assert settings.CourseDirectory.course_id == course.course_id
    assert settings.CourseDirectory.root == str(root)
    assert settings.CourseDirectory.db_url == course.gradebook_db_url()
    assert sorted(p.name for p in (root / "source").iterdir()) == sorted(ours)
    for step in ("submitted", "autograded"):
        stamp = (root / step / "ada" / "solitaire-scorpion" / "timestamp.txt").read_text(encoding="utf-8")
        assert parse_utc(stamp.strip()) == RECEIVED  # formgrader compares it with the gradebook's
    assert not (root / "submitted" / "bob").exists()


def test_a_rerun_changes_no_file_and_stale_folders_go(tmp_path: Path) -> None:
    course = new_course(tmp_path / "c", ["ada", "bob"])
    ours = {"solitaire-scorpion": "scorpion", "solitaire-bismarck": "bismarck"}
    root = write_course_files(course, ours, {"ada": ("solitaire-scorpion", RECEIVED),
                                             "bob": ("solitaire-bismarck", RECEIVED)})
    (root / "autograded" / "bob" / "homework-1").mkdir()  # not this course's: never touched
    times = {p: p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}
    write_course_files(course, ours, {"ada": ("solitaire-scorpion", RECEIVED),
                                      "bob": ("solitaire-bismarck", RECEIVED)})
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()} == times
    # ada moved to Bismarck, bob no longer has a submission
    write_course_files(course, ours, {"ada": ("solitaire-bismarck", RECEIVED)})
    for step in ("submitted", "autograded"):
        assert [p.name for p in (root / step / "ada").iterdir()] == ["solitaire-bismarck"]
    assert not (root / "submitted" / "bob").exists()
    assert [p.name for p in (root / "autograded" / "bob").iterdir()] == ["homework-1"]


def test_the_final_grade_arithmetic() -> None:
    assert late_penalty(87.5, 20) == 17.5 and late_penalty(10 / 3, 10) == 0.3333
    assert final_score(87.5, 17.5) == 70.0 and final_score(5.0, 7.0) == 0.0  # never below 0
    earned = {"deal": 12.0, "tableau_accepts": 8.3333}
    grade = submission_grade(earned, 100.0, penalty_percent=30, days_late=3)
    assert (grade.raw, grade.penalty, grade.final, grade.percent) == (20.3333, 6.1, 14.2333, 14.2)
    assert grade.fields() == {"raw_score": 20.3333, "late_penalty": 6.1, "late_penalty_percent": 30,
                              "days_late": 3, "final_score": 14.2333, "max_score": 100.0}
    assert FinalGrade(0.0, 0.0, 0.0).percent == 0.0
    assert submission_grade({}, 100.0).final == 0.0


@pytest.mark.parametrize("raw", [100.0, 33.3333, 0.0001])
def test_the_penalty_of_a_day_late_is_ten_percent_of_what_was_earned(raw: float) -> None:
    grade = submission_grade({"deal": raw}, 100.0, penalty_percent=10, days_late=1)
    assert grade.final == pytest.approx(0.9 * raw, abs=1e-4)
