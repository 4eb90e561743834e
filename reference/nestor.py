"""Nestor (1 pack): discard pairs of equal rank until the eight columns are gone.

Layout: eight columns ``t1``..``t8`` of six face-up cards (no column holds
two cards of one rank, as far as the deal can manage), the hand ``s`` (four
cards, the top one face up: the X4 stock), the waste ``w`` (where unpaired
hand cards go, dead) and the discard pile ``d`` (the rulings' "f1"). Pairs
are the engine's removals ``a+b`` (``removes = 2``). No counters, no options.
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
TURN = card_move("s", "w")


class Nestor(Variation):
    name = "nestor"
    title = "Nestor"
    deck = ONE_PACK
    layout = Layout(
        numbered(TABLEAU, COLUMNS),
        single(STOCK),
        single(WASTE),
        single(DISCARD),
    )
    removes = 2

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """NE1, X3, X4: deal 48 cards face up, row by row, 6 rows of 8, into ``t1``..``t8``.

        A column never takes a second card of a rank it holds: such a card goes
        to the end of the undealt cards and the next one is tried. Rejections
        are counted per position; when, after a rejection, their number equals
        the number of undealt cards (the hand's four included), the first
        rejected card is dealt there anyway (the column then repeats a rank)
        and the others keep their order. The 4 cards left, in order, are the
        hand: face down, its first card on top and face up (X4).
        """
        ### BEGIN SOLUTION
        undealt = deque(cards)
        columns = self.piles(TABLEAU)
        for place in range(COLUMNS * ROWS):
            column = columns[place % COLUMNS]
            ranks = {card.rank for card in state[column].cards}
            rejected = 0
            while undealt[0].rank in ranks and rejected < len(undealt):
                undealt.rotate(-1)
                rejected += 1
            state.put(column, [undealt.popleft()])
        state.put("s", reversed(undealt), face_up=False)
        state.turn_up("s")
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """NE2, NE3, X4: the top card of each column and the top hand card are
        available, one at a time. The waste is never available, not even its top
        card (its cards are dead); nothing leaves the discard pile.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (TABLEAU, STOCK)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """NE2, X9: two available cards of equal rank, suits ignored, go together to
        the discard pile ``d`` (``t1+t5``, ``s+t3``). Nothing goes there alone.
        """
        ### BEGIN SOLUTION
        return len(cards) == 2 and cards[0].rank == cards[1].rank
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NE4: nothing else moves: no card goes onto a column."""
        ### BEGIN SOLUTION
        return False  # whatever the cards
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NE4: empty columns stay empty."""
        ### BEGIN SOLUTION
        return False  # whatever the source
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """NE3, X4: ``s>w`` discards the top hand card, unpaired, to the waste. It is
        legal whenever the hand has cards, even when the card could be paired, and
        after the win too (no move is special-cased after a win).
        """
        ### BEGIN SOLUTION
        return [TURN] if not state.is_empty("s") else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """NE3: ``s>w`` puts the top hand card face up on the waste, where it is dead."""
        ### BEGIN SOLUTION
        state.put("w", state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """X4: after every move the new top hand card is turned face up; the rest of
        the hand stays face down. Nothing else happens by itself.
        """
        ### BEGIN SOLUTION
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """NE5: won when ``t1``..``t8`` are all empty ("the entire tableau is discarded
        by pairs"), whatever remains in the hand.
        """
        ### BEGIN SOLUTION
        return all(state.is_empty(column) for column in self.piles(TABLEAU))
        ### END SOLUTION
