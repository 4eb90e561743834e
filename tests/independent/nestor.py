"""Nestor, written independently of the reference (from RULINGS-001.md NE1..NE5, X1..X11
and the tightened X4, X9, NE1, NE2, NE3).

One pack. Tableau t1..t8 (six face-up cards each, no rank twice in a column as
far as the deal allows), the hand ``s`` (four cards, top card face up, X4), the
waste ``w`` (dead cards, face up, never available) and the discard pile ``d``.
Two available cards of equal rank (column tops, the top hand card) go to ``d``
together by the engine's removal ``a+b``; ``s>w`` discards the top hand card
unpaired. Won when the tableau is empty. No counters.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card
from solitaire.moves import Move, card_move
from solitaire.piles import DISCARD, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

COLUMNS = 8
ROWS = 6


class Nestor(Variation):
    name = "nestor"
    title = "Nestor"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, COLUMNS), single(STOCK), single(WASTE), single(DISCARD))
    removes = 2

    # -- rules -------------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """NE1: 48 cards row by row into t1..t8, 6 rows, face up. A card whose rank is
        already in its target column goes to the end of the undealt cards and the next one
        is tried; rejections are counted per position and, after each, compared with the
        number of undealt cards (the hand's four included): when equal, the first rejected
        card (now first again) is dealt anyway and the others keep their order. The 4 cards
        left, in order, are the hand: its first card on top, face up (X4)."""
        undealt: deque[Card] = deque(cards)
        columns: list[list[Card]] = [[] for _ in range(COLUMNS)]
        for position in range(COLUMNS * ROWS):
            column = columns[position % COLUMNS]
            rejected = 0
            while True:
                card = undealt[0]
                if all(card.rank != other.rank for other in column):
                    column.append(undealt.popleft())
                    break
                undealt.rotate(-1)
                rejected += 1
                if rejected == len(undealt):
                    column.append(undealt.popleft())
                    break
        for name, column in zip(self.piles(TABLEAU), columns, strict=True):
            state.put(name, column)
        state.put("s", list(reversed(undealt)), face_up=False)
        state.turn_up("s")

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """NE2: available are the top card of each column and the top hand card, singly.
        NE3: the waste is never available; cards on the discard pile are out of play."""
        return count == 1 and self.kind(pile) in (TABLEAU, STOCK) and not state.is_empty(pile)

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """NE2: two cards of equal rank, suits ignored, go to the discard pile together. No
        card goes there alone."""
        return foundation == "d" and len(cards) == 2 and cards[0].rank == cards[1].rank

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NE4: nothing else moves."""
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NE4: empty columns stay empty."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """NE3: ``s>w`` while the hand has cards, always (after the win too, NE2 tightened)."""
        return [] if state.is_empty("s") else [card_move("s", "w")]

    def apply_special(self, state: State, move: Move) -> None:
        """NE3: the top hand card goes, unpaired, face up onto the waste, where it is dead."""
        state.put("w", state.take("s", 1))

    def after_move(self, state: State, move: Move) -> None:
        """X4 (tightened): the top hand card is face up after every move."""
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """NE5: won when t1..t8 are all empty, whatever remains in the hand."""
        return all(state.is_empty(name) for name in self.piles(TABLEAU))
