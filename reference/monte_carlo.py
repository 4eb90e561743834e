"""Monte Carlo (1 pack): pair touching cards of equal rank on a 5x5 grid, close the gaps, refill.

Layout: the grid ``t1``..``t25`` in reading order (``t1``..``t5`` is the top
row), one card per position; the discard pile ``d`` (the text's f1), where
pairs go and nothing else; the stock ``s``, face down throughout and never
available. A pair is one removal ``ta+tb`` (X9). ``deal`` closes the gaps and
refills the grid from the stock. No counters, no phases, no redeal.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card
from solitaire.moves import Move, action
from solitaire.piles import DISCARD, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

SIDE = 5  # the grid is SIDE rows of SIDE positions
POSITIONS = SIDE * SIDE
DEAL = action("deal")


class MonteCarlo(Variation):
    name = "monte_carlo"
    title = "Monte Carlo"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, POSITIONS), single(DISCARD), single(STOCK))
    removes = 2

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """MC1, X3: deal 25 cards face up row by row into the grid: the first card
        to ``t1``, the fifth to ``t5`` (the top row), the 25th to ``t25``.

        The other 27 cards are the stock, face down, the 26th card of the deck
        on top (dealt first).
        """
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        for index, card in enumerate(cards[:POSITIONS]):
            state.put(piles[index], [card])
        state.put("s", reversed(cards[POSITIONS:]), face_up=False)
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """MC2, MC1: every grid card is available (to be paired); a position holds
        one card at most, so only ``count`` 1 is ever asked of it.

        The stock is not available, and cards on the discard pile are out of
        play (X9).
        """
        ### BEGIN SOLUTION
        return self.kind(pile) == TABLEAU
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """MC2, MC3, X9: the discard pile takes a pair ``ta+tb``: two cards of equal
        rank, suits ignored, whose positions are adjacent.

        MC3: positions (not cards) are adjacent when their rows differ by at
        most 1 and their columns by at most 1 (across, up and down, diagonally);
        row ends do not wrap (``t5`` and ``t6`` are not adjacent). The two
        positions are read from the removal as written (``source`` = "t3+t8").
        Only pairs of grid cards are ever asked: no single card goes to the
        discard pile (it is no target), and only grid cards are available (MC2).
        """
        ### BEGIN SOLUTION
        positions = self.piles(TABLEAU)  # t1..t25 in reading order: row, column = divmod(index, SIDE)
        first, second = cards
        (row_a, col_a), (row_b, col_b) = (divmod(positions.index(name), SIDE) for name in source.split("+"))
        return first.rank == second.rank and abs(row_a - row_b) <= 1 and abs(col_a - col_b) <= 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MC2: nothing is built: a card never goes onto another grid card."""
        ### BEGIN SOLUTION
        return False  # nothing is built
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MC4: an empty position is filled only by ``deal``, never by moving a card into it."""
        ### BEGIN SOLUTION
        return False  # only deal fills a position
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """MC4, X1: ``deal`` is legal when it changes the grid: an empty position
        lies before (in reading order) a position holding a card, or a position
        is empty and the stock has cards. The player decides when (X1).
        """
        ### BEGIN SOLUTION
        filled = [not state.is_empty(pile) for pile in self.piles(TABLEAU)]
        count = sum(filled)
        gap_before_card = not all(filled[:count])
        refill = count < POSITIONS and not state.is_empty("s")
        return [DEAL] if gap_before_card or refill else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """MC4: ``deal`` consolidates, then fills. The grid cards slide towards
        ``t1`` keeping their reading order, so that k cards occupy ``t1``..``tk``
        (a row's first card wraps to the end of the row above); then
        ``t(k+1)``..``t25`` are filled in order from the top of the stock, face
        up, as far as the stock goes.
        """
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        remaining = [card for pile in piles for card in state.take(pile, len(state[pile].cards))]
        for pile, card in zip(piles, remaining, strict=False):
            state.put(pile, [card])
        for pile in piles[len(remaining):]:
            if not state.is_empty("s"):
                state.put(pile, state.take("s"))
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """MC5, X9: the game is won when all 52 cards are on the discard pile."""
        ### BEGIN SOLUTION
        return len(state["d"]) == self.deck.size
        ### END SOLUTION
