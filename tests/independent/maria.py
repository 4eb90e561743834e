"""Maria, written independently of the reference (from RULINGS-001.md MA1..MA6, X1..X4).

Two packs. Piles t1..t9 (4 face-up cards each at the start), f1..f8, stock ``s``
(top card face up: the drawn card, X4) and waste ``w``. Forty Thieves on nine
piles: alternate-colour packing, one card at a time, any available card into a space.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered
from solitaire.piles import single as single_pile
from solitaire.state import State
from solitaire.variation import Variation

PILES = 9
DEALT = 36


class Maria(Variation):
    name = "maria"
    title = "Maria"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, PILES), numbered(FOUNDATION, 8), single_pile(STOCK), single_pile(WASTE)
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """MA1/X3: 4 rows of 9 dealt row by row, face up; the other 68 cards are the stock,
        the 37th card of the deck on top and face up (X4)."""
        names = self.piles(TABLEAU)
        for index in range(DEALT):
            state.put(names[index % PILES], [cards[index]])
        state.put("s", list(reversed(cards[DEALT:])), face_up=False)
        state.turn_up("s")

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """MA4: one card at a time; MA3: the top stock and waste cards are available."""
        if count != 1:
            return False
        return self.kind(pile) in (TABLEAU, STOCK, WASTE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """MA2: an ace starts any empty foundation; build up in suit to the king."""
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MA4: down by one in alternate colour, single cards only."""
        top = state.top(pile)
        if len(cards) != 1 or top is None:
            return False
        card = cards[0]
        return card.color != top.color and card.rank + 1 == top.rank

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MA5: a space takes any single available card (tableau, waste or stock top)."""
        return len(cards) == 1 and self.kind(pile) == TABLEAU

    def special_moves(self, state: State) -> list[Move]:
        """X4: ``s>w`` whenever the stock has a card. No redeal."""
        if state.is_empty("s"):
            return []
        return [card_move("s", "w")]

    def apply_special(self, state: State, move: Move) -> None:
        """X4: the drawn card goes face up onto the waste."""
        (card,) = state.take("s", 1)
        state.put("w", [card], face_up=True)

    def after_move(self, state: State, move: Move) -> None:
        """X4: the new top card of the stock is face up."""
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """MA6: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 104
