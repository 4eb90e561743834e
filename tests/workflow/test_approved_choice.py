"""A student's own choice from the seed collections, approved by the instructor, end to end:
assign honours it, publish builds that game's repo, grade grades it in the sandbox."""

from __future__ import annotations

import json

import pytest
from workflow_support import PUBLISHED_AT, at, new_course, push

from grader.course import assign, collect, export, publish
from grader.course.grade_class import grade_class
from grader.course.points import category_points


@pytest.mark.parametrize("game, prefix", [("maria", "MA"), ("pyramid", "PY")])
def test_an_approved_seed_001_game_is_assigned_published_and_graded(tmp_path, game, prefix):
    """Maria (a Forty Thieves game) and Pyramid (removals a+b to the discard pile)."""
    course = new_course(tmp_path / "course", ["ada", "bob"], variations=("scorpion",))
    course.approvals_path.write_text(f"id,variation\nada,{game}\n", encoding="utf-8")
    assign.run(course)
    chosen = {a.student: a.variation for a in assign.load_assignments(course)}
    assert chosen == {"ada": game, "bob": "scorpion"}
    report = publish.publish(course, clock=lambda: PUBLISHED_AT)
    assert not report.failed, report.failed
    push(course, "ada", at(-3))  # the reference solution of the chosen game
    push(course, "bob", at(-3))
    collect.collect(course, clock=lambda: at(1))
    graded = grade_class(course, jobs=2, grader="sandbox")
    assert not graded.failed, graded.failed
    _, rows = export.export_csv(course)
    score = {row.student: row.score for row in rows}
    assert score["ada"] == sum(category_points(game).values()) == 100
    results = json.loads((course.feedback_dir / "ada" / "results.json").read_text())
    assert results["extra_data"]["variation"] == game
    assert results["extra_data"]["sandbox_layer"] != "local"  # graded in the sandbox
    assert any(t["tags"][1].startswith(prefix) for t in results["tests"])  # by the game's own rulings
