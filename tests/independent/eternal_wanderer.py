"""Eternal Wanderer, written independently of the reference (from RULINGS-000.md EW1..EW6,
G1..G13 and the tightened EW4).

One pack dealt round-robin into seven rows t1..t7 (rows 1-3 get 8 cards, 4-7 get 7), all
face up. A row's top card may go onto another row's top whose rank differs by one, suit
ignored, wrapping (an ace on a king or a two); an emptied row takes nothing. ``rotate tN``
moves a row's bottom card to its top: the first rotate chooses the row for the game
(counter ``rotated`` = its number, 0 before), which from then on takes no cards. Won when
one row holds all 52 cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card
from solitaire.moves import Move, action
from solitaire.piles import TABLEAU, Layout, Pile, numbered
from solitaire.state import State
from solitaire.variation import Variation

ROWS = 7
TOTAL = 52
RANKS = 13


class EternalWanderer(Variation):
    name = "eternal_wanderer"
    title = "Eternal Wanderer"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, ROWS))

    def _rotated(self, state: State) -> str | None:
        number = state.counters.get("rotated", 0)
        return f"t{number}" if number else None

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """EW1: deck[i] on top of row (i mod 7) + 1, face up."""
        names = self.piles(TABLEAU)
        for index, card in enumerate(cards):
            state.put(names[index % ROWS], [card])
        state.counters["rotated"] = 0

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """EW2: the top card of a row, one at a time (the rotated row's too, EW4)."""
        return count == 1 and self.kind(pile) == TABLEAU

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """EW2: rank one apart, suit ignored, K-A wrapping; EW4: never onto the rotated row."""
        top = state.top(pile)
        if len(cards) != 1 or top is None or pile == self._rotated(state):
            return False
        difference = (cards[0].rank - top.rank) % RANKS
        return difference in (1, RANKS - 1)

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """EW3: an emptied row is dead."""
        return False

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """No foundations."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """EW4: ``rotate tN`` on any row of two cards or more until a row is chosen; then only
        on the chosen row, while it holds two cards or more."""
        chosen = self._rotated(state)
        rows = [chosen] if chosen else self.piles(TABLEAU)
        return [action("rotate", name) for name in rows if len(state[name]) >= 2]

    def apply_special(self, state: State, move: Move) -> None:
        """EW4: the row's bottom card goes to its top; the first rotate records the row."""
        (name,) = move.args
        cards = list(state[name].cards)
        state.set_pile(name, Pile(tuple(cards[1:] + cards[:1])))
        state.counters["rotated"] = self.piles(TABLEAU).index(name) + 1

    def after_move(self, state: State, move: Move) -> None:
        """No effects."""

    def is_won(self, state: State) -> bool:
        """EW5: one row holds all 52 cards."""
        return any(len(state[name]) == TOTAL for name in self.piles(TABLEAU))
