"""The stock beam: a third search for games with a long stock, which finds wins the two
complete searches miss. That it never turns a verdict is checked with the solver's
pruning, in test_solver_soundness.py (``beam_verdict``)."""

from __future__ import annotations

import pytest
from solver_support import assert_solved_and_replayed

from solitaire import catalog
from solitaire.engine import new_game
from solitaire.solver import UNDECIDED, has_long_stock, solve


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
    assert_solved_and_replayed(variation, state, budget=3_000)
