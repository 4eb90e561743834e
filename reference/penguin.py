"""Penguin (1 pack): Parlett's FreeCell relative with a beak, seven cells and wrapping suits.

Layout: seven tableau piles ``t1``..``t7`` of seven face-up cards, seven cells
``c1``..``c7`` (one card each), four foundations ``f1``..``f4``. The first card
of the deck (the beak, at the bottom of ``t1``) fixes the base rank; the other
three cards of that rank start ``f1``..``f3`` during the deal and ``f4`` waits
for the beak. The counter ``base`` holds the base rank (1..13). No stock, no
special moves, no effects: every card is face up from the start.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from solitaire.cards import ACE, KING, ONE_PACK, Card, next_rank
from solitaire.moves import Move
from solitaire.piles import CELL, FOUNDATION, TABLEAU, Layout, numbered
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Option, Variation

PILES = 7
CELLS = 7
FOUNDATIONS = 4
SUIT_LENGTH = 13


class Penguin(Variation):
    name = "penguin"
    title = "Penguin"
    deck = ONE_PACK
    layout = Layout(
        numbered(TABLEAU, PILES),
        numbered(CELL, CELLS, capacity=1),
        numbered(FOUNDATION, FOUNDATIONS),
    )
    interchangeable = (FOUNDATION, CELL)  # solver hint: no fixed places, cells alike
    options = (
        Option(
            "tableau_wrap",
            True,
            "PG3: when true (default), tableau piles pack down in suit wrapping, a king "
            "on an ace (Parlett, PySolFC); when false, nothing goes on an ace",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PG1, X3: deal row by row into ``t1``..``t7``, 7 rows, face up.

        ``deck[0]`` goes to the bottom of ``t1``: the beak, whose rank is the
        base rank (counter ``base``, 1..13). Each later card of that rank goes to
        the next of ``f1``, ``f2``, ``f3`` instead and takes no tableau place:
        the following card fills that place. 49 cards end in the tableau, 7 per
        pile; ``f4`` stays empty (PG2). No stock.
        """
        ### BEGIN SOLUTION
        base = cards[0].rank
        state.counters["base"] = base
        foundations = iter(self.piles(FOUNDATION))
        piles = self.piles(TABLEAU)
        place = 0
        for index, card in enumerate(cards):
            if index > 0 and card.rank == base:
                state.put(next(foundations), [card])
            else:
                state.put(piles[place % PILES], [card])
                place += 1
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PG4, X8, PG5: from a tableau pile, the top card or any top part of a group,
        whatever the number of free cells and spaces: face-up cards, each of the suit
        of the card under it and one rank lower (PG3: a king on an ace only with
        ``tableau_wrap``). A cell's card moves (alone: a cell holds one). Foundation
        cards never move (X11).
        """
        ### BEGIN SOLUTION
        kind = self.kind(pile)
        if kind != TABLEAU:
            return kind == CELL
        wrap = state.option("tableau_wrap")
        cards = state[pile].cards[-count:]
        return all(
            upper.suit == lower.suit
            and (upper.rank == lower.rank - 1 or wrap and (lower.rank, upper.rank) == (ACE, KING))
            for lower, upper in pairwise(cards)
        )
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PG2: foundations build up in suit from the base rank (counter ``base``),
        wrapping from king to ace, 13 cards each; the empty ``f4`` takes the beak,
        the last card of the base rank (a full foundation's next card would be its
        own base card, so it takes nothing more). Only single cards go to a
        foundation, from a tableau pile or a cell (PG5).
        """
        ### BEGIN SOLUTION
        if len(cards) != 1:
            return False
        (card,) = cards
        top = state.top(foundation)
        if top is None:
            return card.rank == state.counters["base"]
        return card.suit == top.suit and card.rank == next_rank(top.rank, wrap=True)
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PG3, PG4, PG5: a card, or a group headed by it (its lowest-lying card), goes
        onto a tableau pile whose top card is of its suit and one rank higher (a king
        on an ace with ``tableau_wrap``); from a tableau pile or a cell.
        """
        ### BEGIN SOLUTION
        head, *_ = cards
        *_, top = state[pile].cards
        if head.suit != top.suit:
            return False
        if top.rank == ACE:
            return head.rank == KING and bool(state.option("tableau_wrap"))
        return head.rank == top.rank - 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PG6, PG5: an empty tableau pile takes only a card one rank below the base
        rank, alone or at the bottom of a group, from a tableau pile or a cell; with
        an ace as base rank, a king, whatever ``tableau_wrap`` says.

        PG5: an empty cell takes a tableau top card (alone: a cell holds one card);
        never a card from another cell.
        """
        ### BEGIN SOLUTION
        if self.kind(pile) == CELL:
            return self.kind(source) == TABLEAU
        below_base = KING if state.counters["base"] == ACE else state.counters["base"] - 1
        return cards[0].rank == below_base
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """PG7: won when all 52 cards are on the foundations, 13 on each."""
        ### BEGIN SOLUTION
        return all(len(state[f]) == SUIT_LENGTH for f in self.piles(FOUNDATION))
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move the solver may make
        without trying alternatives (:func:`solitaire.solver.safe_foundation_move`)."""
        return safe_foundation_move(self, state)
