"""feedback.html of a real graded buggy submission, opened in headless Chromium.

The submission is the demo's ``bug-tableau`` student (one comparison of
``tableau_accepts`` flipped) that also forgets to turn up a face-down card in
``after_move``, graded by the real grader. The rendered page must draw every
board of every failing test, log no console error, fetch nothing, and print.

``SOLITAIRE_SCREENSHOTS=1`` also writes the screenshots shown in docs/grading.md
(docs/images/feedback.png, docs/images/feedback-compare.png).
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import pytest
from chromium import SKIP_REASON, available, render

from grader import feedback_model, feedback_render
from grader.course import simulate
from grader.grade import grade_submission, sandbox_available

pytestmark = pytest.mark.skipif(not available(), reason=SKIP_REASON)
DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "images"
CHECKS = {
    "boards": "document.querySelectorAll('figure.board').length",
    "empty_boards": "[...document.querySelectorAll('figure.board')]"
                    ".filter(b => !b.querySelector('.pile')).length",
    "cards": "document.querySelectorAll('.card').length",
    "backs": "document.querySelectorAll('.card.back').length",
    "unlabelled": "[...document.querySelectorAll('.card')].filter(c => !c.getAttribute('aria-label')).length",
    "undrawn": "[...document.querySelectorAll('.card')].filter(c => { const r = c.getBoundingClientRect();"
               " return r.width < 10 || r.height < 10; }).length",
    "details_open": "[...document.querySelectorAll('details.test')].filter(d => d.open).length",
    "summaries": "document.querySelectorAll('details.test > summary h3').length",
    "h1": "document.querySelectorAll('h1').length",
    "differs_unflagged": "[...document.querySelectorAll('.pile.differs')]"
                         ".filter(p => !p.querySelector('.flag')).length",
    "differs": "document.querySelectorAll('.pile.differs').length",
    "commands": "[...document.querySelectorAll('pre.command')].map(p => p.textContent)",
}


def buggy_rules() -> str:
    text, what = simulate.mutate("scorpion", ["tableau_accepts"], [(" == ", " != ")])
    assert what == "tableau_accepts: '==' became '!='"
    assert "changed |= state.turn_up(column)" in text
    return text.replace("changed |= state.turn_up(column)", "pass  # forgot to turn the card up", 1)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser")
    (root / "sub").mkdir()
    (root / "sub" / "scorpion.py").write_text(buggy_rules(), encoding="utf-8")
    worker = "sandbox" if sandbox_available() else "local"
    grade_submission(root / "sub", "scorpion", root / "out", worker=worker)
    model = json.loads((root / "out" / "feedback.json").read_text(encoding="utf-8"))
    return root / "out", model


def expected_drawing(model):
    """(boards, cards, backs) the page must draw: per failing test, the board before its check, and
    the expected and actual boards when states differ."""
    boards = []
    for method in model["methods"]:
        for test in method["tests"]:
            failure = test["failure"]
            if test["ok"] or not failure:
                continue
            boards += [failure["board"]] if failure["board"] else []
            if failure["compare"]:
                boards += [failure["compare"]["expected"], failure["compare"]["actual"]]
    cards = [c for b in boards for p in b["piles"] for c in p["cards"]]
    return len(boards), len(cards), sum(c["down"] for c in cards)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_every_board_is_drawn_with_no_console_error_and_no_request(graded, tmp_path):
    out, model = graded
    failing = [t for m in model["methods"] for t in m["tests"] if not t["ok"]]
    assert {t["id"].split("/")[0] for t in failing} == {"tableau_accepts", "after_move"}
    boards, cards, backs = expected_drawing(model)
    assert boards >= len(failing) and backs > 0

    page = render(out / "feedback.html", evaluate=CHECKS, pdf=True)
    assert page.console_errors == []
    assert page.requests == []
    values = page.values
    assert values["boards"] == boards and values["empty_boards"] == 0
    assert values["cards"] == cards and values["backs"] == backs
    assert values["unlabelled"] == 0 and values["undrawn"] == 0
    assert values["details_open"] == values["summaries"] == len(failing)
    assert values["h1"] == 1
    assert values["differs"] > 0 and values["differs_unflagged"] == 0
    assert values["commands"] == ["python -m solitaire play scorpion --state board.txt"] * len(failing)
    assert "Final grade" not in page.dom  # graded outside a course: no deadline, no penalty
    width, height = png_size(page.screenshot)
    assert width == 1200 and height > 2000  # the whole page, not the first screen
    assert page.pdf.startswith(b"%PDF") and len(page.pdf) > 10_000
    (tmp_path / "feedback.png").write_bytes(page.screenshot)


def test_a_late_page_and_a_page_of_a_file_that_could_not_be_used(graded, tmp_path):
    _, model = graded
    late = tmp_path / "late"
    late.mkdir()
    penalty = round(model["total"] * 0.3, 4)
    feedback_render.write(late, feedback_model.with_late(model, 3, 30.0, model["total"], penalty))
    page = render(late / "feedback.html", evaluate={
        "grade": "[...document.querySelectorAll('.grade dt, .grade dd')].map(e => e.textContent)"})
    assert page.console_errors == [] and page.requests == []
    final = f"{model['total'] - penalty:g} / 100 points"
    assert page.values["grade"][-2:] == ["Final grade", final]

    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "scorpion.py").write_text("def deal(self:\n    pass\n", encoding="utf-8")
    grade_submission(tmp_path / "sub", "scorpion", tmp_path / "out", worker="local")
    page = render(tmp_path / "out" / "feedback.html", evaluate={
        "alert": "document.querySelector('[role=alert]').textContent",
        "details": "document.querySelectorAll('details').length",
        "boards": "document.querySelectorAll('figure.board').length"})
    assert page.console_errors == [] and page.requests == []
    assert "so no rule was tested: it has a syntax error at line 1." in page.values["alert"]
    assert page.values["details"] == page.values["boards"] == 0


@pytest.mark.skipif(not os.environ.get("SOLITAIRE_SCREENSHOTS"), reason="SOLITAIRE_SCREENSHOTS unset")
def test_update_the_screenshots_in_the_docs(graded, tmp_path):
    """The page as a student in a course gets it (late: 2 days, 20 %); and a failing check whose
    expected and actual boards differ."""
    _, model = graded
    penalty = round(model["total"] * 0.2, 4)
    feedback_render.write(tmp_path, feedback_model.with_late(model, 2, 20.0, model["total"], penalty))
    page = render(tmp_path / "feedback.html", width=1100, max_height=2000)
    compare = render(tmp_path / "feedback.html", width=1100, max_height=1500,
                     top="details.test:has(.compare .pile.differs)")
    for shot in (page, compare):
        assert shot.console_errors == [] and shot.requests == []
    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    (DOCS_SHOTS / "feedback.png").write_bytes(page.screenshot)
    (DOCS_SHOTS / "feedback-compare.png").write_bytes(compare.screenshot)
