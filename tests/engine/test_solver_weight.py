"""The ``foundation_weight`` hint sets what a foundation card is worth in the best-first
estimate (Double Fives plays greedier for its foundations than the default)."""

from __future__ import annotations

from solitaire import catalog
from solitaire.engine import new_game
from solitaire.piles import FOUNDATION
from solitaire.solver import _Promise
from solitaire.variation import Variation


def test_the_estimate_counts_each_foundation_card_at_the_variations_weight():
    double_fives = catalog.load("double_fives")
    assert double_fives.foundation_weight == 30 and Variation.foundation_weight == 10

    class Default(type(double_fives)):  # type: ignore[misc]
        foundation_weight = Variation.foundation_weight

    state = new_game(double_fives, 1)
    on_foundations = sum(len(state[f].cards) for f in double_fives.piles(FOUNDATION))
    assert on_foundations == 1  # the base card
    gap = _Promise(Default())(state) - _Promise(double_fives)(state)
    assert gap == (30 - 10) * on_foundations
