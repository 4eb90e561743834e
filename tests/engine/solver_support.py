"""What the solver's tests share: a claimed win checked move by move through the engine, and
small positions whose verdict a plain search over every legal move can give."""

from __future__ import annotations

from solitaire.engine import apply, apply_unchecked, legal_moves, new_game
from solitaire.piles import DISCARD, FOUNDATION, Pile
from solitaire.rng import SplitMix64
from solitaire.solver import LOST, UNDECIDED, WON, solve, state_key
from solitaire.solver_beam import stock_beam
from solitaire.state import State
from solitaire.variation import Variation


def assert_solved_and_replayed(
    variation: Variation, state: State, budget: int, beam: bool = True
) -> list[State]:
    """Solve ``state`` within ``budget`` nodes (``beam``: with the stock beam where the stock is
    long), assert a win, replay its moves through the engine (each must be legal) and assert
    the last position won; the positions from ``state`` on."""
    result = solve(variation, state, budget=budget, beam=beam)
    assert result.outcome == WON, result.outcome
    line = [state]
    for move in result.moves:
        line.append(apply(variation, line[-1], move))
    assert variation.is_won(line[-1])
    return line


LIMIT = 6_000  # states: a sample with a larger space is skipped


def exhaustive(variation: Variation, state: State, limit: int = LIMIT) -> str | None:
    """WON or LOST by visiting every reachable state (no hint, no symmetry); None when
    there are more than ``limit``."""
    seen = {state.key()}
    todo = [state]
    while todo:
        current = todo.pop()
        if variation.is_won(current):
            return WON
        for move in legal_moves(variation, current):
            child = apply_unchecked(variation, current, move)
            child_key = child.key()
            if child_key not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(child_key)
                todo.append(child)
    return LOST


def shuffled_position(variation: Variation, state: State, rng: SplitMix64) -> State:
    """``state`` with the cards of its piles that are neither foundations nor discard
    shuffled among those piles, each pile keeping its size and its face-down count."""
    names = [n for n in variation.layout.names if variation.kind(n) not in (FOUNDATION, DISCARD)]
    cards = [card for name in names for card in state[name].cards]
    rng.shuffle(cards)
    position = state.copy()
    start = 0
    for name in names:
        pile = state[name]
        position.set_pile(name, Pile(tuple(cards[start:start + len(pile.cards)]), pile.down))
        start += len(pile.cards)
    return position


def won_line(variation: Variation, seed: int, options: dict[str, object]) -> list[State]:
    """The positions of the solver's win of deal ``seed``, from the deal to the won state."""
    state = new_game(variation, seed, variation.resolve_options(dict(options)))  # type: ignore[arg-type]
    result = solve(variation, state, budget=20_000)
    assert result.outcome == WON, f"deal {seed} is no quick win"
    line = [state]
    for move in result.moves:
        line.append(apply(variation, line[-1], move))
    assert variation.is_won(line[-1])
    return line


CASES = [  # variation, options, a deal the solver wins quickly, how far back to go
    ("scorpion", {"moves": "any_faceup"}, 16, (10, 15)),
    ("bismarck", {}, 1, (10, 14)),
    ("bismarck", {"same_suit": True}, 1, (10, 14)),
    ("napoleons_square", {}, 1, (8, 16)),
    ("indian", {}, 9, (8, 13)),
    ("double_fives", {}, 11, (8, 13)),
]


def beam_verdict(variation: Variation, state: State, limit: int) -> str:
    """What the stock beam alone says of ``state`` within ``limit`` expansions: WON (its
    moves checked through the engine), LOST, or UNDECIDED."""
    search = stock_beam(variation, state, state_key(variation))
    for _ in range(limit):
        try:
            next(search)
        except StopIteration as finished:
            outcome, moves = finished.value
            if outcome == WON:
                for move in moves:
                    state = apply(variation, state, move)
                assert variation.is_won(state)
            return outcome
    return UNDECIDED
