"""Cotillion (Contradance), written independently of the reference (from RULINGS-000.md
CT1..CT5, G3..G5).

Two packs. Stock ``s`` (top face up: the drawn card), waste ``w``, five-foundations f1..f8
and six-foundations f9..f16. Counter ``redeals`` = 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, QUEEN, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

FIVE, SIX = 5, 6


class Cotillion(Variation):
    name = "cotillion"
    title = "Cotillion"
    deck = TWO_PACKS
    layout = Layout(single(STOCK), single(WASTE), numbered(FOUNDATION, 16))

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """CT1: fives to f1..f8 and sixes to f9..f16 in deck order; the rest the stock."""
        fives = [card for card in cards if card.rank == FIVE]
        sixes = [card for card in cards if card.rank == SIX]
        rest = [card for card in cards if card.rank not in (FIVE, SIX)]
        for index, card in enumerate(fives):
            state.put(f"f{index + 1}", [card])
        for index, card in enumerate(sixes):
            state.put(f"f{index + 9}", [card])
        state.put("s", list(reversed(rest)), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = 1

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """CT3: the drawn card and the waste top."""
        return count == 1 and self.kind(pile) in (STOCK, WASTE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """CT2: fives down in suit 4 3 2 A K; sixes up in suit 7..Q; nothing on a finished pile."""
        if len(cards) != 1:
            return False
        card, top = cards[0], state.top(foundation)
        if top is None or card.suit != top.suit:
            return False
        if int(foundation[1:]) <= 8:
            if top.rank == KING:
                return False
            return card.rank == (KING if top.rank == ACE else top.rank - 1)
        return top.rank < QUEEN and card.rank == top.rank + 1

    def special_moves(self, state: State) -> list[Move]:
        """G4: ``s>w``; CT4: one ``redeal``, stock empty."""
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
        """G4: the next stock card is turned up."""
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """CT5: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 104
