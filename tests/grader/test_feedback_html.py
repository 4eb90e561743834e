"""feedback.html and feedback.md from one model: boards as cards, differing piles marked, escaping,
the late penalty, and the status of a rules file that could not be used."""

from __future__ import annotations

import html
import json
import re
import types

import pytest

from grader import feedback_model, feedback_render, load_status
from grader.course import export, feedback_files
from grader.course.collect import Collected
from grader.grade import grade_in_process
from grader.traces.build import reference_variation


@pytest.fixture(scope="module")
def buggy_model(traces_of):
    """Scorpion with two bugs: packing ignores the suit; no automatic effect after a move."""
    base = type(reference_variation("scorpion"))

    class Bug(base):
        def tableau_accepts(self, state, pile, cards, source):
            top = state.top(pile)
            return top is not None and top.rank == cards[0].rank + 1

        def after_move(self, state, move):
            return None

    scores = grade_in_process(Bug(), "scorpion", traces_of("scorpion"))
    return feedback_model.build("Scorpion", "scorpion.py", "scorpion", scores, "first_failure")


def failing(model):
    return [t for m in model["methods"] for t in m["tests"] if not t["ok"]]


def test_html_and_markdown_show_the_same_tests_and_total(buggy_model):
    page, text = feedback_render.html(buggy_model), feedback_render.markdown(buggy_model)
    assert f"**Total: {buggy_model['total']:g} / 100**" in text
    assert f"<dt>Total</dt><dd class=\"final\">{buggy_model['total']:g} / 100 points</dd>" in page
    tests = failing(buggy_model)
    assert tests and all(t["failure"] for t in tests)
    for test in tests:
        assert f"### FAILED {test['title']}" in text
        assert f"<summary><h3>FAILED {test['title']}</h3></summary>" in html.unescape(page)
    # every failing test has its board drawn, once before the check, and twice more when states differ
    compared = sum(1 for t in tests if t["failure"]["compare"])
    assert page.count('<figure class="board"') == len(tests) + 2 * compared
    assert page.count("<details class=\"test\" open") == len(tests)
    assert page.count("python -m solitaire play scorpion --state board.txt") == len(tests)


def test_cards_carry_rank_symbol_and_letter_and_face_down_cards_are_backs(buggy_model):
    page = feedback_render.html(buggy_model)
    faces = re.findall(r'<span class="card (red|black)" role="img" aria-label="([^"]+)">'
                       r'<span class="rank">([^<]+)</span><span class="sym">(.)</span>'
                       r'<span class="letter">([CDHS])</span></span>', page)
    assert faces
    for colour, label, rank, symbol, letter in faces:
        assert feedback_model.SUIT_SYMBOLS[letter] == symbol
        assert f"({'T' if rank == '10' else rank}{letter})" in label
        assert (colour == "red") == (letter in "DH")
    backs = re.findall(r'<span class="card back"([^>]*)>(.*?)</span></span>', page)
    assert backs and all(attrs == ' role="img" aria-label="face-down card"' for attrs, _ in backs)
    assert {inner for _, inner in backs} == {'<span aria-hidden="true">##'}
    assert page.count('class="card ') == len(faces) + len(backs)  # no other kind of card


def test_differing_piles_are_outlined_and_labelled(buggy_model):
    effects = next(t["failure"] for t in failing(buggy_model)
                   if t["failure"]["compare"] and t["failure"]["compare"]["differing"])
    want, got = effects["compare"]["expected"], effects["compare"]["actual"]
    marked = [p["name"] for p in want["piles"] if p["differs"]]
    assert marked == effects["compare"]["differing"] == [p["name"] for p in got["piles"] if p["differs"]]
    page = feedback_render.html(buggy_model)
    for name in marked:
        pile = rf'<div class="pile differs" role="group" aria-label="pile {name}: \d+ cards?, differs">'
        assert re.search(pile, page)
    assert "&#8800; differs" in page  # a visible mark, not colour alone


def test_the_page_is_self_contained_and_printable(buggy_model):
    page = feedback_render.html(buggy_model)
    for needle in ("http://", "https://", "<script", "<link", "@import", "url(", " src=", "<img"):
        assert needle not in page
    assert "@media print" in page and '<html lang="en">' in page and "<h1>" in page
    assert "default-src 'none'" in page


def test_what_a_submission_produced_is_escaped_in_both_formats():
    check = {"trace": "t", "step": 3, "subject": "can_pick_up(t1, 1) <img src=x onerror=alert(1)>",
             "kind": "probe", "move": "t1>t2", "expected": True, "actual": "<script>alert(1)</script>",
             "message": "boom \x1b[31m</code><script>x()</script> `tick`", "before": None}
    item = {"id": "deal/S1", "title": "deal · S1: x", "ruling": "S1", "sentence": "x",
            "about": "Ruling S1: x", "score": 0, "max_score": 5, "passed": 0, "total": 1, "ok": False,
            "status": "failed",
            "failure": feedback_model.failure(check)}
    model = {"version": 1, "title": "T", "rules_file": "t.py", "variation": "scorpion",
             "level": "first_failure", "status": "ok", "headline": feedback_model.note("Bad:", "<b>x</b>"),
             "not_run": False, "notes": [], "total": 0, "maximum": 5, "late": None, "reading_guide": "",
             "methods": [{"method": "deal", "title": "deal", "score": 0, "max_score": 5, "passed": 0,
                          "count": 1, "tests": [item]}]}
    page = feedback_render.html(model)
    assert "<script" not in page and "<img" not in page and "<b>x" not in page
    assert "&lt;script&gt;" in page and "\\x1b" in page and "\x1b" not in page
    text = feedback_render.markdown(model)
    assert "\x1b" not in text  # in Markdown, the submission's text sits in code spans, where nothing renders
    assert "What went wrong: `` boom \\x1b[31m</code><script>x()</script> `tick` ``" in text
    assert "Expected: `True`; your code: `<script>alert(1)</script>`" in text


def test_the_course_copy_says_the_late_penalty_and_the_final_grade(buggy_model, tmp_path):
    out, target = tmp_path / "run", tmp_path / "feedback" / "ada"
    out.mkdir()
    feedback_render.write(out, buggy_model)
    (out / "results.json").write_text('{"score": 1}', encoding="utf-8")
    raw = buggy_model["total"]
    row = Collected("ada", "scorpion", "late", days_late=2, penalty_percent=20.0)
    feedback_files.publish(out, target, row, raw, round(raw * 0.2, 4))
    final = f"{raw - round(raw * 0.2, 4):g}"
    text = (target / "feedback.md").read_text(encoding="utf-8")
    assert f"Late: 2 days, 20 % of the earned points off: -{raw * 0.2:g}. Final grade: {final} / 100" in text
    page = (target / "feedback.html").read_text(encoding="utf-8")
    assert f'<dt>Final grade</dt><dd class="final">{final} / 100 points</dd>' in page
    assert json.loads((target / "feedback.json").read_text())["late"]["final"] == float(final)
    assert (target / "results.json").read_text() == '{"score": 1}'
    assert "Final grade" not in (out / "feedback.md").read_text()  # the run's own files stay as graded


def test_a_run_without_a_model_has_its_markdown_copied(tmp_path):
    out, target = tmp_path / "run", tmp_path / "ada"
    out.mkdir()
    (out / "feedback.md").write_text("old grader\n", encoding="utf-8")
    feedback_files.publish(out, target, Collected("ada", "scorpion", "ok"), 10.0, 0.0)
    assert (target / "feedback.md").read_text() == "old grader\n" and not (target / "feedback.html").exists()


def test_grades_csv_reads_the_grading_status_from_results_json(tmp_path):
    course = types.SimpleNamespace(feedback_dir=tmp_path)
    (tmp_path / "ada").mkdir()
    (tmp_path / "ada" / "results.json").write_text('{"extra_data": {"status": "syntax-error"}}')
    (tmp_path / "bob").mkdir()
    (tmp_path / "bob" / "results.json").write_text("not json")
    assert export.grading_status(course, "ada") == "syntax-error"
    assert export.grading_status(course, "bob") == export.grading_status(course, "cy") == ""
    assert "grading_status" in export.GRADES_COLUMNS


def test_a_missing_file_headline_names_the_python_files_found(tmp_path):
    for name in ("Scorpion.py", "notes.txt", "test_mine.py"):
        (tmp_path / name).write_text("")
    headline = load_status.missing_file_headline(tmp_path, "scorpion.py")
    assert "no file scorpion.py" in headline["text"] and headline["detail"] == "Scorpion.py, test_mine.py"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no .py file was found" in load_status.missing_file_headline(empty, "scorpion.py")["text"]
    (empty / "scorpion.py").symlink_to(tmp_path / "Scorpion.py")
    assert "symbolic link" in load_status.missing_file_headline(empty, "scorpion.py")["text"]


@pytest.mark.parametrize(("error", "message", "status", "says"), [
    ("SyntaxError", "scorpion.py has a syntax error (line 7): invalid syntax", "syntax-error",
     "it has a syntax error at line 7."),
    ("IndentationError", "scorpion.py has a syntax error (line 2): expected an indented block",
     "syntax-error", "syntax error at line 2"),
    ("ModuleNotFoundError",
     "scorpion.py could not be loaded (line 1): ModuleNotFoundError: No module named 'x'", "import-error",
     "an import in it failed at line 1."),
    ("UnknownVariation", "scorpion must define exactly one Variation subclass, found 0", "no-variation-class",
     "it defines no Variation class"),
    ("UnknownVariation", "scorpion must define exactly one Variation subclass, found 2", "no-variation-class",
     "it defines 2 Variation classes, where exactly one is expected"),
    ("ZeroDivisionError", "scorpion.py could not be loaded (line 4): ZeroDivisionError", "load-error",
     "loading it raised an error at line 4."),
])
def test_a_load_failure_gets_its_status_and_one_sentence(error, message, status, says):
    found, headline = load_status.headline_for_load("scorpion.py", {"error": error, "message": message})
    assert found == status and found in load_status.STATUSES
    start = "Your rules file scorpion.py could not be used, so no rule was tested: "
    assert headline["text"].startswith(start)
    assert says in headline["text"] and headline["detail"] == message


def test_a_not_run_feedback_says_its_headline_once_in_both_formats(buggy_model):
    headline = feedback_model.note("Your rules file scorpion.py could not be used, so no rule was tested: "
                                   "it has a syntax error at line 3.", "scorpion.py has a syntax error")
    model = {**buggy_model, "headline": headline, "not_run": True, "status": "syntax-error"}
    text, page = feedback_render.markdown(model), feedback_render.html(model)
    assert text.count("could not be used") == 1 and page.count("could not be used") == 1
    assert "### FAILED" not in text and "<details" not in page and '<figure class="board"' not in page
    assert '<p class="headline" role="alert">' in page


@pytest.mark.parametrize(("text", "status"), [
    (None, "missing-file"), ("def deal(self:\n", "syntax-error"), ("x = 1\n", "no-variation-class"),
    ("from solitaire.variation import Variation\n\nclass S(Variation):\n    pass\n", "ok"),
])
def test_the_static_grader_names_the_same_statuses(tmp_path, text, status):
    from grader.course.graders import static_grade

    (tmp_path / "sub").mkdir()
    if text is not None:
        (tmp_path / "sub" / "scorpion.py").write_text(text, encoding="utf-8")
    results = static_grade(tmp_path / "sub", "scorpion", tmp_path / "out", 10.0)
    assert results["extra_data"]["status"] == status


def test_writing_the_gradebook_again_renders_the_feedback_with_the_penalty_recorded(buggy_model, tmp_path):
    """A stored result written again after the late policy changed: its feedback follows the gradebook."""
    from grader.course.grade_class import ClassGrader, GradebookWrites, GradeReport
    from grader.course.results import Key, Result

    run = tmp_path / "grading" / "ada" / "run"
    run.mkdir(parents=True)
    feedback_render.write(run, buggy_model)
    course = types.SimpleNamespace(points={}, feedback_dir=tmp_path / "feedback")
    points = {m["method"]: m["max_score"] for m in buggy_model["methods"]}
    categories = {m["method"]: (m["score"], m["max_score"]) for m in buggy_model["methods"]}
    result = Result(Key("ada", "a1", "f" * 40, "v"), "scorpion", buggy_model["total"], 100.0, categories, {},
                    str(run / "feedback.md"), "", "", 0.0)
    row = Collected("ada", "scorpion", "late", "f" * 40, "2030-01-02T00:00:00+00:00", days_late=3,
                    penalty_percent=30.0)
    recorded = []
    gradebook = types.SimpleNamespace(record=lambda *values: recorded.append(values))
    grader = ClassGrader(course, "static")  # type: ignore[arg-type]
    assert sum(points.values()) == 100
    written = grader._write_all(gradebook, GradebookWrites([], [], [(row, result)], ""), GradeReport())
    assert written and len(recorded) == 1
    penalty = recorded[0][4]
    final = f"{buggy_model['total'] - penalty:g}"
    text = (course.feedback_dir / "ada" / "feedback.md").read_text(encoding="utf-8")
    assert f"Late: 3 days, 30 % of the earned points off: -{penalty:g}. Final grade: {final} / 100" in text
