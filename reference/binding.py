"""Binding (2 packs): pick seven base cards from the first deals, then build up regardless of suit.

Layout, in order: the stock ``s`` (face down throughout; 68 cards after the
deal, the next card dealt on top), eight foundations ``f1``..``f8`` (``f1``
holds deck[30], the first base card; the others are empty), five auxiliary
stacks ``t1``..``t5`` (face up; one card each after the deal, deck[31..35]:
the first ``deal`` is part of the deal), the open stack ``r1`` (deck[0..19],
all face up, deck[19] on top) and the closed stack ``r2`` (deck[20..29],
face down except its top card, deck[29], which turns face up whenever the
card above it is taken). Counters, both present from the deal on:
``redeals`` = redeals left, 2 at the deal; ``picks`` = base picks still
owed, 3 at the deal (after the first deal of the first pass), set to 3 by
the 2nd ``deal`` and to 1 by the 3rd ``deal`` of the first pass (while
``redeals`` is 2), lowered by 1 by each pick, 0 otherwise. No options. The
phase is always ``play``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import KING, TWO_PACKS, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

FOUNDATIONS = 8
STACKS = 5
OPEN = 20  # cards of the open stack r1
CLOSED = 10  # cards of the closed stack r2
REDEALS = 2
#: BD3: picks owed after the 2nd and 3rd deal of the first pass, by the stock's size before
#: that deal (the first deal, part of the deal, leaves 68 cards)
PICKS = {68: 3, 63: 1}
DEAL = action("deal")
REDEAL = action("redeal")


class Binding(Variation):
    name = "binding"
    title = "Binding"
    deck = TWO_PACKS
    layout = Layout(
        single(STOCK),
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(TABLEAU, STACKS),
        numbered(RESERVE, 2, target=True),
    )
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed suit

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """BD1, BD2, BD3, BD7, G3, G7: deck[0..19] are the open stack ``r1``, face up,
        deck[19] on top. deck[20..29] are the closed stack ``r2``: face down but its
        top card (deck[29]). deck[30] goes to ``f1``, the first base card. The other
        73 cards are the stock, face down, deck[31] on top; then the first ``deal``
        is part of the deal: t1..t5 get deck[31..35], one each, face up. Counters:
        ``redeals`` = 2 (three passes), ``picks`` = 3 (the first selection is owed).
        """
        ### BEGIN SOLUTION
        state.put("r1", cards[:OPEN])
        state.put("r2", cards[OPEN:OPEN + CLOSED], face_up=False)
        state.turn_up("r2")
        state.put("f1", [cards[OPEN + CLOSED]])
        state.put("s", reversed(cards[OPEN + CLOSED + 1:]), face_up=False)
        for stack in self.piles(TABLEAU):
            state.put(stack, state.take("s"))
        state.counters["redeals"] = REDEALS
        state.counters["picks"] = 3
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """BD5, BD6, G7: only top cards are available, one at a time: the top of an
        auxiliary stack, of the open stack ``r1`` and of the closed stack ``r2``.
        The stock is only dealt (G4: nobody draws); foundation cards never move.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (TABLEAU, RESERVE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """BD3 (the selection, this game's special rule), BD4, BD5, G8.

        BD3: while picks are owed (``picks`` > 0) the only legal moves are picks:
        an auxiliary top goes to an empty foundation (any rank and suit), and
        nothing goes onto a started foundation. When no pick is owed no card
        starts a foundation. BD4, BD5: otherwise a foundation takes the top of
        an auxiliary stack, of ``r1`` or of ``r2`` one rank higher than its top,
        suit ignored, king to ace wrapping, 13 cards at most.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(foundation)
        if state.counters["picks"] > 0:
            return top is None and self.kind(source) == TABLEAU
        if top is None:
            return False
        return len(state[foundation]) < 13 and card.rank == top.rank % KING + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """BD6, BD3, G9: the open stack ``r1`` takes an auxiliary top one rank lower
        than its top, suit ignored, no wrap (an ace takes nothing); not while picks
        are owed. Nothing else goes onto ``r1``, nothing onto ``r2``, and auxiliary
        stacks take cards only by ``deal`` (no stack-to-stack move).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        if pile != "r1" or self.kind(source) != TABLEAU or state.counters["picks"]:
            return False
        return card.rank == state[pile].cards[-1].rank - 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """BD6, G13: an empty auxiliary stack is filled only by ``deal``; an empty
        ``r1`` or ``r2`` takes nothing."""
        ### BEGIN SOLUTION
        return False  # whatever the pile and the cards
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """BD2, BD3, BD7, G5: nothing while picks are owed. ``deal`` while the stock
        has cards; ``redeal`` when the stock is empty and redeals remain (even with
        empty auxiliary stacks)."""
        ### BEGIN SOLUTION
        if state.counters["picks"]:
            return []
        if state["s"]:
            return [DEAL]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """BD2, BD3, BD7: ``deal`` turns the next five stock cards face up onto
        t1..t5, one each (fewer at the end, t1 first); in the first pass
        (``redeals`` = 2) the 2nd and 3rd deal of the pass set ``picks`` to 3 and
        1. ``redeal`` gathers t1..t5, each bottom to top, t1 first, unshuffled, as
        the new stock, face down, the first gathered card dealt first; ``redeals``
        drops by one. No selection after the first pass.
        """
        ### BEGIN SOLUTION
        if move == REDEAL:
            stacks = self.piles(TABLEAU)
            gathered = [card for stack in stacks for card in state.take(stack, len(state[stack]))]
            state.put("s", reversed(gathered), face_up=False)
            state.counters["redeals"] -= 1
            return
        if state.counters["redeals"] == REDEALS:
            state.counters["picks"] = PICKS.get(len(state["s"]), 0)
        for stack in self.piles(TABLEAU):
            if state["s"]:
                state.put(stack, state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """BD3, G7: a card moved while picks are owed was a pick: ``picks`` drops by
        one. The closed stack's new top card turns face up. Nothing goes to a
        foundation by itself (G11)."""
        ### BEGIN SOLUTION
        if move.is_card_move and state.counters["picks"]:
            state.counters["picks"] -= 1
        state.turn_up("r2")  # the closed stack's new top card
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """BD8: won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
