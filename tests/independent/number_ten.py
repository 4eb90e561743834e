"""Number Ten, written independently of the reference (from RULINGS-001.md NT1..NT5, X1..X10).

Two packs. Piles t1..t10 (two face-down cards under two face-up ones at the
start), f1..f8, stock ``s`` (top card face up, X4) and waste ``w``. Groups
(X8): a run at the top of a pile descending by one in alternate colour moves
in whole or in part, onto a pile or into a space.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered
from solitaire.piles import single as single_pile
from solitaire.state import State
from solitaire.variation import Variation

PILES = 10
ROWS = 4
DOWN_ROWS = 2


def _fits(upper: Card, lower: Card) -> bool:
    """NT3: ``upper`` may lie on ``lower``: one rank lower, the other colour."""
    return upper.rank == lower.rank - 1 and upper.color != lower.color


class NumberTen(Variation):
    name = "number_ten"
    title = "Number Ten"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, PILES), numbered(FOUNDATION, 8), single_pile(STOCK), single_pile(WASTE)
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """NT1/X3: 4 rows of 10 row by row, rows 1-2 face down, rows 3-4 face up; the
        other 64 are the stock, the 41st card on top and face up (X4)."""
        names = self.piles(TABLEAU)
        for index in range(PILES * ROWS):
            state.put(names[index % PILES], [cards[index]], face_up=index >= PILES * DOWN_ROWS)
        state.put("s", list(reversed(cards[PILES * ROWS:])), face_up=False)
        state.turn_up("s")

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """X4: one card from the stock or waste; NT3/X8: from a pile, any top part of its
        group (face-up cards each one lower and of the other colour than the one below)."""
        kind = self.kind(pile)
        if kind in (STOCK, WASTE):
            return count == 1
        if kind != TABLEAU:
            return False
        moving = state[pile].cards[-count:]
        return all(_fits(moving[i + 1], moving[i]) for i in range(len(moving) - 1))

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """NT2 (as MA2): an ace on an empty foundation; then up in suit, one card at a time."""
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NT3/X8: the group's lowest card fits on the pile's top card."""
        top = state.top(pile)
        return top is not None and _fits(cards[0], top)

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NT4: any available card or group fills a space."""
        return self.kind(pile) == TABLEAU

    def special_moves(self, state: State) -> list[Move]:
        """X4: ``s>w`` while the stock has cards; no redeal (NT2)."""
        return [] if state.is_empty("s") else [card_move("s", "w")]

    def apply_special(self, state: State, move: Move) -> None:
        """X4: the drawn card goes face up onto the waste."""
        state.put("w", state.take("s", 1))

    def after_move(self, state: State, move: Move) -> None:
        """X10: an exposed face-down card turns up; X4: so does the new top stock card."""
        for name in self.piles(TABLEAU):
            state.turn_up(name)
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """NT5: all 104 cards on the foundations."""
        total = 0
        for name in self.piles(FOUNDATION):
            total += len(state[name])
        return total == 104
