"""The feedback a student reads in the course: late penalty and final grade as recorded; grading status.

One Bismarck class graded by the real grader: a late reference (2 days, 20 %),
a rules file with a syntax error, and a rules file committed under the wrong
name. The feedback (md and html) says the final grade the gradebook records;
grades.csv says why a student got nothing (``grading_status``).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from workflow_support import at, push

from grader.course import collect, export, simulate
from grader.course.grade_class import grade_class

# about a minute (a published course, nbgrader, three sandboxed gradings); the same behaviour is tested
# fast in tests/grader/test_feedback_html.py (publish with a penalty, grading_status from results.json)
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not simulate.reference_text("bismarck"), reason="no Bismarck reference")]


def renamed(work: Path) -> None:
    """The student's solution committed as Bismarck.py (the starter's bismarck.py removed)."""
    simulate.copy_reference("bismarck")(work)
    (work / "bismarck.py").rename(work / "Bismarck.py")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    from workflow_support import published

    course = published(tmp_path_factory.mktemp("fb") / "course", ["late", "broken", "renamed"],
                       variations=("bismarck",))
    push(course, "late", at(30))  # 2 days late: 20 % off
    push(course, "broken", at(-1), simulate.write_rules("bismarck", "def deal(self:\n    pass\n"))
    push(course, "renamed", at(-1), renamed)
    collect.collect(course, clock=lambda: at(48))
    report = grade_class(course, jobs=2, grader="sandbox")
    assert not report.failed, report.failed
    _, rows = export.export_csv(course)
    return course, {row.student: row for row in rows}


def test_the_feedback_says_the_late_penalty_and_the_final_grade_the_gradebook_records(graded):
    course, rows = graded
    late = rows["late"]
    assert late.raw_score == 100 and late.score == pytest.approx(80)  # the recorded grade
    folder = course.feedback_dir / "late"
    markdown = (folder / "feedback.md").read_text(encoding="utf-8")
    assert "**Total: 100 / 100**" in markdown
    assert "Late: 2 days, 20 % of the earned points off: -20. Final grade: 80 / 100" in markdown
    page = (folder / "feedback.html").read_text(encoding="utf-8")
    assert "Final grade</dt><dd class=\"final\">80 / 100 points" in page and "&minus;20 points" in page
    model = json.loads((folder / "feedback.json").read_text(encoding="utf-8"))
    assert model["late"]["final"] == pytest.approx(late.score)
    # the grading run's own files know nothing of the deadline: only the course's copy has it
    assert "Final grade" not in next((course.work_dir / "grading" / "late").rglob("feedback.md")).read_text()


def test_an_on_time_submission_says_so(graded):
    course, _ = graded
    markdown = (course.feedback_dir / "broken" / "feedback.md").read_text(encoding="utf-8")
    assert "On time, no late penalty. Final grade: 0 / 100" in markdown


def test_grades_csv_says_why_a_student_got_nothing(graded):
    course, rows = graded
    assert {s: r.grading_status for s, r in rows.items()} == {
        "late": "ok", "broken": "syntax-error", "renamed": "missing-file"}
    with course.grades_path.open(encoding="utf-8") as handle:
        written = {row["id"]: row for row in csv.DictReader(handle)}
    assert written["broken"]["grading_status"] == "syntax-error" and written["broken"]["status"] == "ok"
    markdown = (course.feedback_dir / "renamed" / "feedback.md").read_text(encoding="utf-8")
    assert "no file bismarck.py" in markdown and "`Bismarck.py`" in markdown
    broken = (course.feedback_dir / "broken" / "feedback.md").read_text(encoding="utf-8")
    assert broken.count("syntax error at line 1") == 1
