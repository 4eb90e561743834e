"""Double Fives, written independently of the reference (from RULINGS.md D1..D6).

Two separate packs. Columns t1..t10, foundations f1..f8 (base rank, wrapping),
hand-row slots h1..h5 (not targets), discard pile ``d`` (face down), stock ``s``,
waste ``w``. Phase ``hand`` (dealing fives into the hand row), then phase
``stock`` (stock play, one card at a time, its top card face up).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import TWO_SEPARATE_PACKS, Card, next_rank
from solitaire.moves import Move, action, card_move
from solitaire.piles import (
    DISCARD,
    FOUNDATION,
    HAND,
    STOCK,
    TABLEAU,
    WASTE,
    Layout,
    numbered,
    single,
)
from solitaire.state import State
from solitaire.variation import Variation

HAND_PHASE, STOCK_PHASE = "hand", "stock"
PACK = 52


class DoubleFives(Variation):
    name = "double_fives"
    title = "Double Fives"
    deck = TWO_SEPARATE_PACKS
    layout = Layout(
        numbered(TABLEAU, 10),
        numbered(FOUNDATION, 8),
        numbered(HAND, 5),
        single(DISCARD),
        single(STOCK),
        single(WASTE),
    )

    # -- helpers ---------------------------------------------------------------
    def _base_rank(self, state: State) -> int:
        return state["f1"].cards[0].rank

    def _sweep_hand(self, state: State) -> None:
        """D5: every card left in the hand row, slot by slot, face down onto ``d``."""
        for slot in self.piles(HAND):
            if not state.is_empty(slot):
                state.put("d", state.take(slot), face_up=False)

    # -- rules -----------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """D1: pack A: 25 cards row by row into t1..t5, 25 into t6..t10, face up; the
        51st card is the base card (f1), the 52nd lies face up in h1. Pack B is the stock."""
        pack_a, pack_b = cards[:PACK], cards[PACK:]
        columns = self.piles(TABLEAU)
        for index, card in enumerate(pack_a[:50]):
            side = 0 if index < 25 else 5
            state.put(columns[side + index % 5], [card])
        state.put("f1", [pack_a[50]])
        state.put("h1", [pack_a[51]])
        state.put("s", list(reversed(pack_b)), face_up=False)
        state.phase = HAND_PHASE

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """D3: one card at a time; the tableau tops and every hand-row card are available
        (D5); in phase 2 the top stock and waste cards (D6). Never from a foundation."""
        return count == 1 and self.kind(pile) in (TABLEAU, HAND, STOCK, WASTE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """D2: an empty foundation takes a base-rank card; up in suit, wrapping K to A, 13 cards."""
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == self._base_rank(state)
        if len(state[foundation]) >= 13:
            return False
        return card.suit == top.suit and card.rank == next_rank(top.rank, wrap=True)

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """D3: down in suit, wrapping (a king may go on an ace); one card at a time."""
        top = state.top(pile)
        if len(cards) != 1 or top is None or self.kind(pile) != TABLEAU:
            return False
        card = cards[0]
        return card.suit == top.suit and next_rank(card.rank, wrap=True) == top.rank

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """D4: a space takes any single available card, at any time."""
        return len(cards) == 1 and self.kind(pile) == TABLEAU

    def special_moves(self, state: State) -> list[Move]:
        """D5: ``deal`` in phase 1 while the stock has cards; D6: ``redeal`` in phase 1
        once it is empty; ``s>w`` in phase 2 while the stock has cards."""
        stock_left = not state.is_empty("s")
        if state.phase == HAND_PHASE:
            return [action("deal")] if stock_left else [action("redeal")]
        return [card_move("s", "w")] if stock_left else []

    def apply_special(self, state: State, move: Move) -> None:
        """D5 ``deal``: sweep the hand row onto ``d``, then the next five stock cards face
        up into h1..h5. D6 ``redeal``: sweep, turn ``d`` over as the stock (first swept,
        first drawn), phase 2. ``s>w``: discard the drawn card."""
        if move.kind == "deal":
            self._sweep_hand(state)
            for slot in self.piles(HAND):
                if state.is_empty("s"):
                    break
                state.put(slot, state.take("s"))
        elif move.kind == "redeal":
            self._sweep_hand(state)
            swept = state.take("d", len(state["d"]))
            state.put("s", list(reversed(swept)), face_up=False)
            state.phase = STOCK_PHASE
        else:
            state.put("w", state.take("s"))

    def after_move(self, state: State, move: Move) -> None:
        """Stock ruling (phase 2): the top stock card is face up (the drawn card)."""
        if state.phase == STOCK_PHASE:
            state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """Won when all 104 cards are on the foundations."""
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
