"""Napoleon's Square's ``solver_estimate`` hint: a card lying above a lower card of its
suit in a tableau pile or the waste (``INVERSION_COST``), and each further one when the
waste and the stock are read in the order the stock comes (``STOCK_ORDER_COST``).

An estimate changes which win the best-first search finds first, never a verdict
(``tests/engine/test_solver_soundness.py`` checks Napoleon's Square's hints against the
plain search); here the count itself is checked, and two deals the solver leaves
undecided without the stock order are won with it in a few hundred nodes."""

from __future__ import annotations

import pytest
from solver_support import assert_solved_and_replayed

from solitaire import catalog
from solitaire.engine import new_game
from solitaire.solver import UNDECIDED, solve
from solitaire.state import parse_state

V = catalog.load("napoleons_square")
FOUNDATIONS = "AS AH AC AD AS AH AC AD".split()


def position(**piles: str) -> str:
    lines = ["napoleons_square", "phase play rounds=4"]
    for index in range(1, 13):
        lines.append(f"t{index}: {piles.get(f't{index}', '')}".rstrip())
    for index, ace in enumerate(FOUNDATIONS, 1):
        lines.append(f"f{index}: {ace}")
    lines.append(f"s: {piles.get('s', '')}".rstrip())
    lines.append(f"w: {piles.get('w', '')}".rstrip())
    return "\n".join(lines) + "\n"


def test_piles_and_the_waste_are_charged_in_full():
    state = parse_state(position(
        t1="3S 5S 4S",  # 5S and 4S above 3S: 2
        t2="9H 8H",  # packed down in suit: nothing
        w="2C 7D 4C",  # 4C above 2C: 1
    ))
    assert V.solver_estimate(state) == 3 * V.INVERSION_COST


def test_the_stock_order_is_the_waste_bottom_up_then_the_stock_top_down():
    # drawn first: 3C (the top, face up), then 5D; the waste's 2C and 4D come before them
    state = parse_state(position(w="2C 4D", s="5d 3C"))
    # 3C comes after 2C, 5D after 4D: 2 in stock order, none in the waste alone
    assert V.solver_estimate(state) == 2 * V.STOCK_ORDER_COST
    # the same cards, the stock the other way round: 5D drawn first, then 3C; still 2
    assert V.solver_estimate(parse_state(position(w="2C 4D", s="3c 5D"))) == 2 * V.STOCK_ORDER_COST
    # a stock card coming before every lower card of its suit costs nothing
    assert V.solver_estimate(parse_state(position(w="4D", s="2d 3D"))) == 0
    # 2D drawn first, then 3D above it: 1 (3D after 2D); 4D in the waste before both: 0
    assert V.solver_estimate(parse_state(position(w="4D", s="3d 2D"))) == V.STOCK_ORDER_COST


class WithoutStockOrder(type(V)):  # type: ignore[misc]
    STOCK_ORDER_COST = 0


@pytest.mark.parametrize("seed", [24, 29])
def test_deals_the_search_missed_are_won_with_the_stock_order(seed):
    state = new_game(V, seed)
    assert solve(WithoutStockOrder(), state, budget=1_000).outcome == UNDECIDED
    assert_solved_and_replayed(V, state, budget=1_000)
