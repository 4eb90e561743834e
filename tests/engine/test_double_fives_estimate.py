"""Double Fives' ``solver_estimate`` hint: a card lying above a lower card of its suit,
ranks counted from the base rank, in a column or in the order the phase-2 stock comes.

An estimate changes which win the best-first search finds first, never a verdict
(``tests/engine/test_solver_soundness.py`` checks Double Fives' hints against the plain
search); here the count itself is checked, and two deals the solver left undecided at
60,000 nodes without the hint are won with it in a few thousand."""

from __future__ import annotations

import pytest
from solver_support import assert_solved_and_replayed

from solitaire import catalog
from solitaire.engine import new_game
from solitaire.solver import UNDECIDED, solve
from solitaire.state import parse_state

V = catalog.load("double_fives")
EMPTY = ["t4", "t5", "t6", "t7", "t8", "t9", "t10", "f2", "f3", "f4", "f5", "f6", "f7", "f8",
         "h1", "h2", "h3", "h4", "h5"]


def position(phase: str, **piles: str) -> str:
    lines = ["double_fives", f"phase {phase}"]
    for name in ["t1", "t2", "t3", *EMPTY[:7], "f1", *EMPTY[7:], "d", "s", "w"]:
        lines.append(f"{name}: {piles.get(name, '')}".rstrip())
    return "\n".join(lines) + "\n"


def test_blocking_cards_are_counted_from_the_base_rank_and_in_stock_order():
    # base rank 9: ranks run 9 T J Q K A 2 .. 8 (D2)
    state = parse_state(position(
        "stock",
        t1="KS 2S",  # 2S comes after KS from the base 9: blocks it (by plain ranks it would not)
        t2="2S KS",  # KS on 2S blocks nothing
        t3="9H 8H",  # 8H is the last rank, above the base-rank 9H: blocks it
        f1="9D",
        s="jc QC",  # drawn QC first, then JC
        w="TC",  # beneath both: QC and JC come after the lower TC
    ))
    assert V.solver_estimate(state) == 4 * V.BLOCKING_COST


def test_the_stock_order_is_the_waste_bottom_up_then_the_stock_top_down():
    # JC then TC in the waste (TC on top), JH drawn before TH: nothing comes after a lower card
    state = parse_state(position("stock", f1="9D", w="JC TC", s="th JH"))
    assert V.solver_estimate(state) == 0


def test_in_phase_1_the_discard_pile_counts_bottom_first():
    # the discard pile becomes the stock, its bottom card drawn first (D6)
    assert V.solver_estimate(parse_state(position("hand", f1="9D", d="tc jc"))) == V.BLOCKING_COST
    assert V.solver_estimate(parse_state(position("hand", f1="9D", d="jc tc"))) == 0


class NoEstimate(type(V)):  # type: ignore[misc]
    def solver_estimate(self, state):
        return 0


@pytest.mark.parametrize("seed", [13, 21])
def test_deals_the_search_missed_are_won_with_the_estimate(seed):
    state = new_game(V, seed)
    assert solve(NoEstimate(), state, budget=3_000).outcome == UNDECIDED
    assert_solved_and_replayed(V, state, budget=3_000)
