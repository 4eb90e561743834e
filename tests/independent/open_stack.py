"""Open Stack, written independently of the reference (from RULINGS-000.md OS1..OS5, G4, G8).

Two packs. Stock ``s`` (top face up: the drawn card; no waste), foundations f1..f8 (f1 the
base card), auxiliary stacks t1..t5, the open stack ``r`` (18 cards, face up).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import TWO_PACKS, Card
from solitaire.moves import Move
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

OPEN = 18
RANKS = 13


class OpenStack(Variation):
    name = "open_stack"
    title = "Open Stack"
    deck = TWO_PACKS
    layout = Layout(
        single(STOCK), numbered(FOUNDATION, 8), numbered(TABLEAU, 5), single(RESERVE, target=True)
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """OS1: deck[0..17] the open stack (deck[17] on top), deck[18] to f1, the rest the stock."""
        state.put("r", cards[:OPEN])
        state.put("f1", [cards[OPEN]])
        state.put("s", list(reversed(cards[OPEN + 1:])), face_up=False)
        state.turn_up("s")

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """OS3/OS4: the drawn card, an auxiliary top, the open stack's top; one at a time."""
        return count == 1 and self.kind(pile) in (STOCK, TABLEAU, RESERVE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """OS2/G8: an empty foundation takes the base rank; then one up regardless of suit,
        wrapping, 13 cards."""
        if len(cards) != 1:
            return False
        pile = state[foundation].cards
        if not pile:
            return cards[0].rank == state["f1"].cards[0].rank
        return len(pile) < RANKS and cards[0].rank == pile[-1].rank % RANKS + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """OS3: onto ``r`` the drawn card or an auxiliary top one rank lower, no wrap; OS4: an
        auxiliary stack takes the drawn card only."""
        if len(cards) != 1:
            return False
        if pile == "r":
            top = state.top("r")
            return (top is not None and (source == "s" or self.kind(source) == TABLEAU)
                    and cards[0].rank == top.rank - 1)
        return source == "s"

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """OS4: an empty auxiliary stack takes the drawn card; OS3: an empty ``r`` nothing."""
        return len(cards) == 1 and self.kind(pile) == TABLEAU and source == "s"

    def special_moves(self, state: State) -> list[Move]:
        """OS5: one pass, no draw action."""
        return []

    def apply_special(self, state: State, move: Move) -> None:
        raise ValueError(f"Open Stack has no action {move}")

    def after_move(self, state: State, move: Move) -> None:
        """G4: the next stock card is turned up."""
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """OS5: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 104
