"""Bismarck (1 pack): build four foundations up in suit from a base card, wrapping K to A.

Layout: eight rows of six face-up cards, ``t1``..``t4`` to the right of the
foundations (rows R1..R4) and ``t5``..``t8`` to the left (rows L1..L4); four
foundations ``f1``..``f4`` that start with the four cards of the base rank;
three free cells ``c1``..``c3`` that hold one card each. A row grows outward
from the foundations, so the top of a row's pile is its outer card, the only
card of the row that may move. There are no special moves and no effects.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card, next_rank, ranks_adjacent
from solitaire.moves import Move
from solitaire.piles import CELL, FOUNDATION, TABLEAU, Layout, numbered
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Option, Variation

ROWS = 8  # t1..t4 = right rows R1..R4, t5..t8 = left rows L1..L4
ROW_LENGTH = 6
FOUNDATIONS = 4
FREE_CELLS = 3
SUIT_LENGTH = 13


class Bismarck(Variation):
    name = "bismarck"
    title = "Bismarck"
    deck = ONE_PACK
    layout = Layout(
        numbered(TABLEAU, ROWS),
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(CELL, FREE_CELLS, capacity=1),
    )
    # solver hint: no fixed suits, cells alike (B4); rows alike too: they differ only in
    # where B1 deals them, and no rule of play names a row (B2, B5, B6)
    interchangeable = (FOUNDATION, CELL, TABLEAU)
    options = (
        Option(
            "same_suit",
            False,
            "B5: when true, a card goes onto a tableau card of the same suit one rank above "
            "or below (the harder variant); when false (default), of the same colour",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """B1: the first card of the deck is the base card and goes to ``f1``.

        The other three cards of its rank go to ``f2``, ``f3``, ``f4`` in the
        order they appear in the deck. The remaining 48 cards are dealt in deck
        order, row by row, six cards to a row, face up: first the right rows
        R1..R4 (``t1``..``t4``), then the left rows L1..L4 (``t5``..``t8``).
        B2: the first card dealt to a row is its inner card (bottom of the pile),
        the sixth its outer card (top of the pile).
        """
        ### BEGIN SOLUTION
        base_rank = cards[0].rank
        base_cards = (card for card in cards if card.rank == base_rank)  # cards[0] first
        for foundation in self.piles(FOUNDATION):
            state.put(foundation, [next(base_cards)])
        rest = [card for card in cards if card.rank != base_rank]
        for index, row in enumerate(self.piles(TABLEAU)):
            state.put(row, rest[index * ROW_LENGTH : (index + 1) * ROW_LENGTH])
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """B2: only single cards move: the outer (top) card of a row, or (B4) the
        card in a free cell. Cards never return from a foundation (general ruling).
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (TABLEAU, CELL)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """B3: a foundation builds up in suit from the base rank, wrapping from
        king to ace, 13 cards each: it takes the card of its suit one rank above
        its top card (an ace on a king). From a row or (B4) from a free cell.
        Only one card is ever offered: that is :meth:`can_pick_up`'s rule (B2).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(foundation)
        return (
            top is not None
            and len(state[foundation]) < SUIT_LENGTH
            and card.suit == top.suit
            and card.rank == next_rank(top.rank, wrap=True)
        )
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """B5: a card goes onto the outer card of a row when both are of the same
        colour and one rank apart, above or below, wrapping (a king and an ace
        are adjacent). With option ``same_suit`` they must be of the same suit
        instead. The card comes from a row or (B4) from a free cell. Only one
        card is ever offered: that is :meth:`can_pick_up`'s rule (B2).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        *_, top = state[pile].cards
        if state.option("same_suit"):
            alike = card.suit == top.suit
        else:
            alike = card.color == top.color
        return alike and ranks_adjacent(card.rank, top.rank, wrap=True)
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """B6: an empty row takes any single card that may move: the outer card
        of a row or a free-cell card.

        B4: an empty free cell takes the outer card of a row, never a card from
        another free cell (moving a card between cells changes nothing; the
        ruling says "a free cell takes an exposed tableau card").
        """
        ### BEGIN SOLUTION
        if self.kind(pile) == CELL:
            return self.kind(source) == TABLEAU
        return True
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """Won when all 52 cards lie on the foundations, 13 on each (general ruling)."""
        ### BEGIN SOLUTION
        return all(len(state[f]) == SUIT_LENGTH for f in self.piles(FOUNDATION))
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a card the solver may put on a
        foundation without trying alternatives, found with the rule methods above by
        :func:`solitaire.solver.safe_foundation_move`: no card that could still be
        packed onto it is off the foundations, its twin (two packs) keeps a foundation
        to go to, and the move has no effect beyond the card itself.
        """
        return safe_foundation_move(self, state)
