"""Metternikh (Doublets), written independently of the reference (from RULINGS-000.md
MK1..MK7, G1..G13).

48 cards (no kings). Stock ``s`` (top face up: the drawn card), waste ``w``, foundation f1
(the base card), horseshoe t1..t7 (one face-up card each). Counter ``redeals`` = 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import Card, Deck
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

CYCLE = 13
HORSESHOE = 7


def doubles(upper: Card, lower: Card) -> bool:
    """MK2: ``upper`` fits on ``lower`` when its value is twice the lower's, less 13 past 13."""
    wanted = 2 * lower.rank
    if wanted > CYCLE:
        wanted -= CYCLE
    return upper.rank == wanted


class Metternikh(Variation):
    name = "metternikh"
    title = "Metternikh"
    deck = Deck(1, ranks=tuple(range(1, 13)))
    layout = Layout(single(STOCK), single(WASTE), numbered(FOUNDATION, 1), numbered(TABLEAU, HORSESHOE))

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """MK1: deck[0..6] to t1..t7, deck[7] to f1, the rest the stock (deck[8] on top, up)."""
        for index in range(HORSESHOE):
            state.put(f"t{index + 1}", [cards[index]])
        state.put("f1", [cards[HORSESHOE]])
        state.put("s", list(reversed(cards[HORSESHOE + 1:])), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = 1

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """MK3/MK4: a horseshoe top, the drawn card, the waste top; one at a time."""
        return count == 1 and self.kind(pile) in (TABLEAU, STOCK, WASTE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """MK3: by doubling (MK2)."""
        top = state.top(foundation)
        return len(cards) == 1 and top is not None and doubles(cards[0], top)

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MK4: the drawn card or the waste top onto a horseshoe top by doubling; no pile to pile."""
        top = state.top(pile)
        return len(cards) == 1 and top is not None and source in ("s", "w") and doubles(cards[0], top)

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MK5: spaces are refilled by the effect only."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """G4: ``s>w``; MK6: one ``redeal`` with the stock empty."""
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
        """MK5: an empty horseshoe pile takes the waste top, else the drawn card; then the
        next stock card is turned up."""
        for index in range(HORSESHOE):
            name = f"t{index + 1}"
            if state[name].cards:
                continue
            source = "w" if state["w"].cards else ("s" if state["s"].cards else None)
            if source is not None:
                state.put(name, state.take(source, 1))
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """MK7: all 48 cards on f1."""
        return len(state["f1"]) == 48
