"""Perseverance, written independently of the reference (from RULINGS-001.md PE1..PE6,
X1..X11).

One pack. Tableau t1..t12 (four face-up cards each at the start), foundations
f1..f4 (the four aces, built up in suit to king). Tableau piles pack down in
suit; a group moves in whole or in part; spaces are never filled. ``redeal``,
twice, at any time while the tableau holds a card: the piles are picked up in
reverse (t1's cards first, bottom to top, then t2's, ...) and dealt again, in
packets of four to t1, t2, ... (option ``redeal_by="packets"``, the default) or
one card at a time across t1..t12 (``"rows"``). Counter ``redeals``: redeals
left, 2, 1, 0. No stock.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, TABLEAU, Layout, Pile, numbered
from solitaire.state import State
from solitaire.variation import Option, Variation

PILES = 12
PACKET = 4
TOTAL = 52


def _fits(upper: Card, lower: Card) -> bool:
    """PE3: ``upper`` may lie on ``lower``: same suit, one rank lower."""
    return upper.suit == lower.suit and upper.rank == lower.rank - 1


class Perseverance(Variation):
    name = "perseverance"
    title = "Perseverance"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, PILES), numbered(FOUNDATION, 4))
    options = (
        Option(
            "redeal_by",
            "packets",
            "PE5: how a redeal deals the gathered cards again: 'packets' (four to t1, four to "
            "t2, ...; Cruel, Wikipedia, PySolFC) or 'rows' (one card at a time across "
            "t1..t12, like the first deal)",
            choices=("packets", "rows"),
        ),
    )

    # -- helpers -----------------------------------------------------------------
    def _group_length(self, state: State, pile: str) -> int:
        """X8: the face-up cards at the top of ``pile`` descending by one in suit."""
        face_up = state[pile].face_up
        if not face_up:
            return 0
        length = 1
        while length < len(face_up) and _fits(face_up[-length], face_up[-length - 1]):
            length += 1
        return length

    # -- rules -------------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PE1/X3: the 4 aces, in deck order, to f1..f4; the other 48 (deck order kept) row
        by row, 4 rows of 12, face up into t1..t12. Counter ``redeals`` = 2."""
        aces = [card for card in cards if card.rank == ACE]
        for name, card in zip(self.piles(FOUNDATION), aces, strict=True):
            state.put(name, [card])
        rest = [card for card in cards if card.rank != ACE]
        names = self.piles(TABLEAU)
        for index, card in enumerate(rest):
            state.put(names[index % PILES], [card])
        state.counters["redeals"] = 2

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PE3: from a tableau pile its group (X8) in whole or in part. Foundation cards
        never move."""
        return self.kind(pile) == TABLEAU and count <= self._group_length(state, pile)

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PE2: up in suit to king, one card at a time (an empty foundation, only in a built
        position, takes an ace)."""
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PE3: the lowest moved card is of the pile top's suit and one rank lower."""
        stack = state[pile]
        return stack.top_is_face_up and _fits(cards[0], stack.cards[-1])

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PE4: spaces are never filled."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """PE5: ``redeal`` while a redeal is left and the tableau holds a card."""
        if state.counters.get("redeals", 0) > 0 and any(
            not state.is_empty(name) for name in self.piles(TABLEAU)
        ):
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """PE5/X6: reverse pick-up: the gathered cards come out as t1's from bottom to top,
        then t2's, ..., t12's; they are dealt again face up, in packets of four (X5) to t1,
        t2, ... as far as they go (``redeal_by="packets"``), or one at a time across
        t1..t12 as the first deal (``"rows"``); the other piles stay empty."""
        names = self.piles(TABLEAU)
        gathered: list[Card] = []
        for name in names:
            gathered.extend(state[name].cards)
            state.set_pile(name, Pile())
        if state.option("redeal_by") == "rows":
            for index, card in enumerate(gathered):
                state.put(names[index % PILES], [card])
        else:
            for index, card in enumerate(gathered):
                state.put(names[index // PACKET], [card])
        state.counters["redeals"] = state.counters.get("redeals", 0) - 1

    def after_move(self, state: State, move: Move) -> None:
        """No effects: every card is face up and spaces are never filled."""

    def is_won(self, state: State) -> bool:
        """PE6: all 52 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
