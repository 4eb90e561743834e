"""The stock beam: a third search for games with a long stock, which finds wins the two
complete searches miss. That it never turns a verdict is checked with the solver's
pruning, in test_solver_soundness.py (``beam_verdict``)."""

from __future__ import annotations

import pytest
from solver_support import assert_solved_and_replayed

from solitaire import catalog
from solitaire.engine import new_game
from solitaire.solver import UNDECIDED, solve
from solitaire.solver_beam import beam_fits, has_long_stock


@pytest.mark.parametrize("name,long", [
    ("napoleons_square", True), ("metternich", True), ("indian", True), ("double_fives", True),
    ("scorpion", False), ("bismarck", False),
])
def test_only_a_stock_of_a_quarter_of_the_deck_is_long(name, long):
    variation = catalog.load(name)
    assert has_long_stock(variation, new_game(variation, 1)) is long


def test_the_beam_wins_a_deal_the_complete_searches_leave_undecided():
    """Napoleon's Square deal 15: undecided at 100,000 states without the beam (docs/
    winnability.md); with it, won within 3,000, and the moves replay through the engine."""
    variation = catalog.load("napoleons_square")
    state = new_game(variation, 15)
    assert solve(variation, state, budget=3_000, beam=False).outcome == UNDECIDED
    line = assert_solved_and_replayed(variation, state, budget=10_000)
    assert solve(variation, state, budget=10_000).nodes <= 3_000 and len(line) > 100


@pytest.mark.parametrize("name,seed", [("napoleons_square", 15), ("indian", 2), ("metternich", 17)])
def test_a_budget_too_small_for_the_first_pass_runs_no_beam(name, seed):
    """Napoleon's Square's first pass (84 stock cards at the start) needs 8 x (4 x 84 + 40)
    = 3,008 expansions, half of 6,016; below that the solver searches as without the beam."""
    variation = catalog.load(name)
    state = new_game(variation, seed)
    stock = len(state["s"].cards)
    fits = 2 * 8 * (4 * stock + 40)
    assert beam_fits(variation, state, fits) and not beam_fits(variation, state, fits - 1)
    with_beam = solve(variation, state, budget=2_000)
    without = solve(variation, state, budget=2_000, beam=False)
    assert (with_beam.outcome, with_beam.nodes) == (without.outcome, without.nodes)
    assert with_beam.moves == without.moves


def test_the_beam_takes_half_of_the_budget(monkeypatch):
    """Two turns of the beam after each round of the two complete searches (docs/
    winnability.md, "Half the budget for the beam"): on Napoleon's Square deal 13, where
    both complete searches run to the end of the budget, the beam makes exactly half of
    the expansions."""
    import solitaire.solver_beam as solver_beam

    turns = 0
    real = solver_beam.stock_beam

    def counted(*args):
        nonlocal turns
        beam = real(*args)
        while True:
            try:
                next(beam)
            except StopIteration as finished:
                return finished.value  # the beam's outcome, passed on to solve
            turns += 1
            yield

    monkeypatch.setattr(solver_beam, "stock_beam", counted)
    variation = catalog.load("napoleons_square")
    result = solve(variation, new_game(variation, 13), budget=6_016)
    assert (result.outcome, result.nodes, turns) == (UNDECIDED, 6_016, 3_008)
