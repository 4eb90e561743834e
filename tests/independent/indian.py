"""Indian, written independently of the reference (from RULINGS.md I1..I6).

Two packs. Columns t1..t10 (one face-down card under two face-up ones), 8
foundations f1..f8, stock ``s`` (top card face up: the drawn card), waste ``w``.

Protection (I5) is read off the state, no counter: while the stock has cards,
the bottom card of a column that lies face up is a card that was dealt face down
and has turned up (every deal and refill puts a face-down card at the bottom,
and spaces are refilled at once while the stock lasts), so it is protected.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered
from solitaire.piles import single as single_pile
from solitaire.state import State
from solitaire.variation import Option, Variation

COLUMNS = 10


class Indian(Variation):
    name = "indian"
    title = "Indian"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, COLUMNS), numbered(FOUNDATION, 8), single_pile(STOCK), single_pile(WASTE)
    )
    options = (
        Option(
            "strict_protection",
            False,
            "I5: a protected card may not be packed upon either",
        ),
    )

    # -- helpers ---------------------------------------------------------------
    def _protected_top(self, state: State, pile: str) -> bool:
        """I5: the top card of ``pile`` is a protected card (turned up, stock not exhausted)."""
        column = state[pile]
        return (
            self.kind(pile) == TABLEAU
            and len(column) == 1
            and column.down == 0
            and not state.is_empty("s")
        )

    def _refill(self, state: State, pile: str) -> None:
        """I6: one face-down and two face-up cards from the stock (a lone last card face up)."""
        available = len(state["s"])
        if available >= 2:
            state.put(pile, state.take("s"), face_up=False)
            available -= 1
        for _ in range(min(2, available)):
            state.put(pile, state.take("s"))

    # -- rules -----------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """I1: 10 columns of 3 dealt row by row, the first row face down, the other two
        face up; the rest is the stock, its top card face up (the drawn card)."""
        columns = self.piles(TABLEAU)
        for index, card in enumerate(cards[: 3 * COLUMNS]):
            state.put(columns[index % COLUMNS], [card], face_up=index >= COLUMNS)
        state.put("s", list(reversed(cards[3 * COLUMNS:])), face_up=False)
        state.turn_up("s")

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """I4: one card at a time; I2: the top stock and waste cards are available;
        cards never leave a foundation."""
        return count == 1 and self.kind(pile) in (TABLEAU, STOCK, WASTE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """I3: aces start the foundations, which build up in suit, one card at a time.
        A protected card may go to a foundation (I5)."""
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """I4: down in rank, any suit but the card's own. I5: a protected card moves only
        to a foundation; with ``strict_protection`` nothing is packed onto one either."""
        top = state.top(pile)
        if len(cards) != 1 or top is None or self.kind(pile) != TABLEAU:
            return False
        if self._protected_top(state, source):
            return False
        if state.option("strict_protection") and self._protected_top(state, pile):
            return False
        card = cards[0]
        return card.suit != top.suit and card.rank == top.rank - 1

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """I6: once the stock is exhausted a space takes any available single card
        (before that, spaces are refilled from the stock at once)."""
        if len(cards) != 1 or self.kind(pile) != TABLEAU:
            return False
        return state.is_empty("s")

    def special_moves(self, state: State) -> list[Move]:
        """I2: ``s>w`` discards the drawn card while the stock has cards. No redeal."""
        return [card_move("s", "w")] if not state.is_empty("s") else []

    def apply_special(self, state: State, move: Move) -> None:
        """I2: ``s>w`` puts the drawn card on the waste."""
        state.put("w", state.take("s"))

    def after_move(self, state: State, move: Move) -> None:
        """General: exposed face-down cards turn up. I6: a column emptied while the stock
        has cards is refilled at once. Stock ruling: the top stock card is face up."""
        for column in self.piles(TABLEAU):
            state.turn_up(column)
            if state.is_empty(column) and not state.is_empty("s"):
                self._refill(state, column)
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """Won when all 104 cards are on the foundations."""
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
