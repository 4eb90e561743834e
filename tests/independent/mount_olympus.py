"""Mount Olympus, written independently of the reference (from RULINGS-001.md MO1..MO7, X1..X11).

Two packs. Tableau t1..t9 (one face-up card each at the start), foundations
f1..f16 (the aces on f1..f8 and the twos on f9..f16 from the start, each building
up in suit by twos) and the stock ``s`` (face down throughout, not available).
Tableau piles pack down by twos in suit; a group (a top run descending by twos
in one suit) moves in whole or in part. While the stock has cards a pile that
becomes empty is refilled at once with the top stock card; once the stock is
empty a space takes any tableau top card or group. ``deal`` puts the next nine
stock cards on t1..t9. No redeal, no counters.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

PILES = 9
FOUNDATIONS = 16
TWO = 2
STEP = 2
TOTAL = 104


def _fits(upper: Card, lower: Card) -> bool:
    """MO3: ``upper`` may lie on ``lower``: the same suit, two ranks lower."""
    return upper.suit == lower.suit and upper.rank == lower.rank - STEP


class MountOlympus(Variation):
    name = "mount_olympus"
    title = "Mount Olympus"
    deck = TWO_PACKS
    layout = Layout(numbered(TABLEAU, PILES), numbered(FOUNDATION, FOUNDATIONS), single(STOCK))

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """MO1/X3: the 8 aces, in deck order, to f1..f8 and the 8 twos, in deck order, to
        f9..f16; of the other 88 (deck order kept) the first 9 go face up to t1..t9 and
        the rest are the stock, face down, its first card on top."""
        foundations = self.piles(FOUNDATION)
        aces = [card for card in cards if card.rank == ACE]
        twos = [card for card in cards if card.rank == TWO]
        for name, card in zip(foundations, aces + twos, strict=True):
            state.put(name, [card])
        rest = [card for card in cards if card.rank not in (ACE, TWO)]
        for name, card in zip(self.piles(TABLEAU), rest[:PILES], strict=True):
            state.put(name, [card])
        state.put("s", list(reversed(rest[PILES:])), face_up=False)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """MO3: from a tableau pile, any top part of its group (face-up cards each two ranks
        below the one under it, one suit). The stock is not available (MO1); foundation
        cards never move."""
        if self.kind(pile) != TABLEAU:
            return False
        stack = state[pile]
        if count > len(stack.face_up):
            return False
        moving = stack.cards[-count:]
        return all(_fits(moving[i + 1], moving[i]) for i in range(count - 1))

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """MO2: one card of the foundation's suit, two ranks above its top card (aces
        A-3-5-7-9-J-K, twos 2-4-6-8-T-Q). Every foundation is started at the deal (MO1),
        so an empty one takes nothing."""
        if len(cards) != 1:
            return False
        top = state.top(foundation)
        card = cards[0]
        return top is not None and card.suit == top.suit and card.rank == top.rank + STEP

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MO3: the lowest moved card is of the pile's top card's suit, two ranks below it."""
        stack = state[pile]
        return stack.top_is_face_up and _fits(cards[0], stack.cards[-1])

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MO5: once the stock is empty, a space takes any tableau top card or group. (While
        the stock has cards MO4 leaves no space.)"""
        return state.is_empty("s") and self.kind(pile) == TABLEAU and self.kind(source) == TABLEAU

    def special_moves(self, state: State) -> list[Move]:
        """MO6: ``deal`` while the stock has cards; no redeal."""
        return [] if state.is_empty("s") else [action("deal")]

    def apply_special(self, state: State, move: Move) -> None:
        """MO6: the next stock cards, one face up on each of t1..t9 in order, as far as the
        stock goes."""
        for name in self.piles(TABLEAU):
            if state.is_empty("s"):
                break
            state.put(name, state.take("s", 1))

    def after_move(self, state: State, move: Move) -> None:
        """X10: an exposed face-down tableau card turns up (none in a game from a deal);
        MO4: while the stock has cards, each empty tableau pile, t1..t9 in order, at once
        receives the top stock card, face up."""
        for name in self.piles(TABLEAU):
            state.turn_up(name)
            if state.is_empty(name) and not state.is_empty("s"):
                state.put(name, state.take("s", 1))

    def is_won(self, state: State) -> bool:
        """MO7: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
