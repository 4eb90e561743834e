"""Triad, written independently of the reference (from RULINGS-000.md TR1..TR5, the tightened
TR1/TR2, TF3/TF4, G1, G6).

36 cards (A, 6..K). Foundations f1..f4, twelve groups t1..t12 dealt in threes, face up.
Counter ``redeals`` = 2 (and ``shuffle_seed``, ``shuffles`` with ``shuffle_redeal``).
Options ``shuffle_redeal`` (off), ``shuffle_seed``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, Card, Deck
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, TABLEAU, Layout, numbered
from solitaire.state import State
from solitaire.variation import SHUFFLE_SEED_OPTION, Option, Variation

GROUPS = 12
GROUP = 3
SIX = 6


class Triad(Variation):
    name = "triad"
    title = "Triad"
    deck = Deck(1, ranks=(1, 6, 7, 8, 9, 10, 11, 12, 13))
    layout = Layout(numbered(FOUNDATION, 4), numbered(TABLEAU, GROUPS))
    options = (
        Option("shuffle_redeal", False, "TR4: a redeal shuffles the gathered cards (G6)"),
        SHUFFLE_SEED_OPTION,
    )

    def _deal_threes(self, state: State, cards: Sequence[Card]) -> None:
        for index, card in enumerate(cards):
            state.put(f"t{index // GROUP + 1}", [card])

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """TR1: in threes into t1..t12, face up; two redeals."""
        self._deal_threes(state, cards)
        state.counters["redeals"] = 2
        if state.option("shuffle_redeal"):
            self.start_shuffles(state, cards)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """TR3/TF3: a group's top card."""
        return count == 1 and self.kind(pile) == TABLEAU

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """TR2: an ace on an empty foundation, then in suit 6, 7, ..., K."""
        if len(cards) != 1:
            return False
        card, top = cards[0], state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == (SIX if top.rank == ACE else top.rank + 1)

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """TF3: onto a same-rank top of a group of fewer than three; aces never."""
        top = state.top(pile)
        return (len(cards) == 1 and top is not None and cards[0].rank != ACE
                and cards[0].rank == top.rank and len(state[pile]) < GROUP)

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """TR2 (tightened)/TF4: an empty group takes nothing."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """TR1 (tightened): ``redeal`` whenever redeals remain."""
        return [action("redeal")] if state.counters["redeals"] > 0 else []

    def apply_special(self, state: State, move: Move) -> None:
        """TR4: gather t1..t12 bottom to top and deal again in threes from t1 (shuffled first
        with ``shuffle_redeal``)."""
        gathered: list[Card] = []
        for index in range(GROUPS):
            name = f"t{index + 1}"
            gathered.extend(state.take(name, len(state[name])))
        state.counters["redeals"] -= 1
        if state.option("shuffle_redeal"):
            gathered = state.shuffled(gathered)
        self._deal_threes(state, gathered)

    def after_move(self, state: State, move: Move) -> None:
        """No effects."""

    def is_won(self, state: State) -> bool:
        """TR5: all 36 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 36
