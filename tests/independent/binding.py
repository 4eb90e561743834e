"""Binding of seed 000, written independently of the reference (from RULINGS-000.md BD1..BD8,
G2, G5, G7, G9, G11, G12, G13 and the state conventions fixed for both implementations).

Two packs. Stock ``s`` (face down throughout: nobody draws, G4), foundations f1..f8 (f1 the
first base card), auxiliary stacks t1..t5, the open stack ``r1`` (20 cards, face up) and the
closed stack ``r2`` (10 cards, face down but its top). Counters ``redeals`` = redeals left
(2: three passes) and ``picks`` = base cards still owed by the selection of the first pass.
No options.

Readings where the rulings leave a detail to the implementation:

* The state cannot tell a card just dealt from one a pick exposed under it, so while a
  selection is pending any auxiliary top may be picked (BD3 says "each still on top of its
  auxiliary stack"; only the 2nd deal's selection can expose a card).
* Which deal of the first pass is being made is read off the stock: it holds 73 cards before
  the 1st deal, so 68 before the 2nd and 63 before the 3rd (BD1, BD2).
* A pick lowers ``picks`` in ``after_move`` (a card move has no action step); ``deal`` sets
  ``picks`` in ``apply_special``.
* ``redeal``: the first card gathered (t1's bottom) is the next dealt, as G6 says of gathered
  cards ("the result is dealt or stocked from its first card").
* Neither ``deal`` nor ``redeal`` while picks are owed (BD3 "nothing else is legal").
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import TWO_PACKS, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

OPEN = 20      # BD1: deck[0..19] the open stack
CLOSED = 10    # BD1: deck[20..29] the closed stack
RANKS = 13
AUX = ("t1", "t2", "t3", "t4", "t5")
FIRST_STOCK = 104 - OPEN - CLOSED - 1            # 73 cards before the first deal
PICKS_BY_STOCK = {FIRST_STOCK - 5: 3, FIRST_STOCK - 10: 1}   # BD3: the 2nd and 3rd deal
REDEALS = 2


class Binding(Variation):
    name = "binding"
    title = "Binding"
    deck = TWO_PACKS
    # r1 is a target (BD6: auxiliary tops go onto it); r2 is one too by numbering, and
    # takes nothing (the accept methods refuse it).
    layout = Layout(single(STOCK), numbered(FOUNDATION, 8), numbered(TABLEAU, 5),
                    numbered(RESERVE, 2, target=True))

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """BD1: deck[0..19] the open stack r1 (face up, deck[19] on top), deck[20..29] the closed
        stack r2 (G7: face down, its top face up), deck[30] to f1, the other 73 cards the stock
        (deck[31] dealt next, face down). BD2 (gap): the first ``deal`` is part of the deal,
        and BD3: its selection of 3 is owed at once. BD7: 2 redeals left."""
        state.put("r1", cards[:OPEN])
        state.put("r2", cards[OPEN:OPEN + CLOSED], face_up=False)
        state.turn_up("r2")
        state.put("f1", [cards[OPEN + CLOSED]])
        state.put("s", list(reversed(cards[OPEN + CLOSED + 1:])), face_up=False)
        self._deal_five(state)
        state.counters["redeals"] = REDEALS
        state.counters["picks"] = 3

    def _deal_five(self, state: State) -> None:
        """BD2: the next stock cards face up onto t1..t5, one each, t1 first."""
        for name in AUX:
            if not state["s"].cards:
                break
            state.put(name, state.take("s"))

    def _selecting(self, state: State) -> bool:
        """BD3: a selection is pending."""
        return state.counters["picks"] > 0

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """BD5: one card at a time, the top of r1, r2 or an auxiliary stack (BD6: nothing moves
        between auxiliary stacks; foundations keep their cards; the stock is only dealt, G4)."""
        return count == 1 and self.kind(pile) in (TABLEAU, RESERVE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """BD3: while a selection is pending, only an auxiliary top onto an empty foundation, any
        rank and suit; no other card ever starts a foundation. BD4/BD5: otherwise a top of r1,
        r2 or t1..t5 one rank up, suit ignored, king-ace wrapping, 13 cards a foundation."""
        if len(cards) != 1 or self.kind(source) not in (TABLEAU, RESERVE):
            return False
        pile = state[foundation].cards
        if self._selecting(state):
            return not pile and self.kind(source) == TABLEAU
        if not pile or len(pile) >= RANKS:
            return False
        return cards[0].rank == pile[-1].rank % RANKS + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """BD6: r1 takes an auxiliary top one rank lower, suit ignored, no wrap (G9); nothing
        else takes a card (auxiliary stacks only by ``deal``, r2 never). BD3: nothing while a
        selection is pending."""
        if len(cards) != 1 or pile != "r1" or self.kind(source) != TABLEAU or self._selecting(state):
            return False
        top = state.top("r1")
        return top is not None and cards[0].rank == top.rank - 1

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """BD6/G13: an empty r1 or r2 takes nothing; an empty auxiliary stack fills only by
        ``deal``."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """BD2: ``deal`` while the stock has cards and no selection is pending. BD7/G5: ``redeal``
        with the stock empty while redeals remain (and no selection is pending, BD3); G12: not
        checked that no card move remains."""
        if self._selecting(state):
            return []
        if state["s"].cards:
            return [action("deal")]
        if state.counters["redeals"] > 0:
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """BD2/BD3: ``deal`` deals up to five cards; the 2nd and 3rd deal of the first pass (no
        redeal used) owe 3 and 1 picks. BD7: ``redeal`` gathers t1..t5, each bottom to top, t1
        first, unshuffled, as the new stock (the first gathered dealt first)."""
        if move.kind == "deal":
            owed = PICKS_BY_STOCK.get(len(state["s"])) if state.counters["redeals"] == REDEALS else None
            self._deal_five(state)
            state.counters["picks"] = owed or 0
        elif move.kind == "redeal":
            gathered: list[Card] = []
            for name in AUX:
                gathered.extend(state.take(name, len(state[name])))
            state.put("s", list(reversed(gathered)), face_up=False)
            state.counters["redeals"] -= 1
        else:
            raise ValueError(f"Binding has no action {move}")

    def after_move(self, state: State, move: Move) -> None:
        """BD3: a pick (a card moved to a foundation while a selection is pending) lowers the
        picks owed by one. G7/G11: the closed stack's new top turns face up."""
        if move.is_card_move and self.kind(move.target) == FOUNDATION and self._selecting(state):
            state.counters["picks"] -= 1
        state.turn_up("r2")

    def is_won(self, state: State) -> bool:
        """BD8: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 104
