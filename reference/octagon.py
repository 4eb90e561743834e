"""Octagon (2 packs): eight ace foundations, four closed corner stacks refilled from the stock, three passes.

Layout, in order: the stock ``s`` (76 cards, face down but its top card, the
drawn card), the waste ``w`` (empty at the start, face up), eight foundations
``f1``..``f8`` (one ace each after the deal) and four corner stacks
``t1``..``t4`` (5 cards each, face down but the top card; cards built on a
corner are face up, a refill is closed again). Counter ``redeals`` = redeals
left, 2 after the deal. Option ``corner_suit`` (true | false, default true):
corners build down in suit, or regardless of suit. The phase is always
``play``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

FOUNDATIONS = 8
CORNERS = 4
CORNER = 5
REDEALS = 2
REDEAL = action("redeal")
DISCARD = card_move("s", "w")


class Octagon(Variation):
    name = "octagon"
    title = "Octagon"
    deck = TWO_PACKS
    layout = Layout(
        single(STOCK),
        single(WASTE),
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(TABLEAU, CORNERS),
    )
    options = (
        Option(
            "corner_suit",
            True,
            "OC3: when true (default, PySol's Octagon), a card goes onto a corner's top card of "
            "its suit one rank higher; when false, of any suit",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """OC1, G3, G4, G7, OC6: the eight aces go to ``f1``..``f8`` in deck order.
        The next 20 other cards go round-robin into the corners ``t1``..``t4``,
        five rounds (the first four are the bottom cards), closed: face down but
        the top card. The remaining 76 are the stock in deck order, face down, its
        top card face up (the drawn card). Counter ``redeals`` = 2.
        """
        ### BEGIN SOLUTION
        aces = [card for card in cards if card.rank == ACE]
        for foundation, ace in zip(self.piles(FOUNDATION), aces, strict=True):
            state.put(foundation, [ace])
        rest = [card for card in cards if card.rank != ACE]
        corners = self.piles(TABLEAU)
        for index, card in enumerate(rest[:CORNERS * CORNER]):
            state.put(corners[index % CORNERS], [card], face_up=False)
        for corner in corners:
            state.turn_up(corner)
        state.put("s", reversed(rest[CORNERS * CORNER:]), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """OC3, OC4, G4, G7: one card at a time: the drawn card, the waste top, a
        corner's top card, and a foundation's top card unless it is the ace (OC4).
        """
        ### BEGIN SOLUTION
        kind = self.kind(pile)
        if kind == FOUNDATION:
            return count == 1 and len(state[pile]) > 1
        return count == 1 and kind in (STOCK, WASTE, TABLEAU)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """OC2, OC4: a foundation (started by its ace, OC1) builds up in suit to the
        king, one card at a time. A foundation card goes only onto a corner, never
        to another foundation.
        """
        ### BEGIN SOLUTION
        card, *_ = cards  # the lowest card is the one that lands
        top = state.top(foundation)
        return (self.kind(source) != FOUNDATION and top is not None
                and card.suit == top.suit and card.rank == top.rank + 1)
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """OC3, OC4, G9: a corner top (from another corner), the drawn card, the waste
        top or a foundation top (never its ace) goes onto a corner's top card one
        rank higher, no wrap; in suit with option ``corner_suit`` (default), any
        suit without.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state[pile].cards[-1]
        if state.option("corner_suit") and card.suit != top.suit:
            return False
        return card.rank == top.rank - 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """OC5, G13: an empty corner takes nothing by a move (only the refill effect
        fills it)."""
        ### BEGIN SOLUTION
        return False  # only the refill effect fills a corner
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """G4, OC6, G5: ``s>w`` (discard the drawn card to the waste) is legal whenever
        the stock has a card. ``redeal`` is legal when the stock is empty and a
        redeal is left (counter ``redeals`` above 0), even with an empty waste.
        """
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [DISCARD]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """G4, OC6, G5: ``s>w`` puts the drawn card face up on the waste. ``redeal``
        turns the waste over, unshuffled, to become the stock, face down: the first
        card discarded is the next drawn. ``redeals`` drops by one.
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
        """OC5, G7, G4, G11: effects after every move (a redeal too). Each empty corner,
        in number order, takes the next five stock cards (fewer if short), one at a
        time, the stock's top card first (at the bottom), closed. Then every corner's
        top card and the stock's top card are turned face up. Nothing goes to a
        foundation by itself.
        """
        ### BEGIN SOLUTION
        for corner in self.piles(TABLEAU):
            if state.is_empty(corner):
                for _ in range(min(CORNER, len(state["s"]))):
                    state.put(corner, state.take("s"), face_up=False)
            state.turn_up(corner)
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """OC7: won when all eight foundations end with kings (all 104 cards on them)."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
