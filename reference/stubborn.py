"""Stubborn (2 packs): a three-pile Canfield with a closed stack of fifteen, suit-free, one pass.

Layout, in order: the stock ``s`` (86 cards, face down but its top card, the
drawn card), the waste ``w`` (empty at the start, face up), eight foundations
``f1``..``f8`` (all empty at the start), three auxiliary stacks ``t1``..``t3``
(one card each at the start, face up) and the stack ``r`` (15 cards, face down
but its top card, which is face up after the deal and after every move; cards
it takes from the stock lie the same way). No counters: the base rank is the
rank of ``f1``'s bottom card (the opening is not yet made while ``f1`` is
empty). No options. The phase is always ``play``. Action: ``s>w``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from solitaire.cards import KING, TWO_PACKS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

FOUNDATIONS = 8
STACKS = 3
STACK = 15  # cards of the stack r, at the deal and at each refill
FULL = 13  # cards on a finished foundation
DISCARD = card_move("s", "w")


class Stubborn(Variation):
    name = "stubborn"
    title = "Stubborn"
    deck = TWO_PACKS
    layout = Layout(
        single(STOCK),
        single(WASTE),
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(TABLEAU, STACKS),
        single(RESERVE),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """SB1, G3, G4, G7: deck[0..14] are the stack ``r``, deck[0] at the bottom,
        face down but its top card (deck[14]) face up. deck[15..17] go face up to
        t1..t3, one each. The other 86 cards are the stock, face down, deck[18] on
        top and face up (the drawn card). The waste and the foundations are empty.
        """
        ### BEGIN SOLUTION
        state.put("r", cards[:STACK], face_up=False)
        state.turn_up("r")
        for index, pile in enumerate(self.piles(TABLEAU)):
            state.put(pile, [cards[STACK + index]])
        state.put("s", reversed(cards[STACK + STACKS:]), face_up=False)
        state.turn_up("s")
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """SB2, SB3, SB4, G4, G7: before the opening (``f1`` empty) only the card of
        an auxiliary stack moves. Then the top of ``r``, the drawn card (top of the
        stock) and the waste top are available one at a time, and from an auxiliary
        stack any top run going down one rank at a time regardless of suit, no wrap
        (before the opening each holds one card). Foundation cards never move.
        """
        ### BEGIN SOLUTION
        kind = self.kind(pile)
        if kind == TABLEAU:
            run = state[pile].cards[-count:]
            return all(below.rank == above.rank + 1 for below, above in pairwise(run))
        return count == 1 and kind in (STOCK, WASTE, RESERVE) and not state.is_empty("f1")
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """SB2, SB3, G8: the opening puts an auxiliary card, any rank, on ``f1``; its
        rank is the base rank, and until it is made no other foundation takes a
        card. Then an empty foundation takes a card of the base rank; a foundation
        builds up regardless of suit, wrapping (an ace on a king), one card at a
        time, and holds 13 cards at most.
        """
        ### BEGIN SOLUTION
        card, *rest = cards
        if rest:
            return False
        if state.is_empty("f1"):
            return foundation == "f1"
        top = state.top(foundation)
        if top is None:
            return card.rank == state["f1"].cards[0].rank
        return len(state[foundation]) < FULL and card.rank == top.rank % KING + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """SB2, SB4, G9: after the opening a card or run goes onto an auxiliary top one
        rank above its deepest card, regardless of suit, no wrap (an ace takes
        nothing). It may come from ``r``, the stock, the waste or another auxiliary
        stack. Nothing goes onto ``r`` (it is no target).
        """
        ### BEGIN SOLUTION
        return not state.is_empty("f1") and state[pile].cards[-1].rank == cards[0].rank + 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """SB5, SB6: while ``r`` has cards a space is filled only by the refill effect,
        never by a move: the engine never asks then. ``r`` is empty only once the stock
        is too (SB6), and then a space takes any available card or run.
        """
        ### BEGIN SOLUTION
        return True
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """SB2, SB7, G4: after the opening ``s>w`` (discard the drawn card to the
        waste) is legal whenever the stock has a card, even a playable one. One
        pass: no redeal.
        """
        ### BEGIN SOLUTION
        return [DISCARD] if not state.is_empty("s") and not state.is_empty("f1") else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """G4: ``s>w`` puts the drawn card face up on the waste."""
        ### BEGIN SOLUTION
        state.put("w", state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """SB5, SB6, G7, G11: effects after every move, until nothing changes. When
        ``r`` is empty it takes the next 15 stock cards (fewer if short), closed: the
        first of them (the stock's top) at the bottom, as in the deal. Each empty
        auxiliary stack, t1 first, takes the top of ``r`` at once, and ``r`` refills
        again when that empties it. Then the tops of ``r`` and of the stock (the
        next drawn card) turn face up. Nothing goes to a foundation by itself.
        """
        ### BEGIN SOLUTION
        for pile in (*self.piles(TABLEAU), None):
            if state.is_empty("r"):
                count = min(STACK, len(state["s"]))
                state.put("r", reversed(state.take("s", count)), face_up=False)
            if pile is not None and state.is_empty(pile) and not state.is_empty("r"):
                state.put(pile, state.take("r"))
        state.turn_up("r")
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """SB7: one pass, no redeal; won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
