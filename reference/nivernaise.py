"""Nivernaise (2 packs): Tournament with squared piles, eight cells, two redeals.

Layout: eight cells ``c1``..``c8`` (one card each, dealt face up), six
tableau piles ``t1``..``t6`` of which only the top card is face up (the piles
are squared), ace foundations ``f1``..``f4`` (built up in suit) and king
foundations ``f5``..``f8`` (built down in suit), and the stock ``s``, face
down throughout. Nothing is built on the tableau; cards go to foundations and
cells only. Cards come in packets of four. The counter ``redeals`` counts the
redeals left (2, 1, then 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, TWO_PACKS, Card
from solitaire.moves import Move, action
from solitaire.piles import CELL, FOUNDATION, STOCK, TABLEAU, Layout, Pile, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Option, Variation

CELLS = 8
PILES = 6
PACKET = 4
ACE_FOUNDATIONS = ("f1", "f2", "f3", "f4")  # f5..f8 are the king foundations
REDEALS = 2
DEAL, REDEAL = action("deal"), action("redeal")


class Nivernaise(Variation):
    name = "nivernaise"
    title = "Nivernaise"
    deck = TWO_PACKS
    layout = Layout(
        numbered(CELL, CELLS, capacity=1),
        numbered(TABLEAU, PILES),
        numbered(FOUNDATION, 8),
        single(STOCK),
    )
    interchangeable = (CELL,)  # solver hint: the cells are alike (foundations are not: up or down)
    options = (
        Option(
            "foundation_transfer",
            False,
            "NI3 option: when true, the top card of a foundation may pass onto the other "
            "foundation of its suit when that one's build rule accepts it",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """NI1, NI2, X3, X5: deck[0..7] go face up to ``c1``..``c8``; the next 24
        cards are dealt in packets of four, the next four to ``t1`` (the first at
        the bottom), the next four to ``t2``, and so on to ``t6``. Only each
        pile's top card is face up (NI2). The other 72 cards are the stock, face
        down, the 33rd card of the deck on top. No check that the cells hold an
        ace or a king. Counter ``redeals`` = 2 (NI7).
        """
        ### BEGIN SOLUTION
        for index, cell in enumerate(self.piles(CELL)):
            state.put(cell, [cards[index]])
        for index, pile in enumerate(self.piles(TABLEAU)):
            start = CELLS + index * PACKET
            state.set_pile(pile, Pile(cards[start : start + PACKET], PACKET - 1))
        state.put("s", reversed(cards[CELLS + PILES * PACKET :]), face_up=False)
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """NI4: one card moves at a time: a tableau pile's top card or a cell's
        card. The stock is not available. Cards never leave a foundation (X11),
        unless option ``foundation_transfer`` is on: then a foundation's top card
        may move, alone.
        """
        ### BEGIN SOLUTION
        kind = self.kind(pile)
        if kind == FOUNDATION:
            return bool(state.option("foundation_transfer")) and count == 1
        return kind in (TABLEAU, CELL)  # one card: only a pile's top card is face up
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """NI3: ``f1``..``f4`` each take an ace and build up in suit to the king;
        ``f5``..``f8`` each take a king and build down in suit to the ace. One
        foundation per suit in each set: an ace (king) starts an empty ace (king)
        foundation only when no ace (king) foundation of its suit exists.

        Option ``foundation_transfer``: a foundation's top card may pass onto the
        other, non-empty foundation of its suit where its build rule accepts it
        (the two "meet"); never onto an empty foundation.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        up = foundation in ACE_FOUNDATIONS
        top = state.top(foundation)
        if top is not None:
            return card.suit == top.suit and card.rank == top.rank + (1 if up else -1)
        if self.kind(source) == FOUNDATION or card.rank != (ACE if up else KING):
            return False
        same_set = [f for f in self.piles(FOUNDATION) if (f in ACE_FOUNDATIONS) == up]
        return all(other is None or other.suit != card.suit for other in map(state.top, same_set))
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NI4: no building on the tableau: a tableau pile takes no card (cells hold
        one card and are never built on either)."""
        ### BEGIN SOLUTION
        return False
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """NI4, NI5: an empty cell takes a tableau pile's top card; not a cell's card
        (no cell to cell). Nothing goes into a tableau space: while the stock lasts
        it is refilled by itself (NI5); with the stock empty it stays empty.
        """
        ### BEGIN SOLUTION
        return self.kind(pile) == CELL and self.kind(source) == TABLEAU
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """NI6, NI7: ``deal`` is legal while the stock has cards. ``redeal`` is legal
        when the stock is empty, the tableau holds a card and a redeal is left
        (counter ``redeals`` above 0; two in all). X1: no check that play is at
        a standstill.
        """
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [DEAL]
        tableau_holds = any(not state.is_empty(p) for p in self.piles(TABLEAU))
        return [REDEAL] if tableau_holds and state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """NI6: ``deal`` gives four stock cards to each of ``t1``..``t6`` in turn (X5),
        as far as the stock goes; each covered card turns face down (NI2).

        NI7, X6: ``redeal`` picks the tableau piles up in reverse (``t6`` onto
        ``t5``, ..., onto ``t1``) and turns the packet face down as the new stock,
        which then yields ``t1``'s cards bottom to top, then ``t2``'s, ... The
        cells stay. ``redeals`` drops by one. The refill (NI5) follows as an effect.
        """
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        if move == REDEAL:
            gathered = [card for pile in piles for card in state.take(pile, len(state[pile]))]
            state.put("s", reversed(gathered), face_up=False)
            state.counters["redeals"] -= 1
        else:
            for pile in piles:
                packet = state.take("s", min(PACKET, len(state["s"])))
                if not packet:
                    break  # the stock ran out: the later piles get nothing
                cards = state[pile].cards + tuple(reversed(packet))
                state.set_pile(pile, Pile(cards, len(cards) - 1))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """NI2, NI5, X10: a tableau pile's top card that is face down turns up; while
        the stock has cards, an empty tableau pile is dealt a packet of four (X5),
        ``t1`` first. With the stock empty, spaces stay empty.
        """
        ### BEGIN SOLUTION
        for pile in self.piles(TABLEAU):
            state.turn_up(pile)
            if state.is_empty(pile) and not state.is_empty("s"):
                packet = state.take("s", min(PACKET, len(state["s"])))
                state.set_pile(pile, Pile(reversed(packet), len(packet) - 1))
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """NI8: the game is won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move found by
        :func:`solitaire.solver.safe_foundation_move`, from a cell, or from a pile once
        no redeal is left (a redeal's packets would otherwise shift by the card)."""
        piles = self.piles(TABLEAU) if state.counters.get("redeals") == 0 else ()
        return safe_foundation_move(self, state, (*self.piles(CELL), *piles))
