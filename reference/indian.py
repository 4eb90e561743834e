"""Indian (2 packs): found the eight aces and build them up in suit to the kings.

Layout: ten tableau columns ``t1``..``t10`` of three cards (the first face
down), eight foundations ``f1``..``f8``, the stock ``s`` (its top card face
up: the drawn card) and the waste ``w``.

A card dealt face down that has turned up is *protected* while the stock has
cards (I5). The state needs no flag for it: while the stock has cards, the
bottom card of every column is a card dealt face down (it can leave only for
a foundation, which empties the column, and the column is refilled at once
with a face-down card at the bottom, I6), and a column's top card is always
face up. So the top card of a column is a protected card exactly when it is
the column's only card and the stock is not empty.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Option, Variation

COLUMNS = 10
ROWS = 3
FACE_DOWN_ROWS = 1  # row 1 is dealt face down, rows 2 and 3 face up
FOUNDATIONS = 8
REFILL = 3  # a refilled column gets one face-down and two face-up cards
SUIT_LENGTH = 13
DISCARD = card_move("s", "w")


class Indian(Variation):
    name = "indian"
    title = "Indian"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, COLUMNS),
        numbered(FOUNDATION, FOUNDATIONS),
        single(STOCK),
        single(WASTE),
    )
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed suit
    # solver hint: the best-first search plays greedier for the foundations (deals 1..50 at
    # 2,000 nodes: 23 won with 30, 19 with the default 10; deals 51..100: 17 and 15;
    # docs/winnability.md)
    foundation_weight = 30
    options = (
        Option(
            "strict_protection",
            False,
            "I5: when true, no card may be packed onto a protected card either "
            "(by default cards may be packed onto it; only moving it is restricted)",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """I1: deal 30 cards row by row into 10 columns of 3.

        Row 1 (cards 1..10, one to each column t1..t10) is face down, rows 2 and
        3 are face up. The other 74 cards are the stock, face down, the 31st card
        of the deck on top (drawn first); the top stock card is face up, as in
        all stock play (general rule).
        """
        ### BEGIN SOLUTION
        columns = self.piles(TABLEAU)
        for index, card in enumerate(cards[: COLUMNS * ROWS]):
            row, column = divmod(index, COLUMNS)
            state.put(columns[column], [card], face_up=row >= FACE_DOWN_ROWS)
        state.put("s", reversed(cards[COLUMNS * ROWS :]), face_up=False)
        state.turn_up("s")
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """I4, I2: only one card moves at a time: the top card of a column, the
        top card of the stock (the drawn card) or the top card of the waste.

        Foundation cards never come back (general rule). Whether a protected
        card may go where it is sent is decided by the receiving pile (I5).
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (TABLEAU, STOCK, WASTE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """I3: an empty foundation takes an ace (any empty one: each is its own
        move); a foundation builds up in suit, one card at a time, to the king.

        A protected card may go to a foundation (I5). Only one card is ever
        offered: that is :meth:`can_pick_up`'s rule (I4).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """I4, I5: one card goes onto the top card of a column that is one rank
        higher and of any suit but its own (a spade on anything but a spade).

        I5: a protected card (see :meth:`_protected`) may not move onto a column.
        Cards may be packed onto a protected card, unless option
        ``strict_protection`` is on. Only one card is ever offered: that is
        :meth:`can_pick_up`'s rule (I4).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        *_, top = state[pile].cards
        return (
            top.suit != card.suit
            and top.rank == card.rank + 1
            and not self._protected(state, source)
            and not (state.option("strict_protection") and self._protected(state, pile))
        )
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """I6: once the stock is exhausted (empty), a space takes any available
        single card: a column's top card or the top waste card.

        While the stock has cards a space is never the player's to fill: it is
        refilled at once from the stock (see :meth:`after_move`), so nothing may
        be moved into it. (One card at a time is :meth:`can_pick_up`'s rule, I4.)
        """
        ### BEGIN SOLUTION
        return state.is_empty("s")
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """I2: ``s>w`` discards the drawn (top) stock card to the waste; it is
        always allowed while the stock has cards. There is no redeal.
        """
        ### BEGIN SOLUTION
        return [DISCARD] if not state.is_empty("s") else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """I2: ``s>w`` puts the top stock card face up on the waste."""
        ### BEGIN SOLUTION
        state.put("w", state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """Effects after every move, in this order:

        * a face-down card on top of a column turns face up (general rule; it
          is now a protected card, I5);
        * I6: an empty column, while the stock has cards, is refilled at once
          from the stock, the next stock card (the drawn one) first: one face
          down, then two face up. With two stock cards left it gets one face
          down and one face up; a lone last card goes face up. Columns are
          refilled in order t1..t10;
        * the new top card of the stock turns face up (general rule: stock play).

        When the stock becomes empty, by a discard, a play or a refill,
        protection ends at once (I5, I6): nothing needs to change in the state.
        """
        ### BEGIN SOLUTION
        for column in self.piles(TABLEAU):
            state.turn_up(column)
            if state.is_empty(column) and not state.is_empty("s"):
                dealt = state.take("s", min(REFILL, len(state["s"])))[::-1]  # next card first
                state.put(column, dealt[:1], face_up=len(dealt) == 1)
                state.put(column, dealt[1:])
        state.turn_up("s")
        ### END SOLUTION

    def _protected(self, state: State, pile: str) -> bool:
        """I5: whether the top card of ``pile`` is a protected card.

        A protected card is a card dealt face down that has turned up, while the
        stock is not exhausted. Such a card is always the bottom card of its
        column, so it is the top card exactly when it is the column's only card
        (a column's top card is always face up) and the stock is not empty.
        """
        ### BEGIN SOLUTION
        return self.kind(pile) == TABLEAU and not state.is_empty("s") and len(state[pile]) == 1
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """The game is won when all 104 cards are on the foundations, 13 on each."""
        ### BEGIN SOLUTION
        return all(len(state[f]) == SUIT_LENGTH for f in self.piles(FOUNDATION))
        ### END SOLUTION

    def interchangeable_in(self, state: State) -> tuple[str, ...]:
        """Solver hint, not a rule (never graded): once the stock is exhausted, the
        columns are alike as well as the foundations. While it has cards, the refills
        go to the empty columns in order t1..t10 (I6), so the columns' order matters;
        after it, a column takes a card by its top card (I4) or, empty, any available
        card (I6), and protection has ended (I5). There is no redeal: the stock stays empty.
        """
        if state.is_empty("s"):
            return (FOUNDATION, TABLEAU)
        return self.interchangeable

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a card the solver may put on a
        foundation without trying alternatives, found with the rule methods above by
        :func:`solitaire.solver.safe_foundation_move`: no card that could still be
        packed onto it is off the foundations, its twin keeps a foundation to go to,
        and the move has no effect beyond the card itself. So a move that empties a
        column while the stock has cards is never safe: the refill it sets off (I6)
        takes the stock's cards of that moment.
        """
        return safe_foundation_move(self, state)
