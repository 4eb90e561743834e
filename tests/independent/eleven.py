"""Eleven, written independently of the reference (from RULINGS-000.md EL1..EL4, the tightened
EL2/EL3, G10).

One pack. Stock ``s`` (face down, never drawn), discard pile ``d``, slots t1..t11 (one
face-up card each). Removals ``a+b`` (values summing to 11) and ``a+b+c`` (J, Q, K).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import JACK, KING, ONE_PACK, QUEEN, Card
from solitaire.moves import Move
from solitaire.piles import DISCARD, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

SLOTS = 11
ELEVEN = 11


class Eleven(Variation):
    name = "eleven"
    title = "Eleven"
    deck = ONE_PACK
    layout = Layout(single(STOCK), single(DISCARD), numbered(TABLEAU, SLOTS))
    removes = 3

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """EL1: deck[0..10] face up to t1..t11; the other 41 the stock, face down, deck[11] on top."""
        for index in range(SLOTS):
            state.put(f"t{index + 1}", [cards[index]])
        state.put("s", list(reversed(cards[SLOTS:])), face_up=False)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """EL2: only cards in play (the slots) are removed."""
        return count == 1 and self.kind(pile) == TABLEAU

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """EL2/EL3: two number cards (ace 1) summing to 11, or a jack, a queen and a king."""
        ranks = sorted(card.rank for card in cards)
        if len(cards) == 3:
            return ranks == [JACK, QUEEN, KING]
        return len(cards) == 2 and max(ranks) < JACK and sum(ranks) == ELEVEN

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """EL3: empty slots are refilled by the effect only."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        return []

    def apply_special(self, state: State, move: Move) -> None:
        raise ValueError(f"Eleven has no action {move}")

    def after_move(self, state: State, move: Move) -> None:
        """EL2 (tightened): every empty slot, lowest number first, takes the next stock card
        face up while the stock lasts."""
        for index in range(SLOTS):
            name = f"t{index + 1}"
            if not state[name].cards and state["s"].cards:
                state.put(name, state.take("s", 1))

    def is_won(self, state: State) -> bool:
        """EL4: all 52 cards removed."""
        return len(state["d"]) == 52
