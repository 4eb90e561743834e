"""The demo's case with the real sandboxed grader: one final score in the six places a grade appears
(feedback.md, feedback.html, results.json, grades.csv, nbgrader's gradebook and `nbgrader export`),
and a static dry run after a real grade changes nothing.

Before, `course grade --grader static --regrade` overwrote every student's
feedback with the structural check's results, which a later real run did not
restore (the demo's cheat's results.json said 100 while the gradebook said 0).
Scorpion only: ref (reference, on time), late (reference, 30 h late), cheat
(the hostile student), bug (one flipped comparison), never (no push). Slow (the real grader, ~1 min); the same
properties are checked with the static grader by test_grades_match.py and
test_dry_run.py in the default run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_dry_run import outputs
from test_grades_match import grades_csv, nbgrader_export
from workflow_support import at, push

from grader.course import collect, export, simulate
from grader.course.dry_run import dry_run
from grader.course.grade_class import grade_class
from grader.course.scores import final_grades

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not simulate.reference_text("scorpion"), reason="no Scorpion reference")]


def test_sandbox_grades_match_everywhere_and_a_static_dry_run_changes_nothing(published_course,
                                                                              tmp_path: Path) -> None:
    course = published_course(["ref", "late", "cheat", "bug", "never"], variations=("scorpion",))
    push(course, "ref", at(-3))
    push(course, "late", at(30))
    push(course, "cheat", at(-2), simulate.cheat("scorpion"))
    text, _ = simulate.mutate("scorpion", ["tableau_accepts"], [(" == ", " != ")])
    push(course, "bug", at(-1), simulate.write_rules("scorpion", text))
    collect.collect(course, clock=lambda: at(48))
    report = grade_class(course, jobs=2, grader="sandbox")
    assert not report.failed, report.failed
    export.export_csv(course)

    before = outputs(course)
    done = dry_run(course, jobs=2, grader="static")
    assert outputs(course) == before  # the real feedback, results, gradebook and grades.csv: same bytes
    dry = json.loads((done.directory / "feedback" / "bug" / "results.json").read_text(encoding="utf-8"))
    assert dry["final_score"] == 100  # the structural check cannot see the bug: only in the dry run

    grades, ours = final_grades(course), grades_csv(course)
    theirs = nbgrader_export(course, tmp_path / "nbgrader.csv")
    for student in ("ref", "late", "cheat", "bug"):
        results = json.loads((course.feedback_dir / student / "results.json").read_text(encoding="utf-8"))
        model = json.loads((course.feedback_dir / student / "feedback.json").read_text(encoding="utf-8"))
        finals = [grades[student].final, results["score"], results["final_score"],
                  float(ours[student]["score"]), float(theirs[student]["score"]), model["late"]["final"]]
        assert finals == pytest.approx([grades[student].final] * 6, abs=1e-6), student
        said = f"Final grade: {grades[student].final:g} / {grades[student].max_score:g}"
        assert said in (course.feedback_dir / student / "feedback.md").read_text(encoding="utf-8")
        assert f"{grades[student].final:g} / {grades[student].max_score:g} points" in (
            course.feedback_dir / student / "feedback.html").read_text(encoding="utf-8")
        assert float(theirs[student]["max_score"]) == results["max_score"] == 100
    assert grades["cheat"].final == 0 and grades["ref"].final == 100
    assert grades["late"].raw == 100 and grades["late"].final == 80
    assert 0 < grades["bug"].final < 100
