"""Mount Olympus (2 packs): odd and even suit chains built by twos on sixteen foundations.

Layout: nine tableau piles ``t1``..``t9`` of one face-up card, sixteen
foundations (``f1``..``f8`` start with the eight aces and build A-3-5-7-9-J-K,
``f9``..``f16`` start with the eight twos and build 2-4-6-8-T-Q) and the stock
``s`` (face down, never available: it is only dealt from). Groups descending
by twos in suit move in whole or in part; while the stock lasts an emptied
pile is refilled from it at once. No counters, no phases, no redeal.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, Layout, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Variation

PILES = 9
BASES = 8  # foundations per base rank: eight aces, then eight twos
TWO = 2
STEP = 2  # everything builds by twos
DEAL = action("deal")


class MountOlympus(Variation):
    name = "mount_olympus"
    title = "Mount Olympus"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, PILES),
        numbered(FOUNDATION, 2 * BASES),
        single(STOCK),
    )
    interchangeable = (FOUNDATION,)  # solver hint: a foundation's rule is its top card only

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """MO1, X3: the 8 aces go to ``f1``..``f8`` and the 8 twos to
        ``f9``..``f16``, each set in deck order. Of the other 88 cards, the first
        9 go face up to ``t1``..``t9``; the rest are the stock, face down, the
        first of them on top (dealt first). The stock is never available.
        """
        ### BEGIN SOLUTION
        foundations = self.piles(FOUNDATION)
        aces = [c for c in cards if c.rank == ACE]
        twos = [c for c in cards if c.rank == TWO]
        for index, card in enumerate(aces + twos):
            state.put(foundations[index], [card])
        rest = [c for c in cards if c.rank > TWO]
        piles = self.piles(TABLEAU)
        for index, card in enumerate(rest[:PILES]):
            state.put(piles[index], [card])
        state.put("s", reversed(rest[PILES:]), face_up=False)
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """MO3, X8: from a tableau pile, the top card or a group at its top, whole
        or in part: each card of the same suit as the card under it and two ranks
        lower. Stock cards are not available; foundation cards never move.
        """
        ### BEGIN SOLUTION
        if self.kind(pile) != TABLEAU:
            return False
        cards = state[pile].cards[-count:]
        return all(
            upper.suit == lower.suit and upper.rank == lower.rank - STEP for lower, upper in pairwise(cards)
        )
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """MO2: a foundation builds up in suit by twos: the ace foundations
        A-3-5-7-9-J-K (7 cards), the two foundations 2-4-6-8-T-Q (6 cards). Only
        single cards go to a foundation: a group goes card by card. Every
        foundation holds its base card from the deal on (MO1).
        """
        ### BEGIN SOLUTION
        if len(cards) != 1:
            return False
        (card,) = cards
        *_, top = state[foundation].cards
        return card.suit == top.suit and card.rank == top.rank + STEP
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MO3, X8: a card, or a group headed by it (its lowest-lying card), goes
        onto a tableau pile whose top card is of the same suit and two ranks
        higher (K-J-9-7-5-3-A, Q-T-8-6-4-2).
        """
        ### BEGIN SOLUTION
        head, *_ = cards
        *_, top = state[pile].cards
        return head.suit == top.suit and head.rank == top.rank - STEP
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MO5, MO4: once the stock is empty, a space takes any tableau top card or
        group (X8). While the stock has cards a space takes nothing: MO4 refills it
        at once, so play never offers one."""
        ### BEGIN SOLUTION
        return state.is_empty("s")
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """MO6: ``deal`` is legal while the stock has cards; no redeal."""
        ### BEGIN SOLUTION
        return [DEAL] if not state.is_empty("s") else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """MO6: ``deal`` puts the next stock cards face up, one on each of
        ``t1``..``t9`` in order, as far as the stock goes (a short last deal
        gives its cards to ``t1``, ``t2``, ...)."""
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        for index in range(min(PILES, len(state["s"]))):
            state.put(piles[index], state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """MO4, X10: while the stock has cards, a tableau pile that is empty at
        once receives the top stock card, face up (piles in order ``t1``..``t9``
        should several be empty). Nothing else happens by itself."""
        ### BEGIN SOLUTION
        for pile in self.piles(TABLEAU):
            if state.is_empty(pile) and not state.is_empty("s"):
                state.put(pile, state.take("s"))
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """MO7: the game is won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move the solver may make
        without trying alternatives (:func:`solitaire.solver.safe_foundation_move`)."""
        return safe_foundation_move(self, state)
