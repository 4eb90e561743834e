"""Replaying removals (``a+b``) when the discard pile is not a target (Monte Carlo, Nestor).

A trace's ``targets`` then omit ``d``. A wrong legal-move set must still be blamed on
the method that caused it (``can_pick_up`` or the pairing rule, ``foundation_accepts``),
and the replay must ask exactly the questions it announced to the batch it sent ahead:
before the fix it blamed ``special_moves`` ("this game has no removals") and stopped
with "replay plan out of step" (a RuntimeError that broke the grading of the trace).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from grader.traces.builder import SCENARIO, TraceBuilder
from solitaire.cards import ONE_PACK, Card
from solitaire.piles import DISCARD, STOCK, TABLEAU, Layout, numbered, single
from solitaire.protocol import LocalWorker
from solitaire.replay import replay
from solitaire.state import State, parse_state
from solitaire.variation import Variation


class Grid(Variation):
    """Pairs of equal rank from four open piles to a discard pile that is no target."""

    name = "grid"
    title = "Grid (toy)"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, 4), single(DISCARD), single(STOCK))
    removes = 2

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        raise NotImplementedError

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        return count == 1 and self.kind(pile) == TABLEAU

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        first, second = cards
        return first.rank == second.rank

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        return False

    def is_won(self, state: State) -> bool:
        return len(state["d"]) == 52


class AnyPair(Grid):
    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        return True


class FirstPileHidden(Grid):
    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        return count == 1 and pile in ("t3", "t4")


POSITION = """grid
phase play
t1: 5H
t2: 5D
t3: 9C
t4: 9S
d: KC KD
s: 2c
"""


@pytest.fixture(scope="module")
def trace() -> dict:
    builder = TraceBuilder(Grid(), "grid", state=parse_state(POSITION), density=SCENARIO)
    assert builder.play("t1+t2") and builder.play("t3+t4")
    return builder.result()


@pytest.mark.parametrize("candidate, blamed", [(AnyPair, "foundation_accepts"),
                                               (FirstPileHidden, "can_pick_up")])
def test_a_wrong_removal_is_blamed_on_its_method_batched_or_not(trace: dict, candidate: type,
                                                               blamed: str) -> None:
    batched = [c for c in replay(trace, lambda: LocalWorker(candidate())) if not c.ok]
    one_by_one = [c for c in replay(trace, lambda: LocalWorker(candidate()), batch=False) if not c.ok]
    assert batched == one_by_one
    moves = [c for c in batched if c.kind == "moves"]
    assert moves and {c.category for c in moves} == {blamed}
    assert not any("no removals" in c.message for c in batched)


def test_the_reference_replays_clean(trace: dict) -> None:
    assert [c for c in replay(trace, lambda: LocalWorker(Grid())) if not c.ok] == []
