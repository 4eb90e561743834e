"""A game: a variation, the current state and its history, with undo."""

from __future__ import annotations

from .engine import apply, is_won, legal_moves
from .moves import Move
from .state import State
from .variation import Variation


class Game:
    """The position plus its history. ``play`` then ``undo`` restores the exact state."""

    def __init__(self, variation: Variation, state: State) -> None:
        self.variation = variation
        self.state = state
        self.history: list[tuple[Move, State]] = []

    def play(self, move: Move) -> State:
        """Play ``move`` (raises IllegalMove if illegal) and return the new state."""
        new = apply(self.variation, self.state, move)
        self.history.append((move, self.state))
        self.state = new
        return new

    def undo(self) -> Move:
        """Take back the last move and return it; IndexError if there is none."""
        move, previous = self.history.pop()
        self.state = previous
        return move

    def legal_moves(self) -> list[Move]:
        return legal_moves(self.variation, self.state)

    @property
    def won(self) -> bool:
        return is_won(self.variation, self.state)

    @property
    def moves(self) -> list[Move]:
        return [move for move, _ in self.history]
