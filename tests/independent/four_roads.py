"""Four Roads (Paganini), written independently of the reference (from RULINGS-000.md FR1..FR5,
G1, G6, G12).

36 cards (A, 6..K). The aces' column f1..f4 and a 4 x 9 grid t1..t36 read row by row; a
cell holds one card or is a gap. Counters ``redeals`` (the option's value),
``shuffle_seed``, ``shuffles``. Options ``redeals`` (2 | 1), ``shuffle_seed``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, Card, Deck
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, TABLEAU, Layout, numbered
from solitaire.state import State
from solitaire.variation import SHUFFLE_SEED_OPTION, Option, Variation

ROWS, COLUMNS = 4, 9
SIX = 6


def cell(row: int, column: int) -> str:
    """The grid cell of ``row`` and ``column`` (both from 1)."""
    return f"t{(row - 1) * COLUMNS + column}"


def follows(card: Card, left: Card) -> bool:
    """FR3: ``card`` is ``left``'s suit, one rank higher (the six after the ace)."""
    if left.rank == KING or card.suit != left.suit:
        return False
    return card.rank == (SIX if left.rank == ACE else left.rank + 1)


class FourRoads(Variation):
    name = "four_roads"
    title = "Four Roads"
    deck = Deck(1, ranks=(1, 6, 7, 8, 9, 10, 11, 12, 13))
    layout = Layout(numbered(FOUNDATION, ROWS), numbered(TABLEAU, ROWS * COLUMNS))
    options = (
        Option("redeals", 2, "FR4: how many redeals", choices=(2, 1)),
        SHUFFLE_SEED_OPTION,
    )

    def _left(self, state: State, name: str) -> Card | None:
        number = int(name[1:]) - 1
        row, column = number // COLUMNS + 1, number % COLUMNS + 1
        return state.top(f"f{row}") if column == 1 else state.top(cell(row, column - 1))

    def _run(self, state: State, row: int) -> int:
        """FR4: the length of row ``row``'s unbroken run of its suit from column 1."""
        length = 0
        left = state.top(f"f{row}")
        for column in range(1, COLUMNS + 1):
            card = state.top(cell(row, column))
            if card is None or left is None or not follows(card, left):
                break
            length, left = length + 1, card
        return length

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """FR1: row by row into t1..t36; the aces then leave for f1..f4 in deck order."""
        aces = 0
        for index, card in enumerate(cards):
            if card.rank == ACE:
                aces += 1
                state.put(f"f{aces}", [card])
            else:
                state.put(f"t{index + 1}", [card])
        state.counters["redeals"] = int(state.option("redeals"))
        self.start_shuffles(state, cards)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """FR3: any card of the grid."""
        return count == 1 and self.kind(pile) == TABLEAU

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """FR1: the aces' column takes nothing."""
        return False

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """FR3: a cell holds one card."""
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """FR3: a gap takes the card of its left neighbour's suit one rank higher."""
        left = self._left(state, pile)
        return len(cards) == 1 and left is not None and follows(cards[0], left)

    def special_moves(self, state: State) -> list[Move]:
        """FR4: ``redeal`` at any time while redeals remain."""
        return [action("redeal")] if state.counters["redeals"] > 0 else []

    def apply_special(self, state: State, move: Move) -> None:
        """FR4: keep each row's run, gather the rest in reading order, shuffle (G6), lay out
        row by row with one gap right after each run."""
        runs = [self._run(state, row) for row in range(1, ROWS + 1)]
        gathered: list[Card] = []
        for row in range(1, ROWS + 1):
            for column in range(runs[row - 1] + 1, COLUMNS + 1):
                name = cell(row, column)
                gathered.extend(state.take(name, len(state[name])))
        state.counters["redeals"] -= 1
        cards = iter(state.shuffled(gathered))
        for row in range(1, ROWS + 1):
            for column in range(runs[row - 1] + 2, COLUMNS + 1):
                state.put(cell(row, column), [next(cards)])

    def after_move(self, state: State, move: Move) -> None:
        """No effects."""

    def is_won(self, state: State) -> bool:
        """FR5: every row reads its ace, then 6..K of its suit."""
        return all(self._run(state, row) == COLUMNS - 1 for row in range(1, ROWS + 1))
