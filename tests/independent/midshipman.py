"""Midshipman, written independently of the reference (from RULINGS-001.md MI1..MI7, X1..X11).

Two packs. Piles t1..t9 (two face-down cards under two face-up ones at the
start), f1..f8, stock ``s`` (top card face up, X4) and waste ``w``. Tableau
piles pack down in alternate colour. What moves from a pile: its top card, or
its unit, the whole build at the top (the longest run of face-up cards each one
lower and of the other colour than the card below it); with option
``units="any_part"`` any top part of that build. The top card of a foundation
may be worried back onto a tableau pile (not into a space, not to a foundation).
No redeal, no counters.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

PILES = 9
ROWS = 4
DOWN_ROWS = 2
TOTAL = 104


def _fits(upper: Card, lower: Card) -> bool:
    """MI3: ``upper`` may lie on ``lower``: one rank lower, the other colour."""
    return upper.rank == lower.rank - 1 and upper.color != lower.color


class Midshipman(Variation):
    name = "midshipman"
    title = "Midshipman"
    deck = TWO_PACKS
    layout = Layout(numbered(TABLEAU, PILES), numbered(FOUNDATION, 8), single(STOCK), single(WASTE))
    options = (
        Option(
            "units",
            "build",
            "MI4: what moves from a tableau pile besides its top card: 'build' (the whole "
            "build at the top, as a unit) or 'any_part' (any top part of that build)",
            choices=("build", "any_part"),
        ),
    )

    # -- helpers -----------------------------------------------------------------
    def _build_length(self, state: State, pile: str) -> int:
        """MI4: the number of cards in the build at the top of ``pile``: the longest run of
        face-up cards at the top descending by one in alternate colour (0 when empty)."""
        stack = state[pile]
        face_up = stack.face_up
        if not face_up:
            return 0
        length = 1
        while length < len(face_up) and _fits(face_up[-length], face_up[-length - 1]):
            length += 1
        return length

    # -- rules -------------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """MI1/X3: 36 cards row by row into t1..t9, rows 1-2 face down, rows 3-4 face up;
        the other 68 are the stock, deck[36] on top and face up (X4)."""
        names = self.piles(TABLEAU)
        for index in range(PILES * ROWS):
            state.put(names[index % PILES], [cards[index]], face_up=index >= PILES * DOWN_ROWS)
        state.put("s", list(reversed(cards[PILES * ROWS:])), face_up=False)
        state.turn_up("s")

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """X4: the top stock card and the top waste card, singly. MI5: the top card of a
        foundation, singly. MI4: from a tableau pile the top card alone or its whole
        build (``units="build"``), or any top part of the build (``units="any_part"``)."""
        kind = self.kind(pile)
        if kind in (STOCK, WASTE, FOUNDATION):
            return count == 1
        if kind != TABLEAU:
            return False
        if count == 1:
            return True
        length = self._build_length(state, pile)
        if state.option("units") == "any_part":
            return count <= length
        return count == length

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """MI2 (as MA2): an ace on an empty foundation, then up in suit to king, one card
        at a time. MI5: never from another foundation."""
        if len(cards) != 1 or self.kind(source) == FOUNDATION:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MI3: the lowest moved card is one rank below the pile's top card and of the other
        colour (a card from any source: tableau, stock, waste, foundation by MI5). A
        face-down top card (only in a hand-built position) takes nothing."""
        stack = state[pile]
        return stack.top_is_face_up and _fits(cards[0], stack.cards[-1])

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MI6: a space takes any available card (tableau top, top stock or waste card) or a
        unit; not a foundation card."""
        return self.kind(pile) == TABLEAU and self.kind(source) != FOUNDATION

    def special_moves(self, state: State) -> list[Move]:
        """X4: ``s>w`` while the stock has cards; MI2: no redeal."""
        return [] if state.is_empty("s") else [card_move("s", "w")]

    def apply_special(self, state: State, move: Move) -> None:
        """X4: the drawn (top stock) card goes face up onto the waste."""
        state.put("w", state.take("s", 1))

    def after_move(self, state: State, move: Move) -> None:
        """X10: an exposed face-down tableau card turns up; X4: so does the new top stock card."""
        for name in self.piles(TABLEAU):
            state.turn_up(name)
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """MI7: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
