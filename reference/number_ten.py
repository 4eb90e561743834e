"""Number Ten (2 packs): Forty Thieves on ten half-hidden piles, groups in alternate colour.

Layout: ten tableau piles ``t1``..``t10`` of four cards (two face down under
two face up), eight foundations ``f1``..``f8`` (empty at the start), the
stock ``s`` (its top card face up: the drawn card) and the waste ``w``. A
group (a run descending in alternate colour at the top of a pile) moves in
whole or in part; a space takes any available card or group. No counters,
no phases, no redeal.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Variation

PILES = 10
ROWS = 4
FACE_DOWN_ROWS = 2  # rows 1 and 2 are dealt face down, rows 3 and 4 face up
FOUNDATIONS = 8
DISCARD = card_move("s", "w")


class NumberTen(Variation):
    name = "number_ten"
    title = "Number Ten"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, PILES),
        numbered(FOUNDATION, FOUNDATIONS),
        single(STOCK),
        single(WASTE),
    )
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed suit

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """NT1, X3: deal 40 cards row by row, 4 rows of 10: rows 1 and 2 face
        down, rows 3 and 4 face up.

        The first 10 cards are row 1, the bottom cards of ``t1``..``t10``. The
        other 64 cards are the stock, face down, the 41st card of the deck on
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
        """NT3, X8, X4: from a tableau pile, the top card or a group at its top,
        whole or in part: face-up cards, each one rank lower than the card under
        it and of the other colour (X8). The top stock card (the drawn card) and
        the top waste card move alone (X4). Foundation cards never move.
        """
        ### BEGIN SOLUTION
        kind = self.kind(pile)
        if kind in (STOCK, WASTE):
            return count == 1
        if kind != TABLEAU:
            return False
        cards = state[pile].cards[-count:]
        return all(
            upper.color != lower.color and upper.rank == lower.rank - 1 for lower, upper in pairwise(cards)
        )
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """NT2 (as MA2): an empty foundation takes an ace (any empty one: each is
        its own move); a foundation builds up in suit to the king, one card at a
        time: a group goes to a foundation only card by card.
        """
        ### BEGIN SOLUTION
        if len(cards) != 1:
            return False
        (card,) = cards
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NT3, X8: a card, or a group headed by it (its lowest-lying card), goes
        onto a tableau pile whose top card is one rank higher and of the other
        colour; from a tableau pile, the stock or the waste.
        """
        ### BEGIN SOLUTION
        head, *_ = cards
        *_, top = state[pile].cards
        return head.color != top.color and head.rank == top.rank - 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NT4, X8: a space takes any available card (tableau, waste, stock) or group."""
        ### BEGIN SOLUTION
        return True
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """NT2, X4: ``s>w`` (discard the drawn card to the waste) is legal whenever
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
        """NT5: the game is won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move the solver may make
        without trying alternatives (:func:`solitaire.solver.safe_foundation_move`)."""
        return safe_foundation_move(self, state)
