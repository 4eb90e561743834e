"""Patriarchs (2 packs): nine open cards feed ace-up and king-down foundations.

Layout: eight foundations ``f1``..``f8`` (an ace of each suit on ``f1``..``f4``,
a king of each suit on ``f5``..``f8``, dealt before play), nine tableau
positions ``t1``..``t9`` of one face-up card each, the stock ``s`` (its top
card face up: the drawn card) and the waste ``w``. Nothing is built on the
tableau; an emptied position is refilled at once from the waste, else the
stock. The top cards of a suit's two foundations may pass from one to the
other. The counter ``redeals`` counts the redeals left (1, then 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

FOUNDATIONS = 8
POSITIONS = 9
REDEALS = 1
DISCARD = card_move("s", "w")
REDEAL = action("redeal")


class Patriarchs(Variation):
    name = "patriarchs"
    title = "Patriarchs"
    deck = TWO_PACKS
    layout = Layout(
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(TABLEAU, POSITIONS),
        single(STOCK),
        single(WASTE),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PA1, X3, X4: the bases come out first, then nine cards, then the stock.

        The first ace of each suit in deck order goes to ``f1``..``f4`` and the
        first king of each suit to ``f5``..``f8``, each set in the order the
        cards appear in the deck (PA1, gap). Of the other 96 cards, in deck
        order, the first 9 go face up to ``t1``..``t9`` (3 rows of 3 in reading
        order, one card each). The rest are the stock, face down, its first card
        on top and face up: the drawn card (X4). One redeal: ``redeals`` = 1.
        """
        ### BEGIN SOLUTION
        bases: dict[tuple[int, str], Card] = {}
        rest = []
        for card in cards:
            if card.rank in (ACE, KING) and (card.rank, card.suit) not in bases:
                bases[card.rank, card.suit] = card
            else:
                rest.append(card)
        aces = [card for card in bases.values() if card.rank == ACE]
        kings = [card for card in bases.values() if card.rank == KING]
        for foundation, card in zip(self.piles(FOUNDATION), aces + kings, strict=True):
            state.put(foundation, [card])
        for position, card in zip(self.piles(TABLEAU), rest, strict=False):
            state.put(position, [card])
        state.put("s", reversed(rest[POSITIONS:]), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PA4, PA6, PA3: one card at a time, from anywhere but a foundation's base.

        Every tableau card (PA4), the top stock card and the top waste card
        (PA6, X4) may move. A foundation's top card may move too (PA3, the
        transfer to the other foundation of its suit), but never the base ace or
        king the deal put there: a foundation holding one card gives nothing.
        """
        ### BEGIN SOLUTION
        if count != 1:
            return False
        if self.kind(pile) == FOUNDATION:
            return len(state[pile]) > 1
        return True
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PA2, PA3: ``f1``..``f4`` build up in suit to the king, ``f5``..``f8``
        build down in suit to the ace, one card at a time.

        The card may come from a tableau position, the stock, the waste (PA4,
        PA6) or the top of another foundation (PA3: the transfer is legal
        exactly when this foundation's build rule accepts the card, so only the
        other foundation of the card's suit can take it). Foundations are never
        empty in play (their bases never move); an empty one takes nothing.
        Only one card is ever offered: that is :meth:`can_pick_up`'s rule.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(foundation)
        if top is None or card.suit != top.suit:
            return False
        step = 1 if self.piles(FOUNDATION).index(foundation) < FOUNDATIONS // 2 else -1
        return card.rank == top.rank + step
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PA4: nothing is built on the tableau: a tableau card takes no card."""
        ### BEGIN SOLUTION
        return False  # no building at all, whatever the cards
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PA4, PA5: cards enter the tableau only by the refill (an effect, PA5),
        never by a move: an empty position takes no card. (It is empty only when
        the stock and the waste are both empty.)
        """
        ### BEGIN SOLUTION
        return False  # only the PA5 refill (after_move) fills a position
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """PA6, PA7, X4: the actions.

        ``s>w`` (the drawn card to the waste) is legal whenever the stock has a
        card, even when that card could be played (X4). ``redeal`` is legal when
        the stock is empty and the redeal is unused (``redeals`` is 1) (PA7),
        even with an empty waste: the text's only condition is the empty stock.
        """
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [DISCARD]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """PA6, PA7: what the actions do.

        ``s>w`` puts the top stock card face up on the waste. ``redeal`` turns
        the whole waste over, unshuffled, as the stock, face down: the first
        card discarded (the waste's bottom card) is the next card drawn (the top
        of the stock). The counter ``redeals`` drops by one.
        """
        ### BEGIN SOLUTION
        if move == REDEAL:
            waste = state.take("w", len(state["w"]))
            state.put("s", reversed(waste), face_up=False)
            state.counters["redeals"] -= 1
        else:
            state.put("w", state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """PA5, X10, X4: the effects after every move.

        Each empty tableau position, ``t1`` to ``t9``, is filled at once with the
        top card of the waste, or, when the waste is empty, with the top card of
        the stock, face up; with both empty it stays empty (PA5, gap: waste
        first). Then the top stock card is turned face up (X4: the drawn card).
        Nothing goes to a foundation by itself.
        """
        ### BEGIN SOLUTION
        for position in self.piles(TABLEAU):
            if state.is_empty(position):
                source = "w" if not state.is_empty("w") else "s"
                if not state.is_empty(source):
                    state.put(position, state.take(source))
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """PA8: the game is won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
