"""Eternal Wanderer (1 pack): gather all 52 cards into one of seven open rows.

Layout: seven rows ``t1``..``t7``, all face up; no stock, no foundations. A
row's top card (its "upper" card, the last dealt) plays onto another row's top
card one rank higher or lower, suit ignored, king and ace adjacent. Once in the
game the player chooses a row to rotate (``rotate t3``: its bottom card goes to
its top); that row then takes no cards. Counter ``rotated``: the number of the
chosen row, 0 until the first ``rotate``. No options.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card, ranks_adjacent
from solitaire.moves import Move, action
from solitaire.piles import TABLEAU, Layout, Pile, numbered
from solitaire.state import State
from solitaire.variation import Variation

ROWS = 7


class EternalWanderer(Variation):
    name = "eternal_wanderer"
    title = "Eternal Wanderer"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, ROWS))

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """EW1: deal round-robin into the rows: card ``i`` of the deck goes on top
        of row ``(i mod 7) + 1``, so t1..t3 hold 8 cards and t4..t7 hold 7. All
        face up. EW4: no row is chosen yet (counter ``rotated`` = 0).
        """
        ### BEGIN SOLUTION
        rows = self.piles(TABLEAU)
        for index, card in enumerate(cards):
            state.put(rows[index % ROWS], [card])
        state.counters["rotated"] = 0
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """EW2: only the top card of a row is available, one card at a time. EW4:
        the top card of the rotated row may still be played."""
        ### BEGIN SOLUTION
        return count == 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """EW2: a card goes onto the top card of another row whose rank differs by
        exactly one, suit ignored, wrapping (an ace on a king or a two). EW4: from
        the first ``rotate`` on, the rotated row accepts no cards.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        if pile == f"t{state.counters['rotated']}":
            return False
        return ranks_adjacent(card.rank, state[pile].cards[-1].rank, wrap=True)
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """EW3: an emptied row is dead: it takes nothing."""
        ### BEGIN SOLUTION
        return False
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """EW4: ``rotate tN`` is legal on a row holding two or more cards: on any
        such row before the first ``rotate`` (which chooses the row for the whole
        game), afterwards only on the chosen row, any number of times. Once the
        chosen row holds fewer than two cards no other row may be chosen.
        """
        ### BEGIN SOLUTION
        chosen = state.counters["rotated"]
        rows = self.piles(TABLEAU) if chosen == 0 else (f"t{chosen}",)
        return [action("rotate", row) for row in rows if len(state[row]) >= 2]
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """EW4: ``rotate tN`` moves the bottom ("lowest") card of row N to its top
        and records N as the chosen row (counter ``rotated``). Nothing random."""
        ### BEGIN SOLUTION
        (row,) = move.args
        bottom, *rest = state[row].cards
        state.set_pile(row, Pile([*rest, bottom]))
        state.counters["rotated"] = int(row[1:])
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """EW5: won when one row holds all 52 cards."""
        ### BEGIN SOLUTION
        return any(len(state[row]) == self.deck.size for row in self.piles(TABLEAU))
        ### END SOLUTION
