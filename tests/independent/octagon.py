"""Octagon, written independently of the reference (from RULINGS-000.md OC1..OC7, G4, G5, G7).

Two packs. Stock ``s`` (top face up: the drawn card), waste ``w``, foundations f1..f8 (an ace
each), corners t1..t4 (closed: top face up). Counter ``redeals`` = 2. Option ``corner_suit``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

CORNERS = 4
ROUNDS = 5


class Octagon(Variation):
    name = "octagon"
    title = "Octagon"
    deck = TWO_PACKS
    layout = Layout(single(STOCK), single(WASTE), numbered(FOUNDATION, 8), numbered(TABLEAU, CORNERS))
    options = (Option("corner_suit", True, "OC3: corners build down in suit"),)

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """OC1: the aces to f1..f8 in deck order; the next 20 cards round-robin into t1..t4,
        closed; the other 76 the stock."""
        aces = [card for card in cards if card.rank == ACE]
        rest = [card for card in cards if card.rank != ACE]
        for index, ace in enumerate(aces):
            state.put(f"f{index + 1}", [ace])
        for index in range(CORNERS * ROUNDS):
            state.put(f"t{index % CORNERS + 1}", [rest[index]], face_up=False)
        for index in range(CORNERS):
            state.turn_up(f"t{index + 1}")
        state.put("s", list(reversed(rest[CORNERS * ROUNDS:])), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = 2

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """OC3: a corner top, the drawn card, the waste top; OC4: a foundation's top, never its ace."""
        if count != 1:
            return False
        if self.kind(pile) == FOUNDATION:
            return len(state[pile]) > 1
        return self.kind(pile) in (STOCK, WASTE, TABLEAU)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """OC2: up in suit to the king; OC4: a foundation card goes back only to a corner."""
        top = state.top(foundation)
        if len(cards) != 1 or top is None or self.kind(source) == FOUNDATION:
            return False
        return cards[0].suit == top.suit and cards[0].rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """OC3: onto a corner's top one rank higher, in suit with ``corner_suit``."""
        top = state.top(pile)
        if len(cards) != 1 or top is None or cards[0].rank != top.rank - 1:
            return False
        return not state.option("corner_suit") or cards[0].suit == top.suit

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """OC5: an empty corner takes nothing by a move."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """G4: ``s>w``; OC6: two redeals, stock empty."""
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
        """OC5: an empty corner takes the next five stock cards (the first at the bottom),
        closed, corners in number order; G7: corner tops face up; G4: the drawn card."""
        for index in range(CORNERS):
            name = f"t{index + 1}"
            if not state[name].cards and state["s"].cards:
                taken = state.take("s", min(ROUNDS, len(state["s"])))
                state.put(name, list(reversed(taken)), face_up=False)
            state.turn_up(name)
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """OC7: every foundation ends with its king."""
        return all(len(state[name]) == 13 for name in self.piles(FOUNDATION))
