"""Maria (2 packs): Forty Thieves on nine piles, packed down in alternate colour.

Layout: nine tableau piles ``t1``..``t9`` of four face-up cards, eight
foundations ``f1``..``f8`` (empty at the start), the stock ``s`` (its top card
face up: the drawn card) and the waste ``w``. One card moves at a time; a
space takes any available card. No counters, no phases, no redeal.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Variation

PILES = 9
ROWS = 4
FOUNDATIONS = 8
DISCARD = card_move("s", "w")


class Maria(Variation):
    name = "maria"
    title = "Maria"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, PILES),
        numbered(FOUNDATION, FOUNDATIONS),
        single(STOCK),
        single(WASTE),
    )
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed suit

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """MA1, X3: deal 36 cards row by row, 4 rows of 9, all face up.

        The first 9 cards are row 1, the bottom cards of ``t1``..``t9``; the
        36th card is the top card of ``t9``. The other 68 cards are the stock,
        face down, the 37th card of the deck on top; the top stock card is face
        up, the drawn card (X4).
        """
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        for index, card in enumerate(cards[: PILES * ROWS]):
            state.put(piles[index % PILES], [card])
        state.put("s", reversed(cards[PILES * ROWS :]), face_up=False)
        state.turn_up("s")
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """MA4, MA3, X4: only one card moves at a time: the top card of a tableau
        pile, the top card of the stock (the drawn card) or the top waste card.

        Cards never come back from a foundation (general ruling).
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (TABLEAU, STOCK, WASTE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """MA2: an empty foundation takes an ace (any empty one: each is its own
        move); a foundation builds up in suit, one card at a time, to the king.

        Only one card is ever offered: that is :meth:`can_pick_up`'s rule (MA4).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MA4, MA3: a card goes onto a tableau pile whose top card is one rank
        higher and of the other colour (a red 7 on a black 8). It may come from
        a tableau pile, the stock or the waste.

        Only one card is ever offered: that is :meth:`can_pick_up`'s rule (MA4).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        *_, top = state[pile].cards
        return card.color != top.color and card.rank == top.rank - 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MA5: a space takes any single available card: a tableau pile's top card,
        the top waste card or the top stock card.

        Only one card is ever offered: that is :meth:`can_pick_up`'s rule (MA4).
        """
        ### BEGIN SOLUTION
        return True
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """MA3, X4: ``s>w`` discards the drawn (top) stock card to the waste; it is
        always allowed while the stock has cards, even when the card could be
        played. There is no redeal.
        """
        ### BEGIN SOLUTION
        return [DISCARD] if not state.is_empty("s") else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """X4: ``s>w`` puts the top stock card face up on the waste."""
        ### BEGIN SOLUTION
        state.put("w", state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """X4: after every move the new top card of the stock is turned face up
        (it is the drawn card). Nothing goes to a foundation by itself and no
        space is filled by itself.
        """
        ### BEGIN SOLUTION
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """MA6: the game is won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move the solver may make
        without trying alternatives (:func:`solitaire.solver.safe_foundation_move`)."""
        return safe_foundation_move(self, state)
