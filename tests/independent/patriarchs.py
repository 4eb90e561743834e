"""Patriarchs, written independently of the reference (from RULINGS-001.md PA1..PA8, X1..X11
and the tightened X4).

Two packs. Foundations f1..f4 (an ace of each suit, built up in suit to king) and
f5..f8 (a king of each suit, built down in suit to ace), tableau t1..t9 (one card
per position, never built on), stock ``s`` (top card face up, X4) and waste
``w``. The top card of a foundation may pass to the other foundation of its suit
when that one's build rule accepts it, never the base ace or king. An empty
tableau position is refilled at once from the waste, else from the stock. One
redeal. Counter ``redeals``: redeals left, 1 then 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

PILES = 9
TOTAL = 104


class Patriarchs(Variation):
    name = "patriarchs"
    title = "Patriarchs"
    deck = TWO_PACKS
    layout = Layout(
        numbered(FOUNDATION, 8), numbered(TABLEAU, PILES), single(STOCK), single(WASTE)
    )

    # -- helpers -----------------------------------------------------------------
    def _up(self, foundation: str) -> bool:
        """PA2: f1..f4 build up (ace foundations), f5..f8 build down (king foundations)."""
        return self.piles(FOUNDATION).index(foundation) < 4

    # -- rules -------------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PA1: the first ace and the first king of each suit in deck order come out: the
        aces to f1..f4, the kings to f5..f8, each set in deck order. Of the other 96
        (deck order kept) the first 9 go face up to t1..t9; the rest are the stock, its
        first card on top and face up (X4). Counter ``redeals`` = 1."""
        aces: list[int] = []
        kings: list[int] = []
        ace_suits: set[str] = set()
        king_suits: set[str] = set()
        for index, card in enumerate(cards):
            if card.rank == ACE and card.suit not in ace_suits:
                ace_suits.add(card.suit)
                aces.append(index)
            elif card.rank == KING and card.suit not in king_suits:
                king_suits.add(card.suit)
                kings.append(index)
        foundations = self.piles(FOUNDATION)
        for name, index in zip(foundations, aces + kings, strict=True):
            state.put(name, [cards[index]])
        taken = set(aces + kings)
        rest = [card for index, card in enumerate(cards) if index not in taken]
        for name, card in zip(self.piles(TABLEAU), rest[:PILES], strict=True):
            state.put(name, [card])
        state.put("s", list(reversed(rest[PILES:])), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = 1

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PA4: every tableau card; PA6: the top stock and waste cards; PA3: the top card
        of a foundation, but never its base ace or king. One card at a time."""
        if count != 1:
            return False
        kind = self.kind(pile)
        if kind == FOUNDATION:
            return len(state[pile]) > 1
        return kind in (TABLEAU, STOCK, WASTE) and not state.is_empty(pile)

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PA2: f1..f4 build up in suit, f5..f8 down in suit, one card at a time. PA3: a
        foundation's top card may go only to a foundation of the other set (the other
        foundation of its suit). An empty foundation (only in a built position) takes an
        ace (f1..f4) or a king (f5..f8) of a suit that set does not hold yet."""
        if len(cards) != 1:
            return False
        card = cards[0]
        up = self._up(foundation)
        if self.kind(source) == FOUNDATION and self._up(source) == up:
            return False
        pile = state[foundation]
        if not pile.cards:
            if card.rank != (ACE if up else KING):
                return False
            same_set = [n for n in self.piles(FOUNDATION) if self._up(n) == up]
            return all(state[n].cards[0].suit != card.suit for n in same_set if state[n].cards)
        top = pile.cards[-1]
        if card.suit != top.suit:
            return False
        return card.rank == top.rank + 1 if up else card.rank == top.rank - 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PA4: nothing is built on the tableau."""
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PA4: cards enter the tableau only by the PA5 refill, never by a move."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """X4: ``s>w`` while the stock has cards. PA7: ``redeal`` once, when the stock is
        empty (decision: even with an empty waste, as the confirmed M6)."""
        if not state.is_empty("s"):
            return [card_move("s", "w")]
        if state.counters.get("redeals", 0) > 0:
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """X4: the top stock card goes face up onto the waste. PA7: the waste turned over,
        unshuffled, face down, as the stock (first discarded, first drawn)."""
        if move.kind == "redeal":
            waste = state.take("w", len(state["w"]))
            state.put("s", list(reversed(waste)), face_up=False)
            state.counters["redeals"] = state.counters.get("redeals", 0) - 1
            return
        state.put("w", state.take("s", 1))

    def after_move(self, state: State, move: Move) -> None:
        """PA5: each empty tableau position, t1..t9 in order, is filled at once from the top
        of the waste, or from the top of the stock when the waste is empty; with both
        empty it stays empty. X4: then the top stock card is face up."""
        for name in self.piles(TABLEAU):
            if not state.is_empty(name):
                continue
            if not state.is_empty("w"):
                state.put(name, state.take("w", 1))
            elif not state.is_empty("s"):
                state.put(name, state.take("s", 1))
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """PA8: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
