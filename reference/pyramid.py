"""Pyramid (1 pack): discard kings alone and pairs totalling 13 until all 52 cards are gone.

Layout: the pyramid ``t1``..``t28`` (``t1`` the apex, row r holding
``t(r(r-1)/2+1)``..``t(r(r+1)/2)``, one card each), the stock ``s`` (its top
card face up: the drawn card), the waste ``w`` and the discard pile ``d``
(the rulings' "f1 discard"). Removals are the engine's: ``a+b`` for a pair
(``removes = 2``), ``t28>d`` for a king alone. The counter ``redeals`` counts
the redeals left (the option ``redeals``, 0 by default).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import KING, ONE_PACK, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import DISCARD, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

ROWS = 7
PYRAMID = ROWS * (ROWS + 1) // 2  # 28 cards
TOTAL = 13
REDEAL = action("redeal")
TURN = card_move("s", "w")


class Pyramid(Variation):
    name = "pyramid"
    title = "Pyramid"
    deck = ONE_PACK
    layout = Layout(
        numbered(TABLEAU, PYRAMID),
        single(STOCK),
        single(WASTE),
        single(DISCARD, target=True),
    )
    removes = 2
    options = (
        Option(
            "redeals",
            0,
            "PY4: how many times the waste may be turned over, unshuffled, as the stock "
            "once the stock is empty (the text grants none; PySolFC allows 2)",
            choices=(0, 1, 2),
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PY1, X3, X4: deal 28 cards face up in rows of 1 to 7, row by row.

        The first card is the apex ``t1``, the next two row 2 (``t2``, ``t3``),
        and so on: the 28th card is ``t28``, the right end of row 7. The other
        24 cards are the stock, face down, the 29th card of the deck on top;
        the top stock card is face up, the drawn card (X4). The counter
        ``redeals`` starts at the option ``redeals`` (PY4).
        """
        ### BEGIN SOLUTION
        for pile, card in zip(self.piles(TABLEAU), cards[:PYRAMID], strict=True):
            state.put(pile, [card])
        state.put("s", reversed(cards[PYRAMID:]), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = int(state.option("redeals"))
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PY2, X4, X9: which cards are available, one at a time.

        A pyramid card is available when no card covers it: card k of row r is
        covered by cards k and k+1 of row r+1, so it is free once both of those
        positions are empty (row 7 is free from the start, ``t22``..``t28``). A
        card still covered by one card is not available, not even to pair with
        that card. The top stock card (the drawn card) and the top waste card
        are available. Nothing leaves the discard pile.
        """
        ### BEGIN SOLUTION
        if count != 1:
            return False
        kind = self.kind(pile)
        if kind in (STOCK, WASTE):
            return True
        if kind != TABLEAU:
            return False
        index = self.piles(TABLEAU).index(pile)
        row = 1
        while row * (row + 1) // 2 <= index:
            row += 1
        if row == ROWS:
            return True
        below = row * (row + 1) // 2 + index - row * (row - 1) // 2  # card k's left coverer, 0-based
        piles = self.piles(TABLEAU)
        return state.is_empty(piles[below]) and state.is_empty(piles[below + 1])
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PY3, X9: what the discard pile ``d`` takes.

        Values: ace 1, 2..10 as numbered, jack 11, queen 12, king 13; suits are
        ignored. A king goes alone (``t28>d``, ``s>d``, ``w>d``); any other
        single card does not. Two available cards go together (``t22+t27``,
        ``s+w``) when their values total 13: a king never pairs.
        """
        ### BEGIN SOLUTION
        if len(cards) == 1:
            return cards[0].rank == KING
        return len(cards) == 2 and cards[0].rank + cards[1].rank == TOTAL
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """Tightened PY1: nothing is built on the pyramid; only removals and ``s>w`` move cards."""
        ### BEGIN SOLUTION
        return False  # whatever the cards
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """Tightened PY1: an emptied pyramid position stays empty; it takes no card."""
        ### BEGIN SOLUTION
        return False  # whatever the source
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """PY4, X4, tightened PY2: the actions.

        ``s>w`` turns the drawn card onto the waste; it is always legal while
        the stock has cards, even when the card could be discarded. ``redeal``
        is legal when the stock is empty and a redeal is left (counter
        ``redeals`` above 0), even with an empty waste; with the default
        option ``redeals`` = 0 there is none.
        """
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [TURN]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """PY4, X4: what the actions do.

        ``s>w`` puts the top stock card face up on the waste. ``redeal`` turns
        the whole waste over, unshuffled, as the stock, face down: the first
        card put on the waste (its bottom card) is the next card drawn. The
        counter ``redeals`` drops by 1.
        """
        ### BEGIN SOLUTION
        if move == REDEAL:
            waste = state.take("w", len(state["w"]))
            state.put("s", reversed(waste), face_up=False)
            state.counters["redeals"] -= 1
        else:
            state.put("w", state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """X4, tightened X4: after every move and redeal the top stock card is turned
        face up (it is the drawn card); the rest of the stock stays face down.
        Nothing else happens by itself: an emptied pyramid position stays empty.
        """
        ### BEGIN SOLUTION
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """PY5, X9: won when all 52 cards are on the discard pile ``d``: the pyramid,
        the stock and the waste all gone."""
        ### BEGIN SOLUTION
        return len(state["d"]) == self.deck.size
        ### END SOLUTION
