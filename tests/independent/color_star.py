"""Color Star, written independently of the reference (from RULINGS-000.md CS1..CS5, G4, G7, G8).

Two packs. Stock ``s`` (top face up: the drawn card; no waste), foundations f1..f8 (f1 the
base card), auxiliary stacks t1..t10, the main stack ``r`` (13 cards, closed: top face up).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import TWO_PACKS, Card
from solitaire.moves import Move
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

MAIN = 13
RANKS = 13


class ColorStar(Variation):
    name = "color_star"
    title = "Color Star"
    deck = TWO_PACKS
    layout = Layout(single(STOCK), numbered(FOUNDATION, 8), numbered(TABLEAU, 10), single(RESERVE))

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """CS1: deck[0..12] the closed main stack, deck[13] to f1, the rest the stock."""
        state.put("r", cards[:MAIN], face_up=False)
        state.turn_up("r")
        state.put("f1", [cards[MAIN]])
        state.put("s", list(reversed(cards[MAIN + 1:])), face_up=False)
        state.turn_up("s")

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """CS3/CS4: the drawn card, an auxiliary top, the main stack's top."""
        return count == 1 and self.kind(pile) in (STOCK, TABLEAU, RESERVE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """CS2: an empty foundation takes the base rank; then one up in the other colour,
        wrapping, 13 cards."""
        if len(cards) != 1:
            return False
        card, pile = cards[0], state[foundation].cards
        if not pile:
            return card.rank == state["f1"].cards[0].rank
        top = pile[-1]
        return len(pile) < RANKS and card.color != top.color and card.rank == top.rank % RANKS + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """CS3/CS4: an auxiliary stack takes the drawn card only, any card."""
        return len(cards) == 1 and source == "s"

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """CS3: an empty auxiliary stack takes the drawn card too."""
        return len(cards) == 1 and source == "s" and self.kind(pile) == TABLEAU

    def special_moves(self, state: State) -> list[Move]:
        return []

    def apply_special(self, state: State, move: Move) -> None:
        raise ValueError(f"Color Star has no action {move}")

    def after_move(self, state: State, move: Move) -> None:
        """G4/G7: the next stock card and the main stack's top are face up."""
        state.turn_up("s")
        state.turn_up("r")

    def is_won(self, state: State) -> bool:
        """CS5: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 104
