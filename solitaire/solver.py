"""A generic solver: depth-first search over the engine's legal moves.

It knows no game. It searches depth first, never visiting a state twice (a
transposition table on :meth:`State.key`), tries moves in a generic order
(onto foundations first, then moves that expose or empty a pile, then the
rest, actions last) and plays a variation's :meth:`~Variation.safe_move`
without alternatives when the variation offers one. It stops at a node budget.

Its answer is honest: ``won`` with the move list, ``lost`` when every
reachable state was visited without a win (a proof), ``undecided`` when the
budget ran out first.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from .engine import apply_unchecked, is_action, legal_moves
from .moves import Move
from .piles import FOUNDATION
from .state import State
from .variation import Variation

WON, LOST, UNDECIDED = "won", "lost", "undecided"


@dataclass
class Solution:
    """The solver's answer: ``outcome`` (won, lost, undecided), the winning
    ``moves`` when won, the number of distinct states visited and the time taken."""

    outcome: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


def _move_rank(variation: Variation, state: State, move: Move) -> int:
    if is_action(variation, move):
        return 4
    if variation.layout.by_name[move.target].kind == FOUNDATION:
        return 0
    source = state.piles[move.source]
    if source.down == len(source.cards) - move.count:
        return 1  # empties the source or uncovers a face-down card
    return 3 if not state.piles[move.target].cards else 2


def ordered_moves(variation: Variation, state: State) -> list[Move]:
    """The legal moves of ``state`` in the order the solver tries them."""
    safe = variation.safe_move(state)
    if safe is not None:
        return [safe]
    moves = legal_moves(variation, state)
    return sorted(moves, key=lambda m: _move_rank(variation, state, m))


def solve(variation: Variation, state: State, budget: int = 100_000) -> Solution:
    """Search from ``state`` for a win, visiting at most ``budget`` distinct states."""
    started = time.perf_counter()

    def answer(outcome: str, moves: list[Move], nodes: int) -> Solution:
        return Solution(outcome, moves, nodes, time.perf_counter() - started)

    if variation.is_won(state):
        return answer(WON, [], 1)
    seen = {state.key()}
    path: list[Move] = []
    stack: list[tuple[State, Iterator[Move]]] = [(state, iter(ordered_moves(variation, state)))]
    nodes = 1
    while stack:
        current, moves = stack[-1]
        move = next(moves, None)
        if move is None:
            stack.pop()
            if path:
                path.pop()
            continue
        child = apply_unchecked(variation, current, move)
        key = child.key()
        if key in seen:
            continue
        seen.add(key)
        nodes += 1
        path.append(move)
        if variation.is_won(child):
            return answer(WON, path, nodes)
        if nodes >= budget:
            return answer(UNDECIDED, [], nodes)
        stack.append((child, iter(ordered_moves(variation, child))))
    return answer(LOST, [], nodes)
