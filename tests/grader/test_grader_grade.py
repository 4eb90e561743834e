"""Grading a submission: results.json in Gradescope's format, feedback.md, the CLI."""

import json
import subprocess
import sys

import pytest

from grader import catalog
from grader.feedback import describe_failure, feedback_markdown, rule_test_output, table_view, why
from grader.grade import grade_in_process, grade_submission, sandbox_available
from grader.mutants import reference_source
from grader.rubric import Rubric, RuleTest
from grader.scoring import results_json, score_tests
from grader.traces.build import reference_variation

VISIBILITIES = {"visible", "hidden", "after_due_date", "after_published"}


def check_gradescope(results, variation):
    """The fields and types Gradescope reads from results.json."""
    assert isinstance(results["score"], (int, float))
    assert isinstance(results["execution_time"], (int, float))
    assert isinstance(results["output"], str)
    assert results["visibility"] in VISIBILITIES
    tests = results["tests"]
    methods = list(dict.fromkeys(t["tags"][0] for t in tests))
    assert methods == list(catalog.points(variation))  # every method, grouped, in catalog order
    for test in tests:
        group = str(methods.index(test["tags"][0]) + 1)
        assert len(test["tags"]) == 2 and test["number"].split(".")[0] == group
        assert isinstance(test["name"], str) and test["name"]
        assert isinstance(test["score"], (int, float)) and isinstance(test["max_score"], (int, float))
        assert 0 <= test["score"] <= test["max_score"]
        assert isinstance(test["output"], str)
        assert test["visibility"] in VISIBILITIES
        assert test["status"] in ("passed", "failed")
    assert results["score"] == pytest.approx(sum(t["score"] for t in tests))


@pytest.fixture(scope="module")
def graded_reference(tmp_path_factory):
    root = tmp_path_factory.mktemp("reference")
    (root / "sub").mkdir()
    (root / "sub" / "bismarck.py").write_text(reference_source("bismarck")[1], encoding="utf-8")
    out = root / "out"
    out.mkdir()  # an existing empty directory is fine
    return grade_submission(root / "sub", "bismarck", out, worker="local"), out


def test_the_reference_gets_full_marks_through_the_suite_subprocess(graded_reference):
    results, out = graded_reference
    check_gradescope(results, "bismarck")
    assert results["score"] == catalog.entry("bismarck").total
    assert all(t["status"] == "passed" for t in results["tests"])
    written = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert written == results
    assert "Total: 100 / 100" in (out / "feedback.md").read_text(encoding="utf-8")


def test_a_missing_rules_file_scores_zero_with_a_reason(tmp_path):
    (tmp_path / "sub").mkdir()
    results = grade_submission(tmp_path / "sub", "scorpion", tmp_path / "out", worker="local")
    check_gradescope(results, "scorpion")
    assert results["score"] == 0
    assert "no file scorpion.py" in results["output"]


def test_out_must_be_new_or_empty(tmp_path):
    from solitaire.errors import UserError

    (tmp_path / "sub").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "old.txt").write_text("x")
    with pytest.raises(UserError, match="not empty"):
        grade_submission(tmp_path / "sub", "scorpion", tmp_path / "out", worker="local")
    with pytest.raises(UserError, match="no variation 'klondike'"):
        grade_submission(tmp_path / "sub", "klondike", tmp_path / "out2", worker="local")


@pytest.mark.skipif(not sandbox_available(), reason="the sandbox is not installed")
def test_the_starter_scores_zero_in_the_sandbox(tmp_path):
    from grader.check_suite import ROOT, stub_source

    starter = ROOT / "starter" / "scorpion.py"
    text = starter.read_text() if starter.is_file() else stub_source(reference_source("scorpion")[1])
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "scorpion.py").write_text(text, encoding="utf-8")
    results = grade_submission(tmp_path / "sub", "scorpion", tmp_path / "out")
    check_gradescope(results, "scorpion")
    assert results["score"] == 0 and results["extra_data"]["worker"] == "sandbox"
    feedback = (tmp_path / "out" / "feedback.md").read_text(encoding="utf-8")
    assert "raised NotImplementedError in deal" in feedback


def test_feedback_shows_one_example_the_board_the_move_and_expected_vs_actual(traces_of):
    base = type(reference_variation("scorpion"))

    class Bug(base):
        def tableau_accepts(self, state, pile, cards, source):
            top = state.top(pile)
            return top is not None and top.rank == cards[0].rank + 1  # forgets the suit

    scores = grade_in_process(Bug(), "scorpion", traces_of("scorpion"))
    method = next(s for s in scores if s.method == "tableau_accepts")
    item = next(t for t in method.tests if not t.ok)
    text = rule_test_output(item, "first_failure", "scorpion")
    assert f"Ruling {item.test.ruling}:" in text or "Random play" in text
    assert "First failing check" in text and "Board before it" in text and "scorpion moves=" in text
    assert "Expected: `" in text and "; your code: `" in text
    assert "tableau_accepts(" in text and "should return False" in text
    assert "python -m solitaire play scorpion --state board.txt" in text
    assert text.count("```") == 4  # one board shown, and the same board to replay: one example only
    counts = rule_test_output(item, "counts", "scorpion")
    assert "Board" not in counts and "checks passed" in counts
    assert "checks" not in rule_test_output(item, "none", "scorpion")
    markdown = feedback_markdown("Scorpion", "scorpion.py", "scorpion", scores, "first_failure")
    assert "| tableau_accepts: what a pile takes | 1 / 2 |" in markdown or \
        "| tableau_accepts: what a pile takes | 0 / 2 |" in markdown
    assert "canonical state notation" in markdown


def _toy_rubric():
    tests = [RuleTest("deal", "S1", "deal it", ["a"], 10.0), RuleTest("is_won", "S6", "won", ["a"], 4.0),
             RuleTest("is_won", "play", "play", ["b"], 4.0),
             RuleTest("after_move", "play", "play", ["c"], 2.0)]
    cells = {("a", "deal"): "deal/S1", ("a", "is_won"): "is_won/S6", ("b", "is_won"): "is_won/play",
             ("c", "after_move"): "after_move/play"}
    return Rubric("toy", tests, cells)


def test_a_test_earns_its_points_only_when_every_check_passes():
    scores = score_tests(_toy_rubric(), {"a": {"deal": [3, 4], "is_won": [5, 5]}, "b": {"is_won": [9, 10]}})
    assert [(m.method, m.score) for m in scores] == [("deal", 0.0), ("is_won", 4.0), ("after_move", 0.0)]
    results = results_json(scores, {}, "summary", "after_due_date", 1.25)
    assert results["score"] == 4.0
    assert [t["number"] for t in results["tests"]] == ["1.1", "2.1", "2.2", "3.1"]
    assert [t["status"] for t in results["tests"]] == ["failed", "passed", "failed", "failed"]
    assert all(t["visibility"] == "after_due_date" for t in results["tests"])
    assert "Not tested" in rule_test_output(scores[2].tests[0], "first_failure", "toy")


def test_describe_failure_of_a_state_check():
    failure = {"trace": "t", "step": 4, "subject": "the state after deal (before automatic effects)",
               "expected": "a\n", "actual": "b\n", "message": "deal does not do what it should",
               "move": "deal", "before": "scorpion moves=runs\nphase play\n", "kind": "action"}
    text = describe_failure(failure, "scorpion")
    assert "Move: `deal`" in text and "step 4" in text and "Expected:" not in text


def test_the_board_hides_what_a_player_cannot_see():
    board = "scorpion moves=runs\nphase play\nt1: 4d 9c KS QS\nr: 2h 3h\nf1:\n"
    assert table_view(board).splitlines()[2:] == ["t1: ## ## KS QS", "r: ## ##", "f1:"]


def test_why_reads_a_reason_off_two_states():
    expected = "x\nphase play\nw:\ns: 2C 3C 4C\n"
    assert "reverse order" in why(expected, "x\nphase play\nw:\ns: 4C 3C 2C\n")
    assert "face up" in why("x\nphase play\nt1: 4d 5C\n", "x\nphase play\nt1: 4d 5c\n")
    assert why(True, False) == ""


def test_cli_grade_reports_a_user_error_in_one_line(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "x").write_text("x")
    process = subprocess.run(
        [sys.executable, "-m", "solitaire", "grade", str(tmp_path), "--variation", "scorpion",
         "--out", str(tmp_path / "out"), "--worker", "local"],
        capture_output=True, text=True, timeout=120,
    )
    assert process.returncode == 2
    assert process.stderr.strip().splitlines()[-1].startswith("solitaire: error: --out")
    assert "Traceback" not in process.stderr


def test_catalog_matches_the_references():
    assert catalog.problems() == []
    assert set(catalog.approved()) <= set(catalog.names())
    for name in catalog.names():
        assert catalog.entry(name).total == 100


def test_a_bad_catalog_is_reported(tmp_path):
    from solitaire.errors import UserError

    path = tmp_path / "catalog.toml"
    path.write_text('[grading]\nvisibility = "sometimes"\n[variations.scorpion.points]\ndeal = -1\n')
    with pytest.raises(UserError, match="visibility must be one of"):
        catalog.settings(path)
    with pytest.raises(UserError, match="must be a number >= 0"):
        catalog.entry("scorpion", path)
    with pytest.raises(LookupError):
        catalog.entry("klondike", path)


def test_points_are_split_in_hundredths_that_add_up():
    from grader.rubric import _share_points

    tests = [RuleTest("deal", r, "", [], 0.0) for r in ("A1", "A2", "play")]
    _share_points(tests, {"deal": 10})
    assert [t.points for t in tests] == [3.34, 3.33, 3.33] and round(sum(t.points for t in tests), 2) == 10


@pytest.mark.parametrize("worker", ["local", pytest.param("sandbox", marks=pytest.mark.skipif(
    not sandbox_available(), reason="the sandbox is not installed"))])
@pytest.mark.parametrize(("text", "status", "says"), [
    ("from solitaire.variation import Variation\nclass X(Variation:\n    pass\n", "syntax-error",
     "it has a syntax error at line 2."),
    ("\nimport no_such_module_here\n", "import-error", "an import in it failed"),
    ("x = 1\n", "no-variation-class", "it defines no Variation class"),
])
def test_a_file_that_cannot_be_loaded_is_said_once_with_its_status(tmp_path, text, status, says, worker):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "scorpion.py").write_text(text, encoding="utf-8")
    results = grade_submission(tmp_path / "sub", "scorpion", tmp_path / "out", worker=worker)
    assert results["score"] == 0 and results["extra_data"]["status"] == status
    assert all(t["output"] == "Not run: see the note at the top." for t in results["tests"])
    feedback = (tmp_path / "out" / "feedback.md").read_text(encoding="utf-8")
    assert feedback.count("could not be used, so no rule was tested") == 1 and feedback.count(says) == 1
    assert "First failing check" not in feedback and "Not tested" not in feedback
    page = (tmp_path / "out" / "feedback.html").read_text(encoding="utf-8")
    assert page.count("could not be used, so no rule was tested") == 1 and page.count(says) == 1
    assert "<details" not in page


def test_a_missing_file_is_said_once_and_never_contradicted(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "Scorpion.py").write_text("# misnamed\n", encoding="utf-8")
    results = grade_submission(tmp_path / "sub", "scorpion", tmp_path / "out", worker="local")
    assert results["extra_data"]["status"] == "missing-file"
    feedback = (tmp_path / "out" / "feedback.md").read_text(encoding="utf-8")
    assert feedback.count("no file scorpion.py") == 1 and "Not tested" not in feedback
    assert "the .py files found there are `Scorpion.py`" in feedback
    page = (tmp_path / "out" / "feedback.html").read_text(encoding="utf-8")
    assert page.count("no file scorpion.py") == 1 and "<code>Scorpion.py</code>" in page
