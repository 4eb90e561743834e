"""Pyramid, written independently of the reference (from RULINGS-001.md PY1..PY5, X1..X11
and the tightened X4, X9, PY1, PY2).

One pack. Piles t1..t28 (the pyramid, t1 the apex, row r holding
t(r(r-1)/2+1)..t(r(r+1)/2)), stock ``s`` (top card face up, X4), waste ``w`` and
the discard pile ``d`` (a target: a king goes there alone). Two available cards
totalling 13 go to ``d`` together by the engine's removal ``a+b``; a king goes
alone by an ordinary move (``t28>d``, ``s>d``, ``w>d``). Nothing else moves but
``s>w``; an emptied position stays empty. Option ``redeals`` (0, 1, 2; default 0):
that many times, with the stock empty, the waste is turned over as the stock.
Counter ``redeals``: redeals left.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import KING, ONE_PACK, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import DISCARD, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

ROWS = 7
POSITIONS = ROWS * (ROWS + 1) // 2  # 28
TOTAL = 52
SUM = 13


def _covering(index: int) -> tuple[int, ...]:
    """PY1: the 0-based positions covering position ``index``: card k of row r is covered
    by cards k and k+1 of row r+1 (none for the bottom row)."""
    row = 1
    while row * (row + 1) // 2 <= index:
        row += 1
    if row == ROWS:
        return ()
    k = index - row * (row - 1) // 2  # 0-based place in its row
    first_below = row * (row + 1) // 2
    return (first_below + k, first_below + k + 1)


COVERING = tuple(_covering(i) for i in range(POSITIONS))


class Pyramid(Variation):
    name = "pyramid"
    title = "Pyramid"
    deck = ONE_PACK
    layout = Layout(
        numbered(TABLEAU, POSITIONS), single(STOCK), single(WASTE), single(DISCARD, target=True)
    )
    options = (
        Option(
            "redeals",
            0,
            "PY4: how many times the waste may be turned over as the stock once the stock "
            "is empty (the text grants none; PySolFC 2)",
            choices=(0, 1, 2),
        ),
    )
    removes = 2

    # -- rules -------------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PY1: deck[0..27] face up into t1..t28 in rows of 1 to 7; the other 24 are the
        stock, deck[28] on top and face up (X4). Counter ``redeals`` = the option."""
        for index, name in enumerate(self.piles(TABLEAU)):
            state.put(name, [cards[index]])
        state.put("s", list(reversed(cards[POSITIONS:])), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = int(state.option("redeals"))

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PY2: available are pyramid cards covered by no card, the top stock card and the
        top waste card; one card at a time. A card still covered by one card is not
        available. Cards on the discard pile are out of play."""
        if count != 1:
            return False
        kind = self.kind(pile)
        if kind in (STOCK, WASTE):
            return not state.is_empty(pile)
        if kind != TABLEAU:
            return False
        names = self.piles(TABLEAU)
        index = names.index(pile)
        return all(state.is_empty(names[i]) for i in COVERING[index])

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PY3: a king alone goes to the discard pile; two cards go together when their
        values (A=1 .. K=13, suits ignored) total 13."""
        if foundation != "d":
            return False
        if len(cards) == 1:
            return cards[0].rank == KING
        if len(cards) == 2:
            return cards[0].rank + cards[1].rank == SUM
        return False

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PY1 (tightened): nothing is built on the pyramid."""
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PY1 (tightened): an emptied position stays empty."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """PY4/X4: ``s>w`` while the stock has cards. ``redeal`` (option ``redeals``) when
        the stock is empty and a redeal remains, even with an empty waste (PY2 tightened)."""
        if not state.is_empty("s"):
            return [card_move("s", "w")]
        if state.counters.get("redeals", 0) > 0:
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """X4: the top stock card goes face up onto the waste. PY4: ``redeal`` turns the
        waste over, unshuffled, face down, as the stock (the first card put on the waste
        is drawn first); one redeal fewer is left."""
        if move.kind == "redeal":
            waste = state.take("w", len(state["w"]))
            state.put("s", list(reversed(waste)), face_up=False)
            state.counters["redeals"] = state.counters.get("redeals", 0) - 1
            return
        state.put("w", state.take("s", 1))

    def after_move(self, state: State, move: Move) -> None:
        """X4 (tightened): the top stock card is face up after every move and redeal."""
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """PY5: all 52 cards on the discard pile."""
        return len(state["d"]) == TOTAL
