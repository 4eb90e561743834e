"""Fortress (1 pack): ten open rows either side of a column of aces; rows build up or down in suit.

Layout: four foundations ``f1``..``f4`` (the aces' column, empty at the start)
and ten rows ``t1``..``t10``, named L1, R1, L2, R2, ..., L5, R5 (L left of the
aces' column, R right, 1 the upper row). A row's pile grows outward from the
aces' column, so the top of the pile is the row's outer card, the only card of
the row that may move. A row once emptied is a suit stack for the rest of the
game: counter ``stacks`` marks them, bit ``i - 1`` (value ``2 ** (i - 1)``)
for row ``ti``; 0 after the deal. No options, no actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move
from solitaire.piles import FOUNDATION, TABLEAU, Layout, numbered
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Variation

ROWS = 10
FOUNDATIONS = 4


class Fortress(Variation):
    name = "fortress"
    title = "Fortress"
    deck = ONE_PACK
    layout = Layout(
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(TABLEAU, ROWS),
    )
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed suit

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """FT1: deal round-robin to the rows in the order t1..t10 (L1, R1, ...,
        L5, R5), five rounds, then the 51st card to t1 and the 52nd to t2, so the
        two upper rows hold six cards. All face up; each card dealt to a row lies
        outside the one before, so the last dealt is the row's outer card (the
        top of its pile). The foundations start empty; no row is a suit stack
        yet (counter ``stacks`` = 0, FT5).
        """
        ### BEGIN SOLUTION
        rows = self.piles(TABLEAU)
        for index, card in enumerate(cards):
            state.put(rows[index % ROWS], [card])
        state.counters["stacks"] = 0
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """FT2, FT5: only the outer card of a row (the top of its pile) or the top
        card of a suit stack is available, one card at a time (the text's "entire
        suit stack moved" is a series of single moves). Foundation cards never
        move.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) == TABLEAU
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """FT3: an available ace goes to an empty foundation (any empty one: each is
        its own move; "should be moved" forces nothing, G11); foundations build up
        in suit to the king.
        """
        ### BEGIN SOLUTION
        card, *_ = cards  # the lowest card is the one that lands
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """FT4: an available card goes onto the outer card of another row of the
        same suit, one rank higher or lower, no wrap (G9). FT5: onto a non-empty suit
        stack (a row once emptied, marked in ``stacks``) only a card of its top's
        suit one rank lower.
        """
        ### BEGIN SOLUTION
        card, *_ = cards  # the lowest card is the one that lands
        top = state[pile].cards[-1]
        if card.suit != top.suit:
            return False
        if state.counters["stacks"] >> (int(pile[1:]) - 1) & 1:
            return card.rank == top.rank - 1
        return abs(card.rank - top.rank) == 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """FT5: an empty suit stack takes any available card. (Every empty row is a
        suit stack: a row becomes one the moment it is emptied, G13.)"""
        ### BEGIN SOLUTION
        return True
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """FT5: a row emptied by the move becomes a suit stack for the rest of the
        game: its bit is set in counter ``stacks`` (bit ``i - 1`` for ``ti``) and
        stays set when the stack is filled and emptied again. Nothing else
        happens by itself (G11)."""
        ### BEGIN SOLUTION
        for number, row in enumerate(self.piles(TABLEAU)):
            if state.is_empty(row):
                state.counters["stacks"] |= 1 << number
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """FT6: won when all 52 cards are on the foundations (gap: the text gives
        no win condition)."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move the solver may make
        without trying alternatives (:func:`solitaire.solver.safe_foundation_move`)."""
        return safe_foundation_move(self, state)
