"""Penguin, written independently of the reference (from RULINGS-001.md PG1..PG7, X1..X11
and the tightened PG4, PG6).

One pack. Tableau t1..t7 (seven face-up cards each), cells c1..c7 (one card
each), foundations f1..f4. The first card dealt (the beak, to t1) fixes the base
rank; the other three cards of that rank go to f1..f3 during the deal.
Foundations build up in suit from the base rank, wrapping K to A. Tableau piles
pack down in suit, wrapping (a king on an ace) unless option ``tableau_wrap`` is
off; any top part of a group moves as a unit. A space takes only a card one rank
below the base rank (a king when the base is an ace), alone or heading a group.
Counter ``base``: the base rank, 1..13. No stock.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, ONE_PACK, Card
from solitaire.moves import Move
from solitaire.piles import CELL, FOUNDATION, TABLEAU, Layout, numbered
from solitaire.state import State
from solitaire.variation import Option, Variation

PILES = 7
CELLS = 7
SUIT_SIZE = 13
TOTAL = 52


class Penguin(Variation):
    name = "penguin"
    title = "Penguin"
    deck = ONE_PACK
    layout = Layout(
        numbered(TABLEAU, PILES), numbered(CELL, CELLS, capacity=1), numbered(FOUNDATION, 4)
    )
    options = (
        Option(
            "tableau_wrap",
            True,
            "PG3: tableau piles pack down in suit wrapping, a king on an ace (Parlett, "
            "PySolFC); off: no king on an ace",
        ),
    )

    # -- helpers -----------------------------------------------------------------
    def _fits(self, state: State, upper: Card, lower: Card) -> bool:
        """PG3: ``upper`` may lie on ``lower``: same suit, one rank lower; a king on an ace
        when ``tableau_wrap`` is on."""
        if upper.suit != lower.suit:
            return False
        if upper.rank == lower.rank - 1:
            return True
        return bool(state.option("tableau_wrap")) and lower.rank == ACE and upper.rank == KING

    def _group_length(self, state: State, pile: str) -> int:
        """X8: the number of face-up cards at the top of ``pile`` each fitting on the one
        below by PG3 (0 when empty)."""
        face_up = state[pile].face_up
        if not face_up:
            return 0
        length = 1
        while length < len(face_up) and self._fits(state, face_up[-length], face_up[-length - 1]):
            length += 1
        return length

    def _base(self, state: State) -> int:
        return state.counters["base"]

    # -- rules -------------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PG1: row by row into t1..t7, face up; deck[0] (the beak) to t1 fixes the base
        rank; each later card of that rank goes to the next of f1, f2, f3 instead and
        takes no tableau place. Counter ``base`` = the base rank."""
        base = cards[0].rank
        state.counters["base"] = base
        names = self.piles(TABLEAU)
        foundations = iter(self.piles(FOUNDATION))
        place = 0
        for index, card in enumerate(cards):
            if index > 0 and card.rank == base:
                state.put(next(foundations), [card])
                continue
            state.put(names[place % PILES], [card])
            place += 1

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PG4 (tightened): from a tableau pile any top part of its group (X8); PG5: a cell's
        card. Foundation cards never move."""
        kind = self.kind(pile)
        if kind == TABLEAU:
            return count <= self._group_length(state, pile)
        if kind == CELL:
            return count == 1
        return False

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PG2: an empty foundation takes a card of the base rank; then up in suit,
        wrapping K to A, 13 cards each. Only single cards, from the tableau or a cell."""
        if len(cards) != 1 or self.kind(source) not in (TABLEAU, CELL):
            return False
        card = cards[0]
        pile = state[foundation]
        if not pile.cards:
            return card.rank == self._base(state)
        if len(pile.cards) >= SUIT_SIZE:
            return False
        top = pile.cards[-1]
        wanted = ACE if top.rank == KING else top.rank + 1
        return card.suit == top.suit and card.rank == wanted

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PG3: the lowest moved card fits on the pile's top card (down in suit, wrapping by
        the option); from a tableau pile or a cell. PG5: a cell holds one card."""
        if self.kind(pile) != TABLEAU or self.kind(source) not in (TABLEAU, CELL):
            return False
        top = state[pile]
        return top.top_is_face_up and self._fits(state, cards[0], top.cards[-1])

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PG5: an empty cell takes a single tableau top card (not a cell's card). PG6: an
        empty tableau pile takes a card one rank below the base rank (a king when the base
        is an ace, whatever ``tableau_wrap`` says), alone or at the bottom of a group, from
        a tableau pile or a cell."""
        kind = self.kind(pile)
        source_kind = self.kind(source)
        if kind == CELL:
            return len(cards) == 1 and source_kind == TABLEAU
        if kind != TABLEAU or source_kind not in (TABLEAU, CELL):
            return False
        base = self._base(state)
        below = KING if base == ACE else base - 1
        return cards[0].rank == below

    def special_moves(self, state: State) -> list[Move]:
        """No actions: no stock, no redeal."""
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """No actions."""
        raise ValueError(f"penguin has no action {move}")

    def after_move(self, state: State, move: Move) -> None:
        """No effects: every card is face up and nothing refills."""

    def is_won(self, state: State) -> bool:
        """PG7: all 52 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
