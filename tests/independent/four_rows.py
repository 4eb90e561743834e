"""Four Rows, written independently of the reference (from RULINGS-000.md FW1..FW3, G1, G10).

32 cards (A, 7..K). Discard pile ``d``; eight columns t1..t8 of four face-up cards, the
upper row at the bottom, the lowest row on top. Removals ``a+b`` of two equal ranks.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import Card, Deck
from solitaire.moves import Move
from solitaire.piles import DISCARD, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

COLUMNS = 8
CARDS = 32


class FourRows(Variation):
    name = "four_rows"
    title = "Four Rows"
    deck = Deck(1, ranks=(1, 7, 8, 9, 10, 11, 12, 13))
    layout = Layout(single(DISCARD), numbered(TABLEAU, COLUMNS))
    removes = 2

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """FW1: row by row, deck[0..7] the upper row ... deck[24..31] the lowest (on top)."""
        for index, card in enumerate(cards):
            state.put(f"t{index % COLUMNS + 1}", [card])

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """FW2: a column's lowest remaining card."""
        return count == 1 and self.kind(pile) == TABLEAU

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """FW2: two cards of the same rank, suit ignored."""
        return len(cards) == 2 and cards[0].rank == cards[1].rank

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """FW2: emptied columns stay empty."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        return []

    def apply_special(self, state: State, move: Move) -> None:
        raise ValueError(f"Four Rows has no action {move}")

    def is_won(self, state: State) -> bool:
        """FW3: all 32 cards removed."""
        return len(state["d"]) == CARDS
