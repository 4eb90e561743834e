"""Four Rows (32 cards): remove pairs of equal rank from the bottoms of eight columns.

Layout: the discard pile ``d`` (the rulings' "f1": removed cards go there,
face up), then eight columns ``t1``..``t8``, one per position of a row, of
four face-up cards each after the deal: a column's bottom card is its card
of the upper row, its top card (the only available one) the lowest row's.
The deck is the 32-card one, A and 7..K of each suit. Pairs are the
engine's removals ``a+b`` (``removes = 2``). No counters, no options, no
actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import STRIPPED_32, Card
from solitaire.moves import Move, removal
from solitaire.piles import DISCARD, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

COLUMNS = 8


class FourRows(Variation):
    name = "four_rows"
    title = "Four Rows"
    deck = STRIPPED_32
    layout = Layout(single(DISCARD), numbered(TABLEAU, COLUMNS))
    removes = 2

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """FW1, G1: deal the 32 cards face up row by row, the upper row first:
        deck[0..7] to ``t1``..``t8``, deck[8..15] onto them, and so on, so that
        deck[24..31] (the lowest row) are the columns' top cards.
        """
        ### BEGIN SOLUTION
        columns = self.piles(TABLEAU)
        for index, card in enumerate(cards):
            state.put(columns[index % COLUMNS], [card])
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """FW1, FW2: only a column's top card (its lowest remaining card, with
        nothing below it) is available, one card at a time. Cards on the discard
        pile are out of play.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) == TABLEAU
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """FW2, G10: the discard pile takes the top cards of two columns of the same
        rank, suits ignored, named in ascending number order (``t2+t7``, the
        engine's canonical order). Nothing goes there alone.
        """
        ### BEGIN SOLUTION
        return len(cards) == 2 and cards[0].rank == cards[1].rank
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """FW2: nothing else moves: no card goes onto a column."""
        ### BEGIN SOLUTION
        return False  # whatever the cards
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """FW2, G13: emptied columns stay empty."""
        ### BEGIN SOLUTION
        return False  # whatever the source
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """FW3: won when all 32 cards have been removed to the discard pile."""
        ### BEGIN SOLUTION
        return len(state["d"]) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): pair two available cards of a rank
        when every card of that rank still in play is available and there are two
        (they can only pair with each other) or four (the other two stay available
        for the next pair)."""
        columns = self.piles(TABLEAU)
        for rank in STRIPPED_32.ranks:
            tops = [c for c in columns if (top := state.top(c)) is not None and top.rank == rank]
            in_play = sum(card.rank == rank for c in columns for card in state[c].cards)
            if len(tops) == in_play and in_play in (2, 4):
                return removal(*tops[:2])
        return None
