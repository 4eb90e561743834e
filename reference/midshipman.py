"""Midshipman (2 packs): Forty Thieves played like Emperor, on nine half-hidden piles.

Layout: nine tableau piles ``t1``..``t9`` of four cards (two face down under
two face up), eight foundations ``f1``..``f8`` (empty at the start), the
stock ``s`` (its top card face up: the drawn card) and the waste ``w``. The
tableau packs down in alternate colour; the top card moves alone or the whole
build at the top of a pile moves as a unit (option ``units``); the top card
of a foundation may be "worried back" onto the tableau. No counters, no
phases, no redeal.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Option, Variation

PILES = 9
ROWS = 4
FACE_DOWN_ROWS = 2  # rows 1 and 2 are dealt face down, rows 3 and 4 face up
FOUNDATIONS = 8
DISCARD = card_move("s", "w")


class Midshipman(Variation):
    name = "midshipman"
    title = "Midshipman"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, PILES),
        numbered(FOUNDATION, FOUNDATIONS),
        single(STOCK),
        single(WASTE),
    )
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed suit
    options = (
        Option(
            "units",
            "build",
            "which tableau cards move together: 'build' = the top card alone or the whole "
            "build at the top of a pile (MI4); 'any_part' = any top part of that build "
            "(as Rank and File)",
            choices=("build", "any_part"),
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """MI1, X3: deal 36 cards row by row, 4 rows of 9: rows 1 and 2 face
        down, rows 3 and 4 face up.

        The first 9 cards are row 1, the bottom cards of ``t1``..``t9``. The
        other 68 cards are the stock, face down, the 37th card of the deck on
        top; the top stock card is face up, the drawn card (X4).
        """
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        for index, card in enumerate(cards[: PILES * ROWS]):
            row, pile = divmod(index, PILES)
            state.put(piles[pile], [card], face_up=row >= FACE_DOWN_ROWS)
        state.put("s", reversed(cards[PILES * ROWS :]), face_up=False)
        state.turn_up("s")
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """MI4, MI5, X4, X8: what moves, from where.

        From a tableau pile: the top card alone, or the whole build at its top
        (the longest run of face-up cards, each one rank lower than the card
        under it and of the other colour) as a unit; no other part of a build
        (MI4). With ``units="any_part"`` any top part of that build moves. The
        top card of a foundation moves alone (MI5), and so do the drawn stock
        card and the top waste card (X4).
        """
        ### BEGIN SOLUTION
        if self.kind(pile) != TABLEAU:
            return count == 1
        cards = state[pile].face_up
        build = 1
        while build < len(cards) and cards[-build - 1].color != cards[-build].color and (
            cards[-build - 1].rank == cards[-build].rank + 1
        ):
            build += 1
        if state.option("units") == "any_part":
            return count <= build
        return count in (1, build)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """MI2, MI5: an empty foundation takes an ace (any empty one: each is its
        own move); a foundation builds up in suit to the king, one card at a time
        (a unit goes to a foundation only card by card). A foundation card never
        goes to another foundation (MI5).
        """
        ### BEGIN SOLUTION
        if len(cards) != 1 or self.kind(source) == FOUNDATION:
            return False
        (card,) = cards
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MI3, MI5, X8: a card, or a unit headed by it (its lowest-lying card),
        goes onto a tableau pile whose top card is one rank higher and of the
        other colour; from a tableau pile, the stock, the waste, or the top of a
        foundation (worried back, MI5: the base ace included).
        """
        ### BEGIN SOLUTION
        head, *_ = cards
        *_, top = state[pile].cards
        return head.color != top.color and head.rank == top.rank - 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MI6, MI5, X8: a space takes any available card (tableau top, top waste
        card, drawn stock card) or a unit; never a foundation card (MI5, MI6)."""
        ### BEGIN SOLUTION
        return self.kind(source) != FOUNDATION
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """MI2, X4: ``s>w`` (discard the drawn card to the waste) is legal whenever
        the stock has cards, even when the card could be played. No redeal."""
        ### BEGIN SOLUTION
        return [DISCARD] if not state.is_empty("s") else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """X4: ``s>w`` puts the top stock card face up on the waste."""
        ### BEGIN SOLUTION
        state.put("w", state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """X10, X4: a face-down card left on top of a tableau pile turns face up,
        and so does the new top card of the stock (the drawn card). Nothing else
        happens by itself."""
        ### BEGIN SOLUTION
        for pile in self.piles(TABLEAU):
            state.turn_up(pile)
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """MI7: the game is won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move that
        :func:`solitaire.solver.safe_foundation_move` finds safe and that also
        blocks no worrying back (MI5): every card of the other colour and a lower
        rank, which alone could ever be packed onto this card or the foundation
        cards under it, is on the foundations already."""
        home = [c for f in self.piles(FOUNDATION) for c in state[f].cards]
        for source in self.layout.names:
            move = None if self.kind(source) == FOUNDATION else safe_foundation_move(self, state, [source])
            card = state.top(source)
            if move is not None and card is not None and sum(
                c.color != card.color and c.rank < card.rank for c in home
            ) == 4 * (card.rank - 1):
                return move
        return None
