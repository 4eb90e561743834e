"""Clock of seed 000 (German Clock), written independently of the reference (from
RULINGS-000.md CK1..CK6, the tightened CK1/CK4/CK5, G1..G13).

One pack, all of it the stock ``s`` (deck[0] on top, face up: the drawn card) and the
waste ``w``; thirteen rank piles f1 (aces) .. f13 (kings). Counter ``redeals`` = redeals
left (1). Options ``primary_suit`` (first | c | d | h | s) and ``suit_sequence`` (off).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

RANKS = 13


class ClockDial(Variation):
    name = "clock_dial"
    title = "Clock (seed 000)"
    deck = ONE_PACK
    layout = Layout(single(STOCK), single(WASTE), numbered(FOUNDATION, RANKS))
    options = (
        Option("primary_suit", "first", "CK3: the suit every pile starts with",
               choices=("first", "c", "d", "h", "s")),
        Option("suit_sequence", False, "CK5: the k-th card of every pile has one suit"),
    )

    def _primary(self, state: State) -> str | None:
        """CK3: a fixed suit, or (``first``) the suit of any pile's first card."""
        chosen = str(state.option("primary_suit"))
        if chosen != "first":
            return chosen.upper()
        for name in self.piles(FOUNDATION):
            if state[name].cards:
                return state[name].cards[0].suit
        return None

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """CK1/G3/G4: the whole pack is the stock, deck[0] on top and face up; one redeal."""
        state.put("s", list(reversed(cards)), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = 1

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """CK2: the drawn card and the waste top, one at a time."""
        return count == 1 and self.kind(pile) in (STOCK, WASTE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """CK2: only to the pile of its rank. CK3: a pile's first card is of the primary suit.
        CK4: then a colour other than the pile's top. CK5: with ``suit_sequence`` the k-th
        card has the suit of any other pile's k-th card."""
        if len(cards) != 1:
            return False
        card = cards[0]
        if foundation != f"f{card.rank}":
            return False
        pile = state[foundation].cards
        if not pile:
            primary = self._primary(state)
            if primary is not None and card.suit != primary:
                return False
        elif card.color == pile[-1].color:
            return False
        if state.option("suit_sequence"):
            position = len(pile)
            for name in self.piles(FOUNDATION):
                other = state[name].cards
                if name != foundation and len(other) > position:
                    return card.suit == other[position].suit
        return True

    def special_moves(self, state: State) -> list[Move]:
        """G4: ``s>w`` while the stock has a card; G5: ``redeal`` once, stock empty."""
        if state["s"].cards:
            return [card_move("s", "w")]
        if state.counters["redeals"] > 0:
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """G4: the drawn card face up onto the waste; G5: the waste turned over unshuffled."""
        if move.kind == "redeal":
            waste = state.take("w", len(state["w"]))
            state.put("s", list(reversed(waste)), face_up=False)
            state.counters["redeals"] -= 1
            return
        (card,) = state.take("s", 1)
        state.put("w", [card])

    def after_move(self, state: State, move: Move) -> None:
        """G4: the next stock card is drawn face up."""
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """CK6: four cards on each of the thirteen piles."""
        return all(len(state[name]) == 4 for name in self.piles(FOUNDATION))
