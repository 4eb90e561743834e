"""Bismarck, written independently of the reference (from RULINGS.md B1..B6).

One pack. Rows t1..t4 (right of the foundations, R1..R4) and t5..t8 (left,
L1..L4), each a pile whose top is its outer card; foundations f1..f4 from the
base rank, wrapping; free cells c1..c3 of one card each.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card, next_rank, ranks_adjacent
from solitaire.piles import CELL, FOUNDATION, TABLEAU, Layout, numbered
from solitaire.state import State
from solitaire.variation import Option, Variation

ROWS = 8
ROW_LENGTH = 6


class Bismarck(Variation):
    name = "bismarck"
    title = "Bismarck"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, ROWS), numbered(FOUNDATION, 4), numbered(CELL, 3, capacity=1))
    options = (
        Option(
            "same_suit",
            False,
            "B5: pack on the same suit instead of the same colour (the harder variant)",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """B1: the first card is the base card (f1); the other three cards of its rank
        go to f2..f4 in deck order; the other 48 are dealt in deck order, six to a row,
        R1..R4 (t1..t4) then L1..L4 (t5..t8), the last card of a row outermost (B2)."""
        base_rank = cards[0].rank
        bases = [card for card in cards if card.rank == base_rank]
        rest = [card for card in cards if card.rank != base_rank]
        for foundation, card in zip(self.piles(FOUNDATION), bases, strict=True):
            state.put(foundation, [card])
        for index, row in enumerate(self.piles(TABLEAU)):
            state.put(row, rest[index * ROW_LENGTH:(index + 1) * ROW_LENGTH])

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """B2: only single exposed cards move; B4: a free-cell card is available too."""
        return count == 1 and self.kind(pile) in (TABLEAU, CELL)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """B3: up in suit from the base rank, wrapping king to ace, 13 cards each."""
        if len(cards) != 1:
            return False
        top = state.top(foundation)
        if top is None or len(state[foundation]) >= 13:
            return False
        card = cards[0]
        return card.suit == top.suit and card.rank == next_rank(top.rank, wrap=True)

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """B5: onto an exposed card one rank above or below (K and A adjacent), of the
        same colour, or of the same suit with option ``same_suit``."""
        top = state.top(pile)
        if len(cards) != 1 or top is None or self.kind(pile) != TABLEAU:
            return False
        card = cards[0]
        if state.option("same_suit"):
            alike = card.suit == top.suit
        else:
            alike = card.color == top.color
        return alike and ranks_adjacent(card.rank, top.rank, wrap=True)

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """B6: an empty row takes any single exposed card or free-cell card.
        B4: a free cell takes an exposed tableau card (not another cell's card)."""
        if len(cards) != 1:
            return False
        kind = self.kind(pile)
        if kind == TABLEAU:
            return self.kind(source) in (TABLEAU, CELL)
        if kind == CELL:
            return self.kind(source) == TABLEAU
        return False

    def is_won(self, state: State) -> bool:
        """Won when all 52 cards are on the foundations."""
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
