"""Monte Carlo, written independently of the reference (from RULINGS-001.md MC1..MC5,
X1..X11 and the tightened X4, X9).

One pack. A 5x5 grid t1..t25 (one card per position, reading order, t1..t5
the top row), the discard pile ``d`` and the stock ``s`` (face down throughout,
not available). Two grid cards of equal rank whose positions touch (rows and
columns each differ by at most one, no wrap at the row ends) go to ``d``
together by the engine's removal ``ta+tb``. ``deal`` closes the gaps towards t1
in reading order and fills the positions after the last card from the stock.
No counters.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card
from solitaire.moves import Move, action
from solitaire.piles import DISCARD, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

SIDE = 5
POSITIONS = SIDE * SIDE
TOTAL = 52


def _adjacent(a: int, b: int) -> bool:
    """MC3: 0-based positions ``a`` and ``b`` (distinct) touch: rows and columns each
    differ by at most 1; row ends do not wrap."""
    return a != b and abs(a // SIDE - b // SIDE) <= 1 and abs(a % SIDE - b % SIDE) <= 1


class MonteCarlo(Variation):
    name = "monte_carlo"
    title = "Monte Carlo"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, POSITIONS), single(DISCARD), single(STOCK))
    removes = 2

    # -- rules -------------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """MC1: deck[0..24] face up into t1..t25 in reading order; the other 27 are the
        stock, face down, deck[25] on top."""
        for index, name in enumerate(self.piles(TABLEAU)):
            state.put(name, [cards[index]])
        state.put("s", list(reversed(cards[POSITIONS:])), face_up=False)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """MC2: every grid card is available, singly. The stock is not available (MC1);
        cards on the discard pile are out of play."""
        return count == 1 and self.kind(pile) == TABLEAU and not state.is_empty(pile)

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """MC2/MC3: two grid cards of equal rank, suits ignored, whose positions (read from
        the removal ``ta+tb``) are adjacent, go to the discard pile together. Nothing goes
        there alone."""
        if foundation != "d" or len(cards) != 2 or cards[0].rank != cards[1].rank:
            return False
        names = source.split("+")
        grid = self.piles(TABLEAU)
        if len(names) != 2 or any(name not in grid for name in names):
            return False
        return _adjacent(grid.index(names[0]), grid.index(names[1]))

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MC2: nothing is built on the grid (one card per position)."""
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MC4: positions are filled only by ``deal``."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """MC4: ``deal`` when it changes the grid: an empty position lies before a card, or a
        position is empty and the stock has cards."""
        filled = [not state.is_empty(name) for name in self.piles(TABLEAU)]
        if not all(filled) and not state.is_empty("s"):
            return [action("deal")]
        last_card = max((i for i, full in enumerate(filled) if full), default=-1)
        # (an empty grid has no card behind a gap: slicing to -1 once said otherwise, found by
        # the differential test on a won game)
        if last_card >= 0 and any(not full for full in filled[:last_card]):
            return [action("deal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """MC4: the grid cards slide towards t1 keeping their reading order, occupying
        t1..tk; then t(k+1)..t25 are filled in order, face up, from the stock top as far as
        it goes."""
        grid = self.piles(TABLEAU)
        remaining: list[Card] = []
        for name in grid:
            remaining.extend(state.take(name, len(state[name])))
        for name, card in zip(grid, remaining, strict=False):
            state.put(name, [card])
        for name in grid[len(remaining):]:
            if state.is_empty("s"):
                break
            state.put(name, state.take("s", 1))

    def after_move(self, state: State, move: Move) -> None:
        """No effects: the stock stays face down, nothing refills by itself."""

    def is_won(self, state: State) -> bool:
        """MC5: all 52 cards on the discard pile."""
        return len(state["d"]) == TOTAL
