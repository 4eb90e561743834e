"""What the solver's tests share: a claimed win checked move by move through the engine."""

from __future__ import annotations

from solitaire.engine import apply
from solitaire.solver import WON, solve
from solitaire.state import State
from solitaire.variation import Variation


def assert_solved_and_replayed(variation: Variation, state: State, budget: int) -> list[State]:
    """Solve ``state`` within ``budget`` nodes, assert a win, replay its moves through the engine
    (each must be legal) and assert the last position won; the positions from ``state`` on."""
    result = solve(variation, state, budget=budget)
    assert result.outcome == WON, result.outcome
    line = [state]
    for move in result.moves:
        line.append(apply(variation, line[-1], move))
    assert variation.is_won(line[-1])
    return line
