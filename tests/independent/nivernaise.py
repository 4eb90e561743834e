"""Nivernaise, written independently of the reference (from RULINGS-001.md NI1..NI8,
X1..X11 and the tightened X4).

Two packs. Cells c1..c8 (one card each), tableau t1..t6 (squared piles: only
the top card face up), foundations f1..f4 (aces, built up in suit) and f5..f8
(kings, built down in suit), stock ``s`` (face down throughout, not available).
No building: a tableau top card goes to a foundation or an empty cell, a cell
card to a foundation only. An empty tableau pile is dealt four cards at once
while the stock lasts. ``deal`` puts four cards on each pile; ``redeal`` (twice)
picks the piles up in reverse as the new stock. Counter ``redeals``: redeals
left, 2, 1, 0. Option ``foundation_transfer``: the top card of a foundation may
pass to the other foundation of its suit when that one's build rule takes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, TWO_PACKS, Card
from solitaire.moves import Move, action
from solitaire.piles import CELL, FOUNDATION, STOCK, TABLEAU, Layout, Pile, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

CELLS = 8
PILES = 6
PACKET = 4
TOTAL = 104


class Nivernaise(Variation):
    name = "nivernaise"
    title = "Nivernaise"
    deck = TWO_PACKS
    layout = Layout(
        numbered(CELL, CELLS, capacity=1),
        numbered(TABLEAU, PILES),
        numbered(FOUNDATION, 8),
        single(STOCK),
    )
    options = (
        Option(
            "foundation_transfer",
            False,
            "NI8 option: when the two foundations of a suit meet, the top card may pass from "
            "one to the other (Tournament sources); off: cards never leave a foundation",
        ),
    )

    # -- helpers -----------------------------------------------------------------
    def _up(self, foundation: str) -> bool:
        """NI3: f1..f4 are ace foundations (up), f5..f8 king foundations (down)."""
        return self.piles(FOUNDATION).index(foundation) < 4

    @staticmethod
    def _deal_onto(state: State, pile: str, cards: Sequence[Card]) -> None:
        """NI2: cards dealt onto a squared pile: every card covered turns face down, only
        the new top card is face up."""
        if not cards:
            return
        stack = state[pile].cards + tuple(cards)
        state.set_pile(pile, Pile(stack, len(stack) - 1))

    def _deal_packet(self, state: State, pile: str) -> None:
        """X5: the next (up to) four stock cards onto ``pile``, the first of them lowest."""
        count = min(PACKET, len(state["s"]))
        taken = state.take("s", count)  # lowest first: the last drawn is lowest
        self._deal_onto(state, pile, list(reversed(taken)))

    # -- rules -------------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """NI1: deck[0..7] face up to c1..c8; then 24 cards in packets of four (X5) to
        t1..t6, squared (NI2: only each top card face up); the other 72 are the stock,
        face down, deck[32] on top. Counter ``redeals`` = 2."""
        for name, card in zip(self.piles(CELL), cards[:CELLS], strict=True):
            state.put(name, [card])
        position = CELLS
        for name in self.piles(TABLEAU):
            self._deal_onto(state, name, cards[position:position + PACKET])
            position += PACKET
        state.put("s", list(reversed(cards[position:])), face_up=False)
        state.counters["redeals"] = 2

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """NI4: the top card of a tableau pile or a cell's card, singly. With
        ``foundation_transfer``, a foundation's top card (singly). The stock is not
        available."""
        if count != 1:
            return False
        kind = self.kind(pile)
        if kind in (TABLEAU, CELL):
            return True
        if kind == FOUNDATION:
            return bool(state.option("foundation_transfer"))
        return False

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """NI3: f1..f4 build up in suit from an ace, f5..f8 down in suit from a king; an ace
        (king) may start an empty ace (king) foundation only when no ace (king) foundation
        of its suit exists. One card at a time, from a tableau pile or a cell (NI4). With
        ``foundation_transfer`` also from a foundation of the other set onto the other
        (started) foundation of the card's suit, when its build rule takes the card."""
        if len(cards) != 1:
            return False
        card = cards[0]
        up = self._up(foundation)
        source_kind = self.kind(source)
        pile = state[foundation]
        if source_kind == FOUNDATION:
            if not state.option("foundation_transfer") or self._up(source) == up or not pile.cards:
                return False
        elif source_kind not in (TABLEAU, CELL):
            return False
        if not pile.cards:
            if card.rank != (ACE if up else KING):
                return False
            same_set = [n for n in self.piles(FOUNDATION) if self._up(n) == up]
            return all(state[n].cards[0].suit != card.suit for n in same_set if state[n].cards)
        top = pile.cards[-1]
        if card.suit != pile.cards[0].suit:
            return False
        return card.rank == top.rank + 1 if up else card.rank == top.rank - 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NI4: no building on the tableau; a cell holds one card."""
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NI4: an empty cell takes a tableau top card (no cell to cell); nothing goes into a
        tableau space."""
        return self.kind(pile) == CELL and len(cards) == 1 and self.kind(source) == TABLEAU

    def special_moves(self, state: State) -> list[Move]:
        """NI6: ``deal`` while the stock has cards. NI7: ``redeal`` while a redeal is left,
        when the stock is empty and the tableau holds a card."""
        if not state.is_empty("s"):
            return [action("deal")]
        if state.counters.get("redeals", 0) > 0 and any(
            not state.is_empty(name) for name in self.piles(TABLEAU)
        ):
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """NI6: four cards on each of t1..t6 in turn (X5), as far as the stock goes, squared
        (NI2). NI7/X6: the tableau piles (not the cells) picked up in reverse, face down,
        as the stock, which yields t1's cards bottom to top, then t2's, ..., t6's; one
        redeal fewer is left (the NI5 refill then deals the packets)."""
        if move.kind == "deal":
            for name in self.piles(TABLEAU):
                if state.is_empty("s"):
                    break
                self._deal_packet(state, name)
            return
        gathered: list[Card] = []
        for name in self.piles(TABLEAU):
            gathered.extend(state[name].cards)
            state.set_pile(name, Pile())
        state.put("s", list(reversed(gathered)), face_up=False)
        state.counters["redeals"] = state.counters.get("redeals", 0) - 1

    def after_move(self, state: State, move: Move) -> None:
        """X10, in pile order t1..t6: NI5, while the stock has cards an empty pile is dealt a
        packet of four (X5, squared); a face-down top card turns face up (NI2)."""
        for name in self.piles(TABLEAU):
            if state.is_empty(name):
                if not state.is_empty("s"):
                    self._deal_packet(state, name)
            else:
                state.turn_up(name)

    def is_won(self, state: State) -> bool:
        """NI8: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
