"""Fortress, written independently of the reference (from RULINGS-000.md FT1..FT6, G1..G13).

One pack. Ten rows t1..t10 (L1, R1, L2, R2, ..., L5, R5), all face up; the aces' column
f1..f4. Only a row's outer card (its top) moves, one card at a time: to a foundation (ace
first, up in suit), or onto another row's outer card of the same suit one rank higher or
lower, no wrap. A row once emptied is a suit stack for the rest of the game: empty, it
takes any available card; otherwise only a card of its top's suit one rank lower. The
counter ``stacks`` marks the suit stacks, bit k-1 for row tk.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move
from solitaire.piles import FOUNDATION, TABLEAU, Layout, numbered
from solitaire.state import State
from solitaire.variation import Variation

ROWS = 10
ROUNDS = 5
TOTAL = 52


class Fortress(Variation):
    name = "fortress"
    title = "Fortress"
    deck = ONE_PACK
    layout = Layout(numbered(FOUNDATION, 4), numbered(TABLEAU, ROWS))

    def _is_suit_stack(self, state: State, pile: str) -> bool:
        index = self.piles(TABLEAU).index(pile)
        return bool(state.counters.get("stacks", 0) >> index & 1)

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """FT1: five rounds over t1..t10, then deck[50] to t1 and deck[51] to t2; all face up."""
        names = self.piles(TABLEAU)
        for index in range(ROWS * ROUNDS):
            state.put(names[index % ROWS], [cards[index]])
        state.put("t1", [cards[50]])
        state.put("t2", [cards[51]])
        state.counters["stacks"] = 0

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """FT2/FT5: the outer card of a row or the top of a suit stack, one card at a time."""
        return count == 1 and self.kind(pile) == TABLEAU

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """FT3: an ace on an empty foundation, then up in suit to the king."""
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """FT4: a row takes a card of its outer card's suit one rank higher or lower (no wrap);
        FT5: a suit stack only one rank lower, same suit."""
        top = state.top(pile)
        if len(cards) != 1 or top is None:
            return False
        card = cards[0]
        if card.suit != top.suit:
            return False
        if self._is_suit_stack(state, pile):
            return card.rank == top.rank - 1
        return abs(card.rank - top.rank) == 1

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """FT5: an emptied row is an empty suit stack: it takes any available card."""
        return len(cards) == 1 and self.kind(pile) == TABLEAU

    def special_moves(self, state: State) -> list[Move]:
        return []

    def apply_special(self, state: State, move: Move) -> None:
        raise ValueError(f"Fortress has no special move {move}")

    def after_move(self, state: State, move: Move) -> None:
        """FT5: a row that is empty now is marked a suit stack for the rest of the game."""
        marks = state.counters.get("stacks", 0)
        for index, name in enumerate(self.piles(TABLEAU)):
            if state.is_empty(name):
                marks |= 1 << index
        state.counters["stacks"] = marks

    def is_won(self, state: State) -> bool:
        """FT6: all 52 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
