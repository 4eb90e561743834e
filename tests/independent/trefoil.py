"""Trefoil of seed 000, written independently of the reference (from RULINGS-000.md TF1..TF6,
G6, G12).

One pack: foundations f1..f4 and eighteen piles t1..t18 dealt in threes (t18 one card), all
face up. Counters ``redeals`` = 2, ``shuffle_seed`` and ``shuffles`` (G6); option
``shuffle_seed``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, TABLEAU, Layout, numbered
from solitaire.state import State
from solitaire.variation import SHUFFLE_SEED_OPTION, Variation

PILES = 18
GROUP = 3


class Trefoil(Variation):
    name = "trefoil"
    title = "Trefoil"
    deck = ONE_PACK
    layout = Layout(numbered(FOUNDATION, 4), numbered(TABLEAU, PILES))
    options = (SHUFFLE_SEED_OPTION,)

    def _deal_threes(self, state: State, cards: Sequence[Card]) -> None:
        for index, card in enumerate(cards):
            state.put(f"t{index // GROUP + 1}", [card])

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """TF1: three cards a pile from t1 (the third on top), t18 one card; face up."""
        self._deal_threes(state, cards)
        state.counters["redeals"] = 2
        self.start_shuffles(state, cards)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """TF3: a pile's top card, one at a time."""
        return count == 1 and self.kind(pile) == TABLEAU

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """TF2: an ace on an empty foundation, then up in suit to the king."""
        if len(cards) != 1:
            return False
        top = state.top(foundation)
        if top is None:
            return cards[0].rank == ACE
        return cards[0].suit == top.suit and cards[0].rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """TF3: onto a top of the same rank on a pile of fewer than three; never an ace."""
        top = state.top(pile)
        return (len(cards) == 1 and top is not None and cards[0].rank != ACE
                and cards[0].rank == top.rank and len(state[pile]) < GROUP)

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """TF4: an emptied pile takes nothing."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """TF5: ``redeal`` at any time while redeals remain."""
        return [action("redeal")] if state.counters["redeals"] > 0 else []

    def apply_special(self, state: State, move: Move) -> None:
        """TF5: gather t1..t18 bottom to top, shuffle (G6), deal again in threes from t1."""
        gathered: list[Card] = []
        for index in range(PILES):
            name = f"t{index + 1}"
            gathered.extend(state.take(name, len(state[name])))
        state.counters["redeals"] -= 1
        self._deal_threes(state, state.shuffled(gathered))

    def after_move(self, state: State, move: Move) -> None:
        """No effects."""

    def is_won(self, state: State) -> bool:
        """TF6: all 52 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 52
