"""Permanent Stack (2 packs): eight suit-free foundations fed through a closed stack that never runs out.

Layout, in order: the stock ``s`` (95 cards, face down but its top card, the
drawn card), the waste ``w`` (empty at the start, face up), eight foundations
``f1``..``f8`` (empty at the start) and the stack ``r`` (9 cards, face down
but its top card; cards put on it later are face up). Counter ``redeals`` =
redeals left, 2 after the deal. No options. The phase is always ``play``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, RESERVE, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

FOUNDATIONS = 8
STACK = 9
REDEALS = 2
REDEAL = action("redeal")
DISCARD = card_move("s", "w")


class PermanentStack(Variation):
    name = "permanent_stack"
    title = "Permanent Stack"
    deck = TWO_PACKS
    layout = Layout(
        single(STOCK),
        single(WASTE),
        numbered(FOUNDATION, FOUNDATIONS),
        single(RESERVE, target=True),
    )
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed suit

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PS1, G7, G3, G4, G5: deck[0..8] are the stack ``r``, deck[0] at the bottom,
        face down but its top card (deck[8]) face up. The other 95 cards are the
        stock, face down, deck[9] on top and face up (the drawn card). Three passes:
        counter ``redeals`` = 2 (redeals left).
        """
        ### BEGIN SOLUTION
        state.put("r", cards[:STACK], face_up=False)
        state.turn_up("r")
        state.put("s", reversed(cards[STACK:]), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PS3, G4, G7: the drawn card (top of the stock), the top of the waste and
        the top of the stack are available, one card at a time. Foundation cards
        never move.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (STOCK, WASTE, RESERVE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PS2, G11: an empty foundation takes an ace (any empty one, placed by the
        player); a foundation builds up regardless of suit to the king, no wrap,
        one card at a time.
        """
        ### BEGIN SOLUTION
        card, *_ = cards  # the lowest card is the one that lands
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PS3, G9: the drawn card or the waste top goes onto the stack's top card one
        rank lower, suit ignored, no wrap (an ace takes nothing). Nothing else is
        built on the stack.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(pile)
        return self.kind(source) in (STOCK, WASTE) and top is not None and card.rank == top.rank - 1
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """G4, PS5, G5: ``s>w`` (discard the drawn card to the waste) is legal whenever
        the stock has a card, even a playable one. ``redeal`` is legal when the stock
        is empty and a redeal is left (counter ``redeals`` above 0), even with an
        empty waste.
        """
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [DISCARD]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """G4, PS5, G5: ``s>w`` puts the drawn card face up on the waste. ``redeal``
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
        """PS4, G7, G4, G11: effects after every move (a redeal too). An empty stack
        ``r`` takes at once the stock's top card, else the waste's top card, face
        up. Then the stack's top card and the stock's top card (the next drawn
        card) are turned face up. Nothing goes to a foundation by itself.
        """
        ### BEGIN SOLUTION
        if state.is_empty("r"):
            for source in ("s", "w"):
                if not state.is_empty(source):
                    state.put("r", state.take(source))
                    break
        state.turn_up("r")
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """PS5: won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): an ace or a two going to a foundation
        loses nothing. An empty foundation is left for every ace still out, and a two
        kept back could only take an ace on the stack, which may go to a foundation
        as well. (The engine's ``safe_foundation_move`` probes a tableau pile, and this
        game has none.)"""
        for source in ("s", "w", "r"):
            card = state.top(source)
            if card is None or card.rank > 2 or not self.can_pick_up(state, source, 1):
                continue
            if source == "s" and state[source].down == len(state[source]):
                continue
            for foundation in self.piles(FOUNDATION):
                if self.foundation_accepts(state, foundation, (card,), source):
                    return card_move(source, foundation)
        return None
