"""Puss In Corner, written independently of the reference (from RULINGS-001.md PC1..PC7,
X1..X11 and the tightened X4, PC3, PC6).

One pack. Foundations f1..f4 (the four aces, built up by colour regardless of
suit to king), waste piles w1..w4 and the stock ``s`` (top card face up: the
card being dealt, X4). ``s>w1``..``s>w4`` place the top stock card on any waste
pile; placements come in groups of four, and only in a pause between groups may
a top waste card go to a foundation. One redeal. Counters: ``placed`` (0 in a
pause, 1..3 during a group) and ``redeals`` (redeals left, 1 then 0). Option
``free_play``: foundation moves at any time, the stock card may also go to a
foundation.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

GROUP = 4
TOTAL = 52


class PussInCorner(Variation):
    name = "puss_in_corner"
    title = "Puss In Corner"
    deck = ONE_PACK
    layout = Layout(numbered(FOUNDATION, 4), numbered(WASTE, 4), single(STOCK))
    options = (
        Option(
            "free_play",
            False,
            "PC4: foundation moves at any time and the stock card may also go straight to a "
            "foundation (Sir Tommy convention, PySolFC); off: only in the pauses",
        ),
    )

    # -- rules -------------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PC1/X3: the 4 aces, in deck order, to f1..f4; the other 48 (deck order kept)
        are the stock, its first card on top and face up (X4). Counters: ``placed`` 0
        (the pause before the first group), ``redeals`` 1."""
        aces = [card for card in cards if card.rank == ACE]
        for name, card in zip(self.piles(FOUNDATION), aces, strict=True):
            state.put(name, [card])
        rest = [card for card in cards if card.rank != ACE]
        state.put("s", list(reversed(rest)), face_up=False)
        state.turn_up("s")
        state.counters["placed"] = 0
        state.counters["redeals"] = 1

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PC4: the top card of a waste pile, singly, and only in a pause (or at any time with
        ``free_play``). The stock card moves by ``s>wN`` only, never by a card move, except with
        ``free_play`` (then singly, to a foundation). Foundation cards never move (PC5).

        (Resolved against the reference in the differential test: the pause is PC4's
        availability rule, which the public contract gives can_pick_up; this module first
        checked it in foundation_accepts alone, with the same legal moves.)"""
        if count != 1:
            return False
        kind = self.kind(pile)
        if kind == WASTE:
            in_pause = state.counters.get("placed", 0) == 0 or bool(state.option("free_play"))
            return in_pause and not state.is_empty(pile)
        if kind == STOCK:
            return bool(state.option("free_play")) and not state.is_empty(pile)
        return False

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PC2: a card of the colour of the foundation's ace, one rank above its top card,
        up to king; one card at a time. PC4: only in a pause (``placed`` = 0), and only a
        top waste card; with ``free_play`` at any time, the stock card too. An empty
        foundation (only in a built position) takes an ace."""
        if len(cards) != 1:
            return False
        source_kind = self.kind(source)
        free = bool(state.option("free_play"))
        if source_kind == STOCK:
            if not free:
                return False
        elif source_kind != WASTE:
            return False
        if not free and state.counters.get("placed", 0) != 0:
            return False
        card = cards[0]
        pile = state[foundation]
        if not pile.cards:
            return card.rank == ACE
        return card.color == pile.cards[0].color and card.rank == pile.cards[-1].rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PC5: nothing else moves (no tableau)."""
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PC5: nothing else moves (no tableau)."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """PC3: ``s>w1``..``s>w4`` while the stock has cards. PC6: ``redeal`` once, when the
        stock is empty, even if the waste piles are empty."""
        if not state.is_empty("s"):
            return [card_move("s", name) for name in self.piles(WASTE)]
        if state.counters.get("redeals", 0) > 0:
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """PC3: the top stock card goes face up on the chosen waste pile; the placement
        count goes up by one and returns to 0 (a pause) after the fourth placement or a
        placement that empties the stock. PC6: the waste piles are picked up in the order
        dealt and turned face down as the stock, which yields w1's cards from the first
        placed to the last, then w2's, w3's, w4's; no redeal is left."""
        if move.kind == "redeal":
            gathered: list[Card] = []
            for name in self.piles(WASTE):
                gathered.extend(state.take(name, len(state[name])))
            state.put("s", list(reversed(gathered)), face_up=False)
            state.counters["redeals"] = state.counters.get("redeals", 0) - 1
            state.counters["placed"] = 0
            return
        state.put(move.target, state.take("s", 1))
        placed = state.counters.get("placed", 0) + 1
        if placed >= GROUP or state.is_empty("s"):
            placed = 0
        state.counters["placed"] = placed

    def after_move(self, state: State, move: Move) -> None:
        """PC3 (tightened): with ``free_play``, a stock card played to a foundation is not a
        placement, but emptying the stock ends the group (``placed`` back to 0). X4: the
        top stock card is face up after every move and redeal."""
        if state.is_empty("s"):
            state.counters["placed"] = 0
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """PC7: all 52 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
