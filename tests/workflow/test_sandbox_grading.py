"""course grade through the real sandboxed grader (grader/grade.py): what the static check cannot see.

Scorpion only: a reference solution gets full marks; one flipped comparison
loses points in its category; the untouched starter and a cheat (a forged
results.json in the repo, an attack at import, ``os._exit(0)`` in ``deal``) get nothing.
"""

from __future__ import annotations

import json

import pytest
from workflow_support import at, notes, push

from grader.course import collect, export, simulate
from grader.course.demo import cheat_verdict
from grader.course.grade_class import grade_class
from grader.course.points import category_points

pytestmark = pytest.mark.skipif(not simulate.reference_text("scorpion"), reason="no Scorpion reference")


def test_real_grader_scores_reference_bug_starter_and_cheat(published_course):
    course = published_course(["ref", "bug", "starter", "cheat"], variations=("scorpion",))
    push(course, "ref", at(-3))
    text, what = simulate.mutate("scorpion", ["tableau_accepts"], [(" == ", " != ")])
    assert what == "tableau_accepts: '==' became '!='"
    push(course, "bug", at(-3), simulate.write_rules("scorpion", text))
    push(course, "starter", at(-3), notes("todo"))
    push(course, "cheat", at(-3), simulate.cheat("scorpion"))
    collect.collect(course, clock=lambda: at(1))

    report = grade_class(course, jobs=2, grader="sandbox")
    assert not report.failed, report.failed
    assert report.graded and all(key.grader_version.startswith("sandbox-") for key in report.graded)

    _, rows = export.export_csv(course)
    score = {row.student: row.score for row in rows}
    full = sum(category_points("scorpion").values())
    assert score["ref"] == full
    assert 0 < score["bug"] < full
    assert score["starter"] == 0
    assert score["cheat"] == 0
    results = json.loads((course.feedback_dir / "bug" / "results.json").read_text())
    lost = {t["tags"][0] for t in results["tests"] if t["score"] < t["max_score"]}
    assert "tableau_accepts" in lost
    assert "tableau_accepts" in (course.feedback_dir / "bug" / "feedback.md").read_text()
    # the cheat ran: its exit in deal is what the grader reports, and the demo's line says so
    assert "(exit status 0)" in (course.feedback_dir / "cheat" / "feedback.md").read_text()
    line = cheat_verdict(course, "cheat", score["cheat"], full)
    assert line.startswith(f"cheat cheat tried to {simulate.CHEAT_TRIED}: stopped, scored 0 / {full:g}")
    assert "(exit status 0)" in line and "\n" not in line
