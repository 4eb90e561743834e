"""Napoleon's Square's ``hopeless`` hint (reference/napoleons_square.py, with
:mod:`solitaire.solver_dead`): the tableau piles are frozen piles, a card that is not a
king marked "only to a foundation" when every copy of its successor is on a foundation
or beneath it in its own pile.

If wrong, the hint would call a winnable position lost. Checked here: no position on the
winning lines of deals the solver wins is called dead (each is won: the rest of the line
wins it); the end positions of lines the solver gave up on that the hint calls dead are
lost for the hint-free :func:`exhaustive` search; and three plausible unsound versions of
the marking (a king marked too, forgetting N6; successors beneath X in any pile counted;
one copy of the successor taken as enough) call positions of the winning lines dead, so
the first check can fail. Deal 12 shows what the hint is for: the solver without it
spends its budget in lost endgames and leaves the deal undecided."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from solver_support import assert_solved_and_replayed
from test_solver_hints import truth

from solitaire import catalog
from solitaire.cards import KING, Card
from solitaire.engine import apply, new_game
from solitaire.piles import FOUNDATION, TABLEAU
from solitaire.solver import LOST, UNDECIDED, WON, solve
from solitaire.solver_dead import cannot_all_go_up
from solitaire.state import State

V = catalog.load("napoleons_square")
Base = type(V)


def up(state: State) -> int:
    return sum(len(state.piles[f].cards) for f in V.piles(FOUNDATION))


class NoHopeless(Base):  # type: ignore[misc, valid-type]
    def hopeless(self, state: State) -> bool:
        return False


@cache
def winning_lines() -> tuple[State, ...]:
    """Every position on the winning lines the solver without the hint finds for deals
    1..10 that it wins at 3,000 nodes (a line found with the hint would pass through no
    position it calls dead)."""
    positions = []
    for seed in range(1, 11):
        result = solve(NoHopeless(), new_game(V, seed), 3_000)
        if result.outcome != WON:
            continue
        state = new_game(V, seed)
        for move in result.moves:
            state = apply(V, state, move)
            positions.append(state)
    return tuple(positions)


class Recording(Base):  # type: ignore[misc, valid-type]
    """No hopeless: records the positions the solver expands with many cards up."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[object, State] = {}

    def hopeless(self, state: State) -> bool:
        if up(state) >= 92:
            self.seen.setdefault(state.key(), state)
        return False


@cache
def given_up_endgames() -> tuple[State, ...]:
    """Positions with 92 or more cards up from the lines the solver without the hint
    works through, and does not win, in deals 12 and 13 (1,500 nodes each)."""
    positions: list[State] = []
    for seed in (12, 13):
        variation = Recording()
        assert solve(variation, new_game(variation, seed), 1_500).outcome == UNDECIDED
        found = list(variation.seen.values())
        positions.extend(found[:: max(1, len(found) // 8)][:8])
    return tuple(positions)


def test_no_position_of_a_winning_line_is_called_dead():
    positions = winning_lines()
    assert len(positions) > 500
    assert not [position for position in positions if V.hopeless(position)]


def test_dead_endgames_are_lost_for_the_plain_search():
    dead = [position for position in given_up_endgames() if V.hopeless(position)]
    truths = Counter(truth(V, position) for position in dead)
    assert truths[WON] == 0, truths
    assert truths[LOST] >= 5, truths  # the hint is put to the test


def unsound(mistake: str) -> Base:
    class Unsound(Base):  # type: ignore[misc, valid-type]
        def hopeless(self, state: State) -> bool:
            on_foundations = Counter(c for f in self.piles(FOUNDATION) for c in state.piles[f].cards)
            in_piles = Counter(c for name in self.piles(TABLEAU) for c in state.piles[name].cards)
            frozen = []
            for name in self.piles(TABLEAU):
                beneath: Counter[Card] = Counter()
                marked = []
                for card in state.piles[name].cards:
                    higher = Card(card.rank + 1, card.suit)
                    if mistake == "kings too":
                        only_up = card.rank == KING or on_foundations[higher] + beneath[higher] >= 2
                    elif mistake == "any pile":
                        only_up = card.rank != KING and on_foundations[higher] + in_piles[higher] >= 2
                    else:  # one copy
                        only_up = card.rank != KING and on_foundations[higher] + beneath[higher] >= 1
                    marked.append((card, only_up))
                    beneath[card] += 1
                frozen.append(marked)
            return cannot_all_go_up(self, state, frozen)

    return Unsound()


@pytest.mark.parametrize("mistake", ["kings too", "any pile", "one copy"])
def test_an_unsound_marking_calls_a_winning_line_dead(mistake):
    variation = unsound(mistake)
    assert any(variation.hopeless(position) for position in winning_lines())


def test_a_deal_the_search_missed_is_won_with_the_hint():
    state = new_game(V, 12)
    assert solve(NoHopeless(), state, budget=2_000).outcome == UNDECIDED
    assert_solved_and_replayed(V, state, budget=2_000)
