"""Metternich, written independently of the reference (from RULINGS.md M1..M6).

Two packs. 12 columns t1..t12 of 4 cards, 8 foundations f1..f8, stock ``s``
(top card face up: the drawn card), waste ``w``. Counter ``redeals``: redeals
left, 1 then 0.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from solitaire.cards import ACE, KING, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

COLUMNS = 12
ROWS = 4


class Metternich(Variation):
    name = "metternich"
    title = "Metternich"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, COLUMNS), numbered(FOUNDATION, 8), single(STOCK), single(WASTE)
    )
    options = (
        Option(
            "kings_rule",
            True,
            "M1: a dealt king whose suit already has a king in the layout goes to the "
            "bottom of the stock and the next card is dealt in its place",
        ),
    )

    # -- helpers ---------------------------------------------------------------
    def _disabled(self, state: State, pile: str) -> bool:
        """M5: a column right of the leftmost empty column is disabled."""
        columns = self.piles(TABLEAU)
        if pile not in columns:
            return False
        for column in columns[: columns.index(pile)]:
            if state.is_empty(column):
                return True
        return False

    @staticmethod
    def _is_run(cards: Sequence[Card]) -> bool:
        return all(
            upper.suit == lower.suit and upper.rank == lower.rank - 1
            for lower, upper in zip(cards, cards[1:], strict=False)
        )

    # -- rules -----------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """M1: 48 cards row by row into 12 columns of 4, face up; with the kings rule a
        king of a suit whose king is already in the layout goes to the bottom of the
        stock and the next card is dealt in its place. The rest is the stock."""
        queue = deque(cards)
        columns = self.piles(TABLEAU)
        kings_seen: set[str] = set()
        for index in range(COLUMNS * ROWS):
            card = queue.popleft()
            while state.option("kings_rule") and card.rank == KING and card.suit in kings_seen:
                queue.append(card)
                card = queue.popleft()
            if card.rank == KING:
                kings_seen.add(card.suit)
            state.put(columns[index % COLUMNS], [card])
        stock = list(reversed(queue))
        state.put("s", stock, face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = 1

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """M3: the top stock and waste cards are available. M4: a same-suit descending
        run at the top of a column may move. M5: a disabled column gives only its top
        card (to a foundation). Cards never leave a foundation."""
        kind = self.kind(pile)
        if kind in (STOCK, WASTE):
            return count == 1
        if kind != TABLEAU:
            return False
        if count == 1:
            return True
        if self._disabled(state, pile):
            return False
        return self._is_run(state[pile].cards[-count:])

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """M2: aces start the foundations, which build up in suit to king, one card at a time."""
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """M4: a run goes onto a card of its suit one rank above its lowest card.
        M5: disabled columns neither take nor give cards."""
        top = state.top(pile)
        if top is None or self.kind(pile) != TABLEAU:
            return False
        if self._disabled(state, pile) or self._disabled(state, source):
            return False
        return cards[0].suit == top.suit and cards[0].rank == top.rank - 1

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """M5: spaces are never filled."""
        return False

    def special_moves(self, state: State) -> list[Move]:
        """M3: ``s>w`` while the stock has cards; M6: one ``redeal`` when the stock is empty."""
        if not state.is_empty("s"):
            return [card_move("s", "w")]
        if state.counters.get("redeals", 0) > 0:
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """M3: ``s>w`` discards the drawn card. M6: ``redeal`` turns the waste over,
        unshuffled, as the new stock (the first card discarded is drawn first)."""
        if move.kind == "redeal":
            waste = state.take("w", len(state["w"]))
            state.put("s", list(reversed(waste)), face_up=False)
            state.counters["redeals"] -= 1
        else:
            state.put("w", state.take("s"))

    def after_move(self, state: State, move: Move) -> None:
        """General stock ruling: the top stock card is face up (the drawn card)."""
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """Won when all 104 cards are on the foundations."""
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
