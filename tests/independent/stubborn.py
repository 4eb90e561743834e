"""Stubborn, written independently of the reference (from RULINGS-000.md SB1..SB7, G4, G7, G8).

Two packs. Stock ``s`` (top face up: the drawn card), waste ``w``, foundations f1..f8,
auxiliary stacks t1..t3, the stack ``r`` (15 cards, closed: top face up).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import TWO_PACKS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

STACK = 15
AUX = 3
RANKS = 13


class Stubborn(Variation):
    name = "stubborn"
    title = "Stubborn"
    deck = TWO_PACKS
    layout = Layout(single(STOCK), single(WASTE), numbered(FOUNDATION, 8), numbered(TABLEAU, AUX),
                    single(RESERVE))

    def _opened(self, state: State) -> bool:
        return bool(state["f1"].cards)

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """SB1: deck[0..14] the closed stack, deck[15..17] t1..t3, the rest the stock."""
        state.put("r", cards[:STACK], face_up=False)
        state.turn_up("r")
        for index in range(AUX):
            state.put(f"t{index + 1}", [cards[STACK + index]])
        state.put("s", list(reversed(cards[STACK + AUX:])), face_up=False)
        state.turn_up("s")

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """SB2: before the opening only an auxiliary top; then SB3/SB4: the stack's top, the
        drawn card, the waste top (one card) and an auxiliary top run down by one, no wrap."""
        kind = self.kind(pile)
        if not self._opened(state):
            return kind == TABLEAU and count == 1
        if kind in (STOCK, WASTE, RESERVE):
            return count == 1
        if kind != TABLEAU:
            return False
        cards = state[pile].cards[-count:]
        return all(upper.rank == lower.rank - 1 for lower, upper in zip(cards, cards[1:], strict=False))

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """SB2: the opening puts an auxiliary card of any rank on f1; SB3/G8: then an empty
        foundation takes the base rank, and each builds up regardless of suit, wrapping, 13."""
        if len(cards) != 1:
            return False
        card = cards[0]
        if not self._opened(state):
            return foundation == "f1" and self.kind(source) == TABLEAU
        pile = state[foundation].cards
        if not pile:
            return card.rank == state["f1"].cards[0].rank
        return len(pile) < RANKS and card.rank == pile[-1].rank % RANKS + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """SB4: one rank lower than the auxiliary top, suit ignored, no wrap (after the opening)."""
        top = state.top(pile)
        return self._opened(state) and top is not None and cards[0].rank == top.rank - 1

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """SB5: a space takes any available card or run once the stack and the stock are empty;
        before that the refill effect fills every space, so no move ever meets one."""
        return True

    def special_moves(self, state: State) -> list[Move]:
        """G4/SB7: ``s>w`` after the opening while the stock has cards; one pass."""
        if self._opened(state) and state["s"].cards:
            return [card_move("s", "w")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        (card,) = state.take("s", 1)
        state.put("w", [card])

    def _refill_stack(self, state: State) -> None:
        """SB6: an empty stack takes the next 15 stock cards (deck order, first at the bottom)."""
        if not state["r"].cards and state["s"].cards:
            taken = state.take("s", min(STACK, len(state["s"])))
            state.put("r", list(reversed(taken)), face_up=False)

    def after_move(self, state: State, move: Move) -> None:
        """SB6 then SB5, until nothing changes: the stack refills, empty auxiliary stacks (t1
        first) take its top; G7/G4: the stack's and the stock's tops are face up."""
        self._refill_stack(state)
        for index in range(AUX):
            name = f"t{index + 1}"
            if not state[name].cards and state["r"].cards:
                state.put(name, state.take("r", 1))
                self._refill_stack(state)
        state.turn_up("r")
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """SB7: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 104
