"""Demon, the one-deck Canfield (1 pack; not PySol's two-deck Demon): suit-free, six shuffled passes.

Layout, in this order: the stock ``s`` (face down throughout), the waste ``w``,
the second-card pile ``w2`` (at most one card: the lower of two cards turned by
one ``s>w``, while it stays available; physically it lies in the waste just
under ``w``'s top card; empty otherwise), foundations ``f1``..``f4``, tableau
piles ``t1``..``t4`` and the reserve ``r`` (face down except its top card).
Waste, ``w2``, foundations and tableau are face up. Counters: ``redeals`` =
redeals left (5 after the deal); ``shuffle_seed`` = the seed of the in-game
shuffles (the option's value, or when that is 0 the seed derived from the deal,
docs/engine.md "In-game shuffles"); ``shuffles`` = shuffles done (0 after the
deal). Options: ``foundation_suit`` (true | false, default false),
``last_two`` ("both" | "top", default "both"), ``shuffle_seed`` (an integer
0..2**64-1, default 0 = derived from the deal). Actions: ``s>w``, ``redeal``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from solitaire.cards import ONE_PACK, Card
from solitaire.moves import MOVE, Move, action, card_move
from solitaire.piles import (
    FOUNDATION,
    RESERVE,
    STOCK,
    TABLEAU,
    WASTE,
    Layout,
    PileSpec,
    numbered,
    single,
)
from solitaire.state import State
from solitaire.variation import SHUFFLE_SEED_OPTION, Option, Variation

RESERVE_SIZE = 13
PILES = 4
TURN = 3  # cards turned from the stock by one s>w
REDEALS = 5  # six passes
FULL = 13  # cards on a finished foundation
DRAW = card_move("s", "w")
REDEAL = action("redeal")


class Demon(Variation):
    name = "demon"
    title = "Demon (one-deck Canfield)"
    deck = ONE_PACK
    layout = Layout(
        single(STOCK),
        single(WASTE),
        (PileSpec("w2", WASTE),),
        numbered(FOUNDATION, 4),
        numbered(TABLEAU, PILES),
        single(RESERVE),
    )
    interchangeable = (FOUNDATION,)  # solver hint: any empty foundation takes any base card
    options = (
        Option("foundation_suit", False,
               "DM2: when false (default, the text), foundations build up regardless of suit; "
               "when true, in suit (Canfield)"),
        Option("last_two", "both",
               "DM6: 'both' (default, the text): when one s>w turns exactly two cards, both are "
               "available (w2 names the lower one); 'top': only the waste top, as in Canfield",
               choices=("both", "top")),
        SHUFFLE_SEED_OPTION,
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """DM1, G6, G7: deck[0..12] form the reserve ``r``, face down but its top
        card, deck[12] on top. deck[13..16] go face up to t1..t4, one each.
        deck[17] goes to ``f1``: its rank is the base rank. The other 34 cards are
        the stock, face down, deck[18] on top (drawn first, G3). Counters:
        ``redeals`` = 5 (DM7) and the in-game shuffle counters of G6
        (``self.start_shuffles(state, cards)``).
        """
        ### BEGIN SOLUTION
        self.start_shuffles(state, cards)
        state.put("r", cards[:RESERVE_SIZE], face_up=False)
        state.turn_up("r")
        for index, pile in enumerate(self.piles(TABLEAU)):
            state.put(pile, [cards[RESERVE_SIZE + index]])
        state.put("f1", [cards[RESERVE_SIZE + PILES]])
        state.put("s", reversed(cards[RESERVE_SIZE + PILES + 1:]), face_up=False)
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """DM3, DM5, DM6: the reserve's top card, the waste's top card and the card
        on ``w2`` are available, one at a time. From a tableau pile any top run in
        descending order regardless of suit, wrapping (a king on an ace, any number
        of times), one card or more, moves as a unit. Stock and foundation cards
        never move.
        """
        ### BEGIN SOLUTION
        kind = self.kind(pile)
        if kind in (WASTE, RESERVE):
            return count == 1
        if kind != TABLEAU:
            return False
        run = state[pile].cards[-count:]
        return all(above.rank % 13 + 1 == below.rank for below, above in pairwise(run))
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """DM2, G8: one card at a time. An empty foundation takes a card of the base
        rank (the rank of ``f1``'s bottom card), from any available source. A
        foundation builds up regardless of suit, wrapping (an ace on a king), and
        holds 13 cards at most. Option ``foundation_suit`` true: up in suit.
        """
        ### BEGIN SOLUTION
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == state["f1"].cards[0].rank
        if len(state[foundation]) >= FULL:
            return False
        if state.option("foundation_suit") and card.suit != top.suit:
            return False
        return card.rank == top.rank % 13 + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """DM3, DM5, DM6: a card or run goes onto a tableau card one rank above the
        run's deepest card, regardless of suit, wrapping (a king on an ace). It may
        come from the reserve, the waste (``w`` or ``w2``) or another tableau pile.
        """
        ### BEGIN SOLUTION
        top = state.top(pile)
        return top is not None and top.rank == cards[0].rank % 13 + 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """DM4: while the reserve has cards a space is filled only by the refill
        effect, never by a move. Once the reserve is empty a space takes any
        available card or run (from the waste, ``w2`` or another tableau pile).
        """
        ### BEGIN SOLUTION
        return state.is_empty("r")
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """DM6, DM7, G5, G12: ``s>w`` is legal while the stock has cards; ``redeal``
        when the stock is empty and redeals remain (even with an empty waste). The
        player decides when (G12)."""
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [DRAW]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """DM6, DM7, G6: what the actions do.

        ``s>w`` turns min(3, n) stock cards one at a time onto the waste, so the
        last turned ends on top. When it turns exactly two and option ``last_two``
        is "both", the first of them goes to ``w2`` instead (still available).
        ``redeal`` gathers the waste bottom to top (``w2``'s card, if any, in its
        place just under ``w``'s top card), shuffles it (``state.shuffled``: the
        next in-game shuffle) and makes it the stock, face down, the first card of
        the shuffled list on top; one redeal fewer remains.
        """
        ### BEGIN SOLUTION
        if move == REDEAL:
            waste = list(state.take("w", len(state["w"])))
            if not state.is_empty("w2"):
                waste[-1:-1] = state.take("w2")
            state.put("s", reversed(state.shuffled(waste)), face_up=False)
            state.counters["redeals"] -= 1
            return
        turned = min(TURN, len(state["s"]))
        if turned == 2 and state.option("last_two") == "both":
            state.put("w2", state.take("s"))
            turned = 1
        for _ in range(turned):
            state.put("w", state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """DM6, DM4, G7, G11: effects after every move, in this order.

        When a card is played from ``w``, the card on ``w2`` is no longer apart:
        it goes back onto ``w`` (it is now the waste's top card). Each empty
        tableau pile, t1 first, takes the reserve's top card at once while the
        reserve has cards. The reserve's new top card turns face up.
        """
        ### BEGIN SOLUTION
        if move.kind == MOVE and move.args[0] == "w" and not state.is_empty("w2"):
            state.put("w", state.take("w2"))
        for pile in self.piles(TABLEAU):
            if state.is_empty(pile) and not state.is_empty("r"):
                state.put(pile, state.take("r"))
                state.turn_up("r")
        state.turn_up("r")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """DM8: won when all 52 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
