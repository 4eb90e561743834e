"""Perseverance (1 pack): a Baker's Dozen relative close to Cruel, with two order-keeping redeals.

Layout: twelve tableau piles ``t1``..``t12`` of four face-up cards and four
foundations ``f1``..``f4``, which start with the aces. Suit runs move, whole
or in part; spaces are never filled. The counter ``redeals`` counts the
redeals left (2, 1, 0). No stock between redeals: a redeal picks the piles
up and deals them again at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, TABLEAU, Layout, numbered
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Option, Variation

PILES = 12
ROWS = 4
FOUNDATIONS = 4
PACKET = 4
REDEALS = 2
REDEAL = action("redeal")


class Perseverance(Variation):
    name = "perseverance"
    title = "Perseverance"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, PILES), numbered(FOUNDATION, FOUNDATIONS))
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed place
    options = (
        Option(
            "redeal_by",
            "packets",
            "PE5: how a redeal deals the gathered cards again: 'packets' (default; four "
            "cards to t1, the next four to t2 ...) or 'rows' (one card at a time across "
            "t1..t12, row by row, like the first deal)",
            ("packets", "rows"),
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PE1, X3: the 4 aces come out first, to ``f1``..``f4`` in deck order. The
        other 48 cards are dealt row by row, 4 rows of 12, face up into ``t1``..``t12``
        (the first 12 are row 1, the bottom cards). No stock. Two redeals: counter
        ``redeals`` = 2 (PE5).
        """
        ### BEGIN SOLUTION
        aces = (card for card in cards if card.rank == ACE)  # in deck order
        for foundation in self.piles(FOUNDATION):
            state.put(foundation, [next(aces)])
        rest = [card for card in cards if card.rank != ACE]
        piles = self.piles(TABLEAU)
        for index, card in enumerate(rest):
            state.put(piles[index % PILES], [card])
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PE3, X8: from a tableau pile, the top card or a group at its top, whole or
        in part: cards each of the suit of the card under it and one rank lower.
        Foundation cards never move (X11).
        """
        ### BEGIN SOLUTION
        if self.kind(pile) != TABLEAU:
            return False
        cards = state[pile].cards[-count:]
        return all(
            upper.suit == lower.suit and upper.rank == lower.rank - 1 for lower, upper in pairwise(cards)
        )
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PE2: a foundation (started by its ace, PE1) builds up in suit to the king,
        one card at a time: a group goes to a foundation only card by card.
        """
        ### BEGIN SOLUTION
        if len(cards) != 1:
            return False
        (card,) = cards
        top = state.top(foundation)
        return top is not None and card.suit == top.suit and card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PE3, X8: a card, or a group headed by it (its lowest-lying card), goes onto
        a tableau pile whose top card is of its suit and one rank higher.
        """
        ### BEGIN SOLUTION
        head, *_ = cards
        *_, top = state[pile].cards
        return head.suit == top.suit and head.rank == top.rank - 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PE4: spaces are never filled (*gap*: Baker's Dozen and Cruel): an empty
        tableau pile takes no card; only a redeal (PE5) puts cards in it again."""
        ### BEGIN SOLUTION
        return False
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """PE5, X1: ``redeal`` is legal at any time (the player decides when play is
        at a standstill) while a redeal is left (counter ``redeals`` above 0) and the
        tableau holds a card."""
        ### BEGIN SOLUTION
        if state.counters["redeals"] > 0 and any(state[p].cards for p in self.piles(TABLEAU)):
            return [REDEAL]
        return []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """PE5, X6, X5: ``redeal`` picks the piles up in reverse of the deal: t12 onto
        t11, and so on onto t1, the packet turned face down, so that the cards come
        again in the order t1 bottom to top, then t2 ..., then t12. Option
        ``redeal_by`` "packets" (default): four cards to t1 (the first at the
        bottom), the next four to t2, and so on as far as the cards go; the
        remaining piles stay empty. "rows": one card to each of t1..t12 in turn,
        row by row, like the first deal. Dealt face up. ``redeals`` drops by one.
        """
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        gathered = [card for pile in piles for card in state.take(pile, len(state[pile]))]
        for index, card in enumerate(gathered):
            if state.option("redeal_by") == "rows":
                target = piles[index % PILES]
            else:
                target = piles[index // PACKET]
            state.put(target, [card])
        state.counters["redeals"] -= 1
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """PE6: won when all 52 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move the solver may make
        without trying alternatives (:func:`solitaire.solver.safe_foundation_move`), only
        once no redeal is left: before that, a card taken up changes how a redeal lays
        the other cards out."""
        if state.counters["redeals"] > 0:
            return None
        return safe_foundation_move(self, state)
