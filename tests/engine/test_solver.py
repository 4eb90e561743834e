"""The solver's three honest answers and the winnability statistics."""

import pytest
from solver_support import assert_solved_and_replayed

from solitaire import parse_state
from solitaire.solver import LOST, UNDECIDED, solve
from solitaire.winnability import Tally, wilson_bounds

RUN = "K Q J T 9 8 7 6 5 4 3 2 A".split()


def suit_run(suit: str, ranks: str = "KA") -> str:
    """The cards of ``suit`` from rank ranks[0] down to ranks[1], as state text."""
    cards = RUN[RUN.index(ranks[0]) : RUN.index(ranks[1]) + 1]
    return " ".join(rank + suit for rank in cards)


def scorpion_state(columns: dict[str, str], removed: str = "CDH") -> str:
    lines = ["scorpion moves=runs", "phase play"]
    lines += [f"t{i}: {columns.get(f't{i}', '')}".rstrip() for i in range(1, 8)]
    lines += [f"f{i}: {suit_run(suit)}" for i, suit in enumerate(removed, start=1)]
    lines += [f"f{i}:" for i in range(len(removed) + 1, 5)]
    lines += ["r:"]
    return "\n".join(lines) + "\n"


def test_a_near_won_position_is_won_and_its_moves_replay(scorpion):
    columns = {"t1": suit_run("S", "K7"), "t2": suit_run("S", "62"), "t3": "AS"}
    state = parse_state(scorpion_state(columns))
    assert_solved_and_replayed(scorpion, state, budget=1000)


def test_a_blocked_position_is_proved_lost(scorpion):
    # Each ace lies on the other suit's two: neither can move, so neither two is freed.
    columns = {"t1": suit_run("H", "K2") + " AS", "t2": suit_run("S", "K2") + " AH"}
    state = parse_state(scorpion_state(columns, removed="CD"))
    result = solve(scorpion, state, budget=1000)
    assert result.outcome == LOST and result.moves == []


def test_the_budget_gives_undecided(scorpion):
    from solitaire import new_game

    result = solve(scorpion, new_game(scorpion, 3, {"moves": "any_faceup"}), budget=50)
    assert result.outcome == UNDECIDED and result.nodes == 50


def test_wilson_bounds_match_published_values():
    low, high = wilson_bounds(10, 100)
    assert low == pytest.approx(0.0552, abs=1e-4) and high == pytest.approx(0.1744, abs=1e-4)
    assert wilson_bounds(0, 0) == (0.0, 1.0)


def test_tally_interval_counts_undecided_both_ways():
    tally = Tally()
    for seed, outcome in enumerate(["won", "lost", "undecided", "undecided"], start=1):
        tally.add(seed, outcome, 10, 0.1)
    low, high = tally.interval()
    assert low == pytest.approx(wilson_bounds(1, 4)[0])
    assert high == pytest.approx(wilson_bounds(3, 4)[1])
    assert tally.decided == 0.5


def test_only_declared_pile_kinds_are_interchangeable(scorpion):
    """Treating piles as interchangeable is the variation's declaration, never the engine's
    default: a game whose foundations have fixed roles must not have them merged."""
    from solitaire import State
    from solitaire.solver import state_key
    from solitaire.variation import Variation

    class FixedFoundations(type(scorpion)):
        interchangeable = ()
        interchangeable_in = Variation.interchangeable_in  # Scorpion's own adds columns

    assert state_key(FixedFoundations()) is State.key
    assert state_key(scorpion) is not State.key
    assert state_key(scorpion, symmetric=False) is State.key


def test_packing_is_probed_on_a_reserve_when_a_game_has_no_tableau():
    """Permanent Stack builds only on its stack ``r`` (one rank lower, suit ignored): the
    solver's packing table asks that pile instead of failing for want of a tableau pile."""
    from solitaire import catalog
    from solitaire.cards import parse_card
    from solitaire.engine import new_game
    from solitaire.solver import packable_onto

    variation = catalog.load("permanent_stack")
    state = new_game(variation, 1, None)
    seven = packable_onto(variation, state, parse_card("7H"))
    assert seven and {card.rank for card in seven} == {6}
    assert len(seven) == 4  # any suit
    assert packable_onto(variation, state, parse_card("AS")) == frozenset()
