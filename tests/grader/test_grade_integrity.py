"""The grade itself: what a bug costs, what constant answers and cheats earn, what a hang costs.

Every submission here is graded through the real path (``grade_submission``,
the hidden suite in a subprocess, the sandboxed worker), as a student's would be.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from grader import check_suite, mutants
from grader.grade import grade_submission, sandbox_available

pytestmark = pytest.mark.skipif(not sandbox_available(), reason="the sandbox is not available")

REFERENCE = Path(__file__).resolve().parents[2] / "reference"

# Spies on the worker's own protocol loop (the submission runs in that process): the last
# state the grader sent, and the requests of the batch being answered.
SPY = '''
from solitaire import protocol as _protocol
from solitaire.state import parse_state as _parse_state

_SEEN = {"state": None, "batch": []}
_dispatch = _protocol.Session._dispatch


def _spy(self, request):
    if request.get("op") == "load":
        _SEEN["state"] = request["state"]
    return _dispatch(self, request)


_handle = _protocol.Session.handle


def _spy_batch(self, request):
    if isinstance(request, dict) and request.get("op") == "batch":
        _SEEN["batch"] = [r for r in request.get("requests", []) if isinstance(r, dict)]
    return _handle(self, request)


_protocol.Session._dispatch = _spy
_protocol.Session.handle = _spy_batch


def _copy_last(state):
    if _SEEN["state"] is not None:
        seen = _parse_state(_SEEN["state"])
        state.phase, state.counters, state.piles = seen.phase, dict(seen.counters), dict(seen.piles)
'''


def _rules(name: str, bodies: dict[str, str], spy: bool = False) -> str:
    """The reference of ``name`` with the solution regions of ``bodies`` replaced."""
    _, source = mutants.reference_source(name)
    for method, body in bodies.items():
        source = check_suite.replace_region(source, method, body)
    if spy:
        head, sep, rest = source.partition("\nclass ")
        source = head + "\n" + SPY + sep + rest
    return source


def _grade(tmp_path: Path, name: str, text: str, tag: str) -> dict:
    submission = tmp_path / tag
    submission.mkdir()
    (submission / f"{name}.py").write_text(text, encoding="utf-8")
    return grade_submission(submission, name, tmp_path / f"{tag}-out", worker="sandbox")


def _method_scores(results: dict) -> dict[str, list[float]]:
    return results["extra_data"]["methods"]


def test_copying_the_last_state_sent_earns_nothing(tmp_path):
    """A submission that hands back whatever state the grader last sent it (the resync) scores 0
    in deal, apply_special and after_move: every trace starts in a fresh worker, and a resync
    answers only questions already asked."""
    copy = "_copy_last(state)"
    text = _rules("scorpion", {"deal": copy, "apply_special": copy, "after_move": copy}, spy=True)
    results = _grade(tmp_path, "scorpion", text, "copycat")
    scores = _method_scores(results)
    for method in ("deal", "apply_special", "after_move"):
        assert scores[method][0] == 0, (method, scores[method])
    assert scores["can_pick_up"][0] == scores["can_pick_up"][1]  # the rest is the reference


def _constant_file(name: str, lookahead: bool) -> str:
    """No rule implemented: every answer a constant; with ``lookahead``, answers read off the
    batch being answered (an accept question or an apply for those cards means yes)."""
    if not lookahead:
        bodies = {m: "return False" for m in ("can_pick_up", "foundation_accepts", "tableau_accepts",
                                               "space_accepts", "is_won")}
        bodies["special_moves"] = "return []"
    else:
        batch = '[r for r in _SEEN["batch"]]'
        bodies = {
            "can_pick_up": f"return any(r.get('op') == 'call' and r.get('method', '').endswith('_accepts') "
                           f"and r['args'][2] == pile and len(r['args'][1]) == count for r in {batch})",
            "special_moves": f"return sorted({{r['move'] for r in {batch} "
                             f"if r.get('op') in ('legal', 'apply') "
                             f"and r.get('move') in ('deal', 'redeal', 's>w')}})",
            "is_won": "return False",
        }
        for method in ("foundation_accepts", "tableau_accepts", "space_accepts"):
            bodies[method] = (f"return any(r.get('op') == 'apply' "
                              f"and r.get('move', '').split('>')[-1] == pile for r in {batch})")
    for method in ("deal", "apply_special", "after_move"):
        bodies[method] = "return None"
    return _rules(name, bodies, spy=True)


@pytest.mark.parametrize("name", ["scorpion", "napoleons_square"])
def test_reading_the_batch_earns_nothing_more(tmp_path, name):
    plain = _grade(tmp_path, name, _constant_file(name, lookahead=False), "plain")
    peeking = _grade(tmp_path, name, _constant_file(name, lookahead=True), "peeking")
    assert peeking["score"] <= plain["score"], (plain["score"], peeking["score"])
    assert plain["score"] <= 10


@pytest.mark.parametrize("constant", ["True", "False", "None"])
def test_constant_answers_score_at_most_ten(tmp_path, constant):
    """A file that implements no rule and answers every question with one constant."""
    name = "napoleons_square"
    bodies = {m: f"return {constant}" for m in ("can_pick_up", "foundation_accepts", "tableau_accepts",
                                                 "space_accepts", "is_won")}
    bodies.update({"special_moves": "return []" if constant == "False" else f"return {constant}",
                   "deal": "return None", "apply_special": "return None", "after_move": "return None"})
    results = _grade(tmp_path, name, _rules(name, bodies), constant)
    assert results["score"] <= 10, results["extra_data"]["methods"]


def test_a_method_that_hangs_costs_its_own_points_only_and_little_time(tmp_path):
    text = _rules("scorpion", {"is_won": "while True:\n    pass"})
    started = time.monotonic()
    results = _grade(tmp_path, "scorpion", text, "hang")
    seconds = time.monotonic() - started
    scores = _method_scores(results)
    assert scores["is_won"][0] == 0
    assert all(got == most for method, (got, most) in scores.items() if method != "is_won"), scores
    assert seconds < 30, seconds
    feedback = (tmp_path / "hang-out" / "feedback.md").read_text(encoding="utf-8")
    assert "is_won" in feedback and "not asked again" in feedback


def test_a_rare_bug_costs_a_whole_test(tmp_path):
    """Napoleon's Square with same-suit runs moving as a unit (against N5): today's first
    grader took 0.39 points for it; now it fails the tests whose checks show it."""
    runs = ("cards = state[pile].cards[-count:]\n"
            "kind = self.kind(pile)\n"
            "run = all(a.suit == b.suit and a.rank == b.rank + 1 for a, b in zip(cards, cards[1:]))\n"
            "return (count == 1 or kind == TABLEAU and run) and (\n"
            "    kind in (TABLEAU, WASTE) or (kind == STOCK and state.phase == PLAY))")
    text = _rules("napoleons_square", {"can_pick_up": runs})
    results = _grade(tmp_path, "napoleons_square", text, "runs")
    got, most = _method_scores(results)["can_pick_up"]
    assert got <= 0.8 * most, (got, most)
    others = {m: v for m, v in _method_scores(results).items() if m != "can_pick_up"}
    assert all(g == m for g, m in others.values()), others
    failed = [t for t in results["tests"] if t["status"] == "failed"]
    assert failed and all("can_pick_up" in t["tags"] for t in failed)
    assert all(t["tags"][1] for t in failed) and json.dumps(results)
