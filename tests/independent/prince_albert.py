"""Prince Albert, written independently of the reference (from RULINGS-001.md PR1..PR6, X1..X11).

One pack. Tableau t1..t9 (tk holds k cards, only its last-dealt card face up),
reserve r1..r7 (one card each, face up, all available, never refilled) and
foundations f1..f4. Tableau piles pack down in alternate colour, one card at a
time; a space takes any single available card. No stock, no counters.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move
from solitaire.piles import FOUNDATION, RESERVE, TABLEAU, Layout, numbered
from solitaire.state import State
from solitaire.variation import Variation

PILES = 9
RESERVES = 7
TOTAL = 52


def _fits(upper: Card, lower: Card) -> bool:
    """PR3: ``upper`` may lie on ``lower``: one rank lower, the other colour."""
    return upper.rank == lower.rank - 1 and upper.color != lower.color


class PrinceAlbert(Variation):
    name = "prince_albert"
    title = "Prince Albert"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, PILES), numbered(RESERVE, RESERVES), numbered(FOUNDATION, 4))

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PR1: 45 cards in nine rounds; round k gives one card to each of tk..t9, left to
        right, so tk's last card (dealt in round k) is its top, face up, and the cards
        under it are face down. The last 7 cards go face up to r1..r7 in deck order."""
        names = self.piles(TABLEAU)
        index = 0
        for round_no in range(PILES):
            for column in range(round_no, PILES):
                state.put(names[column], [cards[index]], face_up=column == round_no)
                index += 1
        for name, card in zip(self.piles(RESERVE), cards[index:], strict=True):
            state.put(name, [card])

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PR3: a tableau pile's top card only; PR4: a reserve card (one per place).
        Foundation cards never move."""
        return count == 1 and self.kind(pile) in (TABLEAU, RESERVE)

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PR2: an ace on an empty foundation, then up in suit to king, one card at a time."""
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PR3: one card, one rank below the pile's face-up top card and of the other colour."""
        stack = state[pile]
        return len(cards) == 1 and stack.top_is_face_up and _fits(cards[0], stack.cards[-1])

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PR5: a space takes any single available card (tableau top or reserve card)."""
        return len(cards) == 1 and self.kind(pile) == TABLEAU

    def after_move(self, state: State, move: Move) -> None:
        """X10: an exposed face-down tableau card turns up."""
        for name in self.piles(TABLEAU):
            state.turn_up(name)

    def is_won(self, state: State) -> bool:
        """PR6: all 52 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
