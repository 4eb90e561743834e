"""Four Roads (36 cards, A and 6..K): a Montana-type game; the aces head four rows built 6 to K in suit.

Layout, in order: the aces' column ``f1``..``f4`` (``f_r`` heads row r: one
ace each after the deal), then the grid ``t1``..``t36``, four rows of nine
cells read row by row (``t1``..``t9`` row 1, ``t10``..``t18`` row 2, ...;
each cell holds one card or is a gap, i.e. empty). No stock. All cards face
up. Counters: ``redeals`` = redeals left (the option's value after the
deal); ``shuffle_seed`` = the seed of the in-game shuffles (the option's
value, or when that is 0 the seed derived from the deal, docs/engine.md
"In-game shuffles"); ``shuffles`` = shuffles done (0 after the deal).
Options: ``redeals`` (2 | 1, default 2); ``shuffle_seed`` (an integer
0..2**64-1, default 0 = derived from the deal). Action: ``redeal``. The phase
is always ``play``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, STRIPPED_36, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, TABLEAU, Layout, numbered
from solitaire.state import State
from solitaire.variation import SHUFFLE_SEED_OPTION, Option, Variation

ROWS = 4
COLUMNS = 9
SIX = 6  # the rank after the ace in this deck
REDEAL = action("redeal")


def next_rank(rank: int) -> int | None:
    """The rank that follows ``rank`` in a row: the six after the ace, none after the king."""
    if rank == ACE:
        return SIX
    return None if rank == KING else rank + 1


class FourRoads(Variation):
    name = "four_roads"
    title = "Four Roads"
    deck = STRIPPED_36
    layout = Layout(
        numbered(FOUNDATION, ROWS),
        numbered(TABLEAU, ROWS * COLUMNS),
    )
    options = (
        Option("redeals", 2,
               "FR4: redeals allowed (2, default: Montana and Blue Moon; 1: PySol's Paganini)",
               choices=(2, 1)),
        SHUFFLE_SEED_OPTION,
    )

    def row(self, r: int) -> list[str]:
        """The cell names of row ``r`` (1..4), left to right."""
        return [f"t{(r - 1) * COLUMNS + c}" for c in range(1, COLUMNS + 1)]

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """FR1, FR4, G6: deck[0..35] go face up, one per cell, row by row, left to
        right (deck[0] to t1, deck[9] to t10). Then the aces leave their cells: the
        first ace in deck order to ``f1``, the next to ``f2``, and so on; their
        four cells stay gaps. Counters: ``redeals`` = option ``redeals`` and the
        in-game shuffle counters of G6.
        """
        ### BEGIN SOLUTION
        self.start_shuffles(state, cards)
        heads = iter(self.piles(FOUNDATION))
        for cell, card in zip(self.piles(TABLEAU), cards, strict=True):
            state.put(next(heads) if card.rank == ACE else cell, [card])
        state.counters["redeals"] = int(state.option("redeals"))
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """FR3: any card of the grid may move, one at a time. The aces in
        ``f1``..``f4`` never move."""
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) == TABLEAU
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """FR1: the aces' column is filled at the deal; nothing moves there."""
        ### BEGIN SOLUTION
        return False  # FR1: the aces' column is full from the deal
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """FR3: a cell holds one card: a card never goes onto another."""
        ### BEGIN SOLUTION
        return False  # FR3: a cell holds one card
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """FR2, FR3: a gap takes the card of the same suit one rank above the card in
        the cell to its left (for column 1, the ace in ``f_r`` of its row r), the
        six following the ace. Nothing goes right of a king or of another gap.
        """
        ### BEGIN SOLUTION
        index = int(pile[1:]) - 1
        r, column = divmod(index, COLUMNS)
        left = state.top(f"f{r + 1}" if column == 0 else f"t{index}")
        card, *_ = cards
        return left is not None and card.suit == left.suit and card.rank == next_rank(left.rank)
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """FR4, G12: ``redeal`` is legal at any time while redeals remain."""
        ### BEGIN SOLUTION
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """FR4, G6: ``redeal`` keeps, in each row, the unbroken run of the row's suit
        from column 1 (6, 7, ...). Every other grid card is gathered in reading
        order (t1 to t36), shuffled (``state.shuffled``) and laid out again row by
        row, from the first card of the shuffled list: in each row one gap right
        after its run, the rest of the row's cells filled left to right. One
        redeal fewer remains.
        """
        ### BEGIN SOLUTION
        runs = []
        for r in range(1, ROWS + 1):
            head, run = state.top(f"f{r}"), 0
            for cell in self.row(r):
                card = state.top(cell)
                if (head is None or card is None
                        or card.suit != head.suit or card.rank != next_rank(head.rank)):
                    break
                head, run = card, run + 1
            runs.append(run)
        gathered: list[Card] = []
        for r, run in enumerate(runs, start=1):
            for cell in self.row(r)[run:]:
                gathered += state.take(cell, len(state[cell]))
        cards = iter(state.shuffled(gathered))
        for r, run in enumerate(runs, start=1):
            for cell in self.row(r)[run + 1:]:
                state.put(cell, [next(cards)])
        state.counters["redeals"] -= 1
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """FR5: won when every row reads its ace, then 6 to K of the ace's suit in
        columns 1 to 8."""
        ### BEGIN SOLUTION
        for r in range(1, ROWS + 1):
            head = state.top(f"f{r}")
            row = [state.top(cell) for cell in self.row(r)[:COLUMNS - 1]]
            if head is None or row != [Card(rank, head.suit) for rank in range(SIX, KING + 1)]:
                return False
        return True
        ### END SOLUTION
