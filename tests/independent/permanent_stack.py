"""Permanent Stack, written independently of the reference (from RULINGS-000.md PS1..PS5,
G1..G13).

Two packs. Stock ``s`` (top face up: the drawn card), waste ``w``, foundations f1..f8, the
stack ``r`` (closed: 9 cards, only the top face up). Counter ``redeals`` = 2.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, RESERVE, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

STACK = 9


class PermanentStack(Variation):
    name = "permanent_stack"
    title = "Permanent Stack"
    deck = TWO_PACKS
    layout = Layout(single(STOCK), single(WASTE), numbered(FOUNDATION, 8), single(RESERVE, target=True))

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PS1: deck[0..8] the closed stack (deck[8] on top, face up); the rest the stock."""
        state.put("r", cards[:STACK], face_up=False)
        state.turn_up("r")
        state.put("s", list(reversed(cards[STACK:])), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = 2

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PS3: the drawn card, the waste top, the stack's top; one at a time."""
        return count == 1 and self.kind(pile) in (STOCK, WASTE, RESERVE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """PS2: an ace on an empty foundation, then up regardless of suit to the king."""
        if len(cards) != 1:
            return False
        top = state.top(foundation)
        if top is None:
            return cards[0].rank == ACE
        return cards[0].rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PS3: the drawn card or the waste top onto the stack one rank lower, any suit."""
        top = state.top(pile)
        return (len(cards) == 1 and top is not None and source in ("s", "w")
                and cards[0].rank == top.rank - 1)

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PS4: the empty stack is refilled by the effect only."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """G4: ``s>w``; PS5: two redeals, stock empty."""
        if state["s"].cards:
            return [card_move("s", "w")]
        if state.counters["redeals"] > 0:
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        if move.kind == "redeal":
            waste = state.take("w", len(state["w"]))
            state.put("s", list(reversed(waste)), face_up=False)
            state.counters["redeals"] -= 1
            return
        (card,) = state.take("s", 1)
        state.put("w", [card])

    def after_move(self, state: State, move: Move) -> None:
        """PS4: an empty stack takes the stock top, else the waste top, face up; G7: the
        stack's top is face up; G4: the next stock card is turned up."""
        if not state["r"].cards:
            source = "s" if state["s"].cards else ("w" if state["w"].cards else None)
            if source is not None:
                state.put("r", state.take(source, 1))
        state.turn_up("r")
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """PS5: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 104
