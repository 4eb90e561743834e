"""Peek, written independently of the reference (from RULINGS-001.md PK1..PK2: Osmosis
OS1..OS8 in every respect except the open tableau; X1..X11 and the tightened OS1/OS2).

One pack. Foundations f1..f4 (top to bottom), tableau t1..t4 (four cards each,
all face up; only the top card of a pile is available), stock ``s`` (face down
throughout, not available) and waste ``w``. No building on the tableau; spaces are never filled. f1 takes any
card of its suit; each later foundation is started by a base-rank card (the
rank of f1's bottom card) in order f2, f3, f4, and then takes a card of its own
suit whose rank is present in the foundation above it. ``s>w`` turns up to three
cards; ``redeal`` (unlimited) turns the waste over as the stock. No counters.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

PILES = 4
CARDS_PER_PILE = 4
TURN = 3
TOTAL = 52


class Peek(Variation):
    name = "peek"
    title = "Peek"
    deck = ONE_PACK
    layout = Layout(
        numbered(FOUNDATION, PILES), numbered(TABLEAU, PILES), single(STOCK), single(WASTE)
    )

    # -- helpers -----------------------------------------------------------------
    def _base_rank(self, state: State) -> int | None:
        """OS2 (tightened): the rank of f1's bottom card; None while f1 is empty."""
        pile = state["f1"]
        return pile.cards[0].rank if pile.cards else None

    # -- rules -------------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PK1/OS1: deck[0] face up to f1; deck[1..16] row by row (round-robin) into
        t1..t4, four each, all face up (PK1); the other 35 are the stock, face down,
        deck[17] on top. PK2: a buried base card is no reason for any action."""
        state.put("f1", [cards[0]])
        names = self.piles(TABLEAU)
        dealt = PILES * CARDS_PER_PILE
        for index in range(dealt):
            state.put(names[index % PILES], [cards[1 + index]])
        state.put("s", list(reversed(cards[1 + dealt:])), face_up=False)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """OS5: the top card of a tableau pile or of the waste, one at a time. The stock
        is not available (OS1) and foundation cards never move."""
        return count == 1 and self.kind(pile) in (TABLEAU, WASTE)

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """OS2: f1 takes any card of its suit. OS3: a base-rank card starts only the
        lowest-numbered empty foundation. OS4: a started fk (k >= 2) takes a card of its
        suit whose rank is present in f(k-1) now. One card at a time."""
        if len(cards) != 1:
            return False
        card = cards[0]
        names = self.piles(FOUNDATION)
        index = names.index(foundation)
        pile = state[foundation]
        if not pile.cards:
            base = self._base_rank(state)
            if base is None or index == 0:
                return False  # decision: with f1 empty there is no base rank
            first_empty = next(name for name in names if state.is_empty(name))
            return card.rank == base and foundation == first_empty
        if card.suit != pile.cards[0].suit:
            return False
        if index == 0:
            return True
        above = state[names[index - 1]]
        return any(c.rank == card.rank for c in above.cards)

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """OS5: no building on the tableau."""
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """OS5: spaces are never filled."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """OS6: ``s>w`` while the stock has cards; OS7: ``redeal`` (unlimited) when the
        stock is empty and the waste is not."""
        if not state.is_empty("s"):
            return [card_move("s", "w")]
        if not state.is_empty("w"):
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """OS6: up to three stock cards turned one by one face up onto the waste (the
        first turned lowest). OS7: the waste turned over, unshuffled, face down, as the
        stock: the first card turned onto it is drawn first."""
        if move.kind == "redeal":
            waste = state.take("w", len(state["w"]))
            state.put("s", list(reversed(waste)), face_up=False)
            return
        taken = state.take("s", min(TURN, len(state["s"])))
        state.put("w", list(reversed(taken)))

    def after_move(self, state: State, move: Move) -> None:
        """X10: a tableau card that becomes the top turns face up (none is face down in
        Peek; kept for hand-built positions)."""
        for name in self.piles(TABLEAU):
            state.turn_up(name)

    def is_won(self, state: State) -> bool:
        """OS8: all 52 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
