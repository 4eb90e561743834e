"""Replay: the reference passes its own traces; bugs cost their own method only; resync; hangs."""

import pytest

from grader import bugs, catalog
from grader.grade import grade_in_process, replay_all
from grader.traces.build import reference_variation
from solitaire.protocol import LocalWorker, Worker, WorkerError
from solitaire.replay import Replay, planned, replay

VARIATIONS = tuple(catalog.names())  # every variation of assignments/catalog.toml


@pytest.mark.parametrize("name", VARIATIONS)
def test_reference_passes_every_hidden_check(name, reference_scores, traces_of):
    scores = reference_scores(name)
    assert scores, name
    for method in scores:
        for item in method.tests:
            assert item.total > 0, f"{name}: no check exercises {item.test.id}"
            assert item.ok, f"{name}: {item.test.id}: {item.first_failure}"
        assert method.score == method.max_score
    expected = sum((planned(t) for t in traces_of(name)), start=planned({"start": {}, "steps": []}))
    counts = replay_all(traces_of(name), lambda: LocalWorker(reference_variation(name))).counts
    assert {c: total for c, (_, total) in counts.items()} == {c: n for c, n in expected.items() if n}


def _lost(scores):
    return {m.method for m in scores if m.score < m.max_score}


def buggy(name):
    """A subclass of the reference that breaks exactly one rule method, and that method."""
    base = type(reference_variation(name))

    if name == "scorpion":
        class Bug(base):
            def space_accepts(self, state, pile, cards, source):
                return cards[0].rank >= 12  # a queen too

        return Bug(), "space_accepts"
    if name == "napoleons_square":
        class Bug(base):
            def tableau_accepts(self, state, pile, cards, source):
                top = state.top(pile)
                return len(cards) == 1 and top is not None and top.rank == cards[0].rank + 1  # any suit

        return Bug(), "tableau_accepts"
    if name == "metternich":
        class Bug(base):
            def special_moves(self, state):
                moves = base.special_moves(self, state)
                if state.is_empty("s") and not moves:
                    return list(base.special_moves(self, _with_redeal(state)))  # a second redeal
                return moves

        return Bug(), "special_moves"
    if name == "bismarck":
        class Bug(base):
            def foundation_accepts(self, state, foundation, cards, source):
                top = state.top(foundation)
                card = cards[0]
                return top is not None and card.suit == top.suit and card.rank == top.rank + 1  # no wrap

        return Bug(), "foundation_accepts"
    if name == "indian":
        class Bug(base):
            def after_move(self, state, move):
                base.after_move(self, state, move)
                for column in self.piles("tableau"):
                    state.turn_up(column)
                    pile = state[column]
                    if pile.down:  # refilled columns get every card face up
                        state.set_pile(column, type(pile)(pile.cards, 0))

        return Bug(), "after_move"
    if name == "double_fives":
        class Bug(base):
            def apply_special(self, state, move):
                if str(move) == "deal":  # sweep the hand row right to left
                    for slot in reversed(self.piles("hand")):
                        if not state.is_empty(slot):
                            state.put("d", state.take(slot), face_up=False)
                base.apply_special(self, state, move)

        return Bug(), "apply_special"
    # the other games: the first bug of their realistic-bug catalog (grader/bugs/<name>.toml)
    bug = bugs.load(name)[0]
    return bugs.instantiate(bug), bug.method


def _with_redeal(state):
    copy = state.copy()
    copy.counters["redeals"] = 1
    return copy


@pytest.mark.parametrize("name", VARIATIONS)
def test_a_bug_costs_its_own_category_only(name, traces_of):
    variation, method = buggy(name)
    scores = grade_in_process(variation, name, traces_of(name))
    assert _lost(scores) == {method}
    lost = next(s for s in scores if s.method == method)
    assert lost.score <= 0.8 * lost.max_score  # a real bug costs a real share of its method
    failed = [t for t in lost.tests if not t.ok]
    assert all(t.first_failure["category"] == method and t.first_failure["message"] for t in failed)


def _long_trace(traces, category):
    return max((t for t in traces if planned(t)[category]), key=lambda t: len(t["steps"]))


def test_resync_a_wrong_effect_early_does_not_spoil_later_checks(traces_of):
    """Scorpion without turning up cards: after_move fails at its first turn-up, every
    other check of the trace (before and long after it) still passes."""
    base = type(reference_variation("scorpion"))

    class NoTurnUp(base):
        def after_move(self, state, move):
            saved = {c: state[c] for c in self.piles("tableau")}
            base.after_move(self, state, move)
            for column, before in saved.items():
                after = state[column]
                if before.cards == after.cards and after.down < before.down:
                    state.set_pile(column, before)

    trace = _long_trace([t for t in traces_of("scorpion") if t["name"].startswith("midgame")], "after_move")
    checks = list(replay(trace, LocalWorker(NoTurnUp())))
    failed = [c for c in checks if not c.ok]
    assert failed and {c.category for c in failed} == {"after_move"}
    first = min(c.step for c in failed)
    later = [c for c in checks if c.step is not None and c.step > first + 3 and c.category != "after_move"]
    assert len(later) > 20 and all(c.ok for c in later)


class FlakyWorker(Worker):
    """Times out on one request, answers like the reference otherwise."""

    def __init__(self, variation, fail_at):
        self.inner = LocalWorker(variation)
        self.count = 0
        self.fail_at = fail_at
        self.dead = False

    def request(self, message):
        self.count += 1
        if self.count == self.fail_at:
            self.dead = True
            raise WorkerError("timeout", "your code did not answer within 2 s")
        if self.dead and message.get("op") != "load":
            raise WorkerError("crashed", "the worker is gone")
        self.dead = False
        return self.inner.request(message)


def test_a_timeout_fails_its_method_and_the_replay_goes_on(traces_of):
    """The method that hung fails that check, is not asked again (its later checks fail at
    once, saying why), and every other method's checks still pass."""
    variation = reference_variation("scorpion")
    trace = _long_trace(traces_of("scorpion"), "can_pick_up")
    made = []

    def factory():
        made.append(FlakyWorker(variation, fail_at=40 if not made else 10**9))
        return made[-1]

    dead: set[str] = set()
    checks = list(Replay(trace, factory, dead=dead).checks())
    failed = [c for c in checks if not c.ok]
    assert failed and len(dead) == 1 and {c.category for c in failed} == dead
    assert all("did not answer within 2 s" in c.message or "not asked" in c.message for c in failed)
    assert len(made) == 2 and made[1].count > 0  # the worker was replaced, and the replay went on
    assert len(checks) == sum(planned(trace).values())


def test_an_exception_fails_its_check_with_a_readable_message(traces_of):
    base = type(reference_variation("scorpion"))

    class Raises(base):
        def is_won(self, state):
            raise ValueError("not today")

    summary = replay_all(traces_of("scorpion")[:6], lambda: LocalWorker(Raises()))
    assert {c for c, (p, t) in summary.counts.items() if p < t} == {"is_won"}
    message = next(per["is_won"] for per in summary.first_failure.values() if "is_won" in per).message
    assert "raised ValueError in is_won: not today" in message


def test_an_unloadable_file_fails_everything(traces_of):
    class Broken(Worker):
        def request(self, message):
            raise WorkerError("error", "SyntaxError: invalid syntax (line 3)", "SyntaxError")

    trace = traces_of("scorpion")[0]
    checks = list(replay(trace, Broken()))
    assert checks and not any(c.ok for c in checks)
    assert len(checks) == sum(planned(trace).values())
    assert "SyntaxError" in checks[-1].message
