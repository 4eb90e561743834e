"""Removals (``a+b``): the engine's generic contract for games that discard cards together.

A toy game declares ``removes = 2`` and a discard pile ``d``: pairs of equal
rank among the available top cards go to ``d`` together, a king alone by an
ordinary move (``t2>d``). The tests pin the engine's side: which removals are
listed, their canonical spelling, the reasons an illegal one is refused, the
order the cards land in, and the grader's probe table for them.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from grader.traces.facts import Facts
from solitaire import engine
from solitaire.cards import KING, ONE_PACK, Card
from solitaire.errors import IllegalMove
from solitaire.moves import Move, parse_move
from solitaire.piles import DISCARD, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State, parse_state
from solitaire.variation import Variation


class Pairs(Variation):
    name = "pairs"
    title = "Pairs (toy)"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, 4), single(DISCARD, target=True), single(STOCK))
    removes = 2

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        raise NotImplementedError

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        return count == 1 and pile != "t4"  # t4 is "covered": never available

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        if len(cards) == 1:
            return cards[0].rank == KING
        first, second = cards
        return first.rank == second.rank

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        return False

    def is_won(self, state: State) -> bool:
        return len(state["d"]) == 52


POSITION = """pairs
phase play
t1: 2C 5H
t2: 9D KS
t3: 3C 5D
t4: 5S
d:
s: 4h 5C
"""


@pytest.fixture
def toy() -> tuple[Pairs, State]:
    return Pairs(), parse_state(POSITION)


def test_removals_are_listed_in_canonical_order(toy: tuple[Pairs, State]) -> None:
    variation, state = toy
    moves = [str(m) for m in engine.legal_moves(variation, state)]
    # three fives are available (t1, t3, the stock's face-up top); t4's five is not
    assert sorted(m for m in moves if "+" in m) == ["s+t1", "s+t3", "t1+t3"]
    assert "t2>d" in moves and "t1>d" not in moves


def test_a_removal_takes_both_cards_to_the_discard_pile_first_named_lowest(toy: tuple[Pairs, State]) -> None:
    variation, state = toy
    after = engine.apply(variation, state, parse_move("s+t3"))
    assert [str(c) for c in after["d"].cards] == ["5C", "5D"]
    assert [str(c) for c in after["t3"].cards] == ["3C"]
    assert after["s"].cards == state["s"].cards[:-1]
    assert str(parse_move("s+t3")) == "s+t3"


@pytest.mark.parametrize("text, reason", [
    ("t3+s", "write this removal as s+t3"),
    ("t1+t4", "cannot pick up 5S from t4"),
    ("t1+t2", "d does not take 5H KS together"),
    ("t1+t1", "names a pile twice"),
    ("t1+t9", "has no pile t9"),
    ("t1+t2+t3", "at most 2 piles"),
])
def test_illegal_removals_say_why(toy: tuple[Pairs, State], text: str, reason: str) -> None:
    variation, state = toy
    with pytest.raises(IllegalMove) as refused:
        engine.apply(variation, state, parse_move(text))
    assert reason in str(refused.value)


def test_a_game_without_removals_refuses_them() -> None:
    class NoRemovals(Pairs):
        removes = 0

    state = parse_state(POSITION)
    assert engine.check_move(NoRemovals(), state, Move("remove", ("t1", "t3"))) == \
        "pairs has no removals (a+b)"
    assert not [m for m in engine.legal_moves(NoRemovals(), state) if m.kind == "remove"]


def test_the_probe_table_asks_foundation_accepts_of_each_available_pair(toy: tuple[Pairs, State]) -> None:
    variation, state = toy
    facts = Facts.of(variation, state)  # raises if its legal moves differ from the engine's
    removal_probes = {p.args[2]: p.expect for p in facts.accepts if "+" in p.args[2]}
    assert removal_probes["t1+t3"] is True and removal_probes["t1+t2"] is False
    assert not any("t4" in source for source in removal_probes)  # t4 may not be picked up
    # t4's can_pick_up is decisive: a five there would pair if it were available
    assert any(p.args == ("t4", 1) and p.expect is False for p in facts.decisive_pickups)
    probes = facts.component_probes(variation, state, "s+t3")
    assert {(p.method, p.args[0]) for p in probes} >= {("can_pick_up", "s"), ("can_pick_up", "t3"),
                                                       ("foundation_accepts", "d")}


def test_a_trace_with_a_removal_is_valid_and_replays_clean(toy: tuple[Pairs, State]) -> None:
    """A removal step is recorded as a move (not an action); the validator must accept it
    and a correct implementation must replay it without a failure."""
    from grader.traces.builder import TraceBuilder
    from solitaire.protocol import LocalWorker
    from solitaire.replay import failures
    from solitaire.traces import validate

    variation, state = toy
    builder = TraceBuilder(variation, "removal", state=state)
    assert builder.play("s+t3") and builder.play("t2>d")
    trace = builder.result()
    step = trace["steps"][0]
    assert (step["move"], step["action"], step["legal"]) == ("s+t3", False, True)
    validate(trace, "pairs/removal")
    assert failures(trace, lambda: LocalWorker(Pairs())) == []


def test_the_replay_blames_can_pick_up_for_a_removal_without_losing_its_plan(
        toy: tuple[Pairs, State]) -> None:
    """A removal names two piles: the replay's blame must ask can_pick_up of both (the plan it
    sent ahead queued both calls) before judging, even when the first answer is already wrong."""
    from grader.traces.builder import TraceBuilder
    from solitaire.protocol import LocalWorker
    from solitaire.replay import failures

    class StockUnavailable(Pairs):
        def can_pick_up(self, state: State, pile: str, count: int) -> bool:
            return pile != "s" and super().can_pick_up(state, pile, count)

    variation, state = toy
    builder = TraceBuilder(variation, "blame", state=state)
    builder.play("t1+t3", full=True)
    problems = failures(builder.result(), lambda: LocalWorker(StockUnavailable()))
    assert problems and {p.category for p in problems} == {"can_pick_up"}
    assert any("can_pick_up(s, 1) should return True" in p.message for p in problems)


def test_the_replay_blames_the_pairing_rule_where_the_discard_pile_is_no_target() -> None:
    """Where nothing goes to ``d`` alone (Nestor), ``d`` is not among a trace's targets: the
    blame of a removal must still find it, ask the queued can_pick_up calls and name
    foundation_accepts."""
    from grader.traces.builder import TraceBuilder
    from solitaire.protocol import LocalWorker
    from solitaire.replay import failures

    class PairsOnly(Pairs):
        layout = Layout(numbered(TABLEAU, 4), single(DISCARD), single(STOCK))

    class NoPairs(PairsOnly):
        def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...],
                               source: str) -> bool:
            return False

    builder = TraceBuilder(PairsOnly(), "no-target", state=parse_state(POSITION))
    assert "d" not in builder.trace["targets"]
    builder.play("t1+t3", full=True)
    problems = failures(builder.result(), lambda: LocalWorker(NoPairs()))
    assert problems and {p.category for p in problems} == {"foundation_accepts"}
    wanted = "foundation_accepts(d, [5C 5H], source s+t1) should return True"
    assert any(wanted in p.message for p in problems)
