"""Rainbow of seed 000, written independently of the reference (from RULINGS-000.md RB1..RB6,
G4, G6, G8).

Two packs. Stock ``s`` (top face up; no waste), foundations f1..f8 (a base card each),
auxiliary stacks t1..t3, the open stack ``r`` (28 cards, face up). Counters ``redeals`` = 1,
``shuffle_seed``, ``shuffles``; option ``shuffle_seed``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import TWO_PACKS, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import SHUFFLE_SEED_OPTION, Variation

OPEN = 28
BASES = 8
RANKS = 13


class Rainbow(Variation):
    name = "rainbow"
    title = "Rainbow"
    deck = TWO_PACKS
    layout = Layout(
        single(STOCK), numbered(FOUNDATION, BASES), numbered(TABLEAU, 3), single(RESERVE, target=True)
    )
    options = (SHUFFLE_SEED_OPTION,)

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """RB1: deck[0..27] the open stack (deck[27] on top), deck[28..35] f1..f8, the rest
        the stock (deck[36] on top, face up)."""
        state.put("r", cards[:OPEN])
        for index in range(BASES):
            state.put(f"f{index + 1}", [cards[OPEN + index]])
        state.put("s", list(reversed(cards[OPEN + BASES:])), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = 1
        self.start_shuffles(state, cards)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """RB3/RB4: the drawn card, an auxiliary top, the open stack's top."""
        return count == 1 and self.kind(pile) in (STOCK, TABLEAU, RESERVE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """RB2: one rank up regardless of suit, wrapping, 13 cards a foundation."""
        pile = state[foundation].cards
        return (len(cards) == 1 and bool(pile) and len(pile) < RANKS
                and cards[0].rank == pile[-1].rank % RANKS + 1)

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """RB3: onto ``r`` the drawn card or an auxiliary top, one rank lower, no wrap; RB4: an
        auxiliary stack takes the drawn card only."""
        if len(cards) != 1:
            return False
        if pile == "r":
            top = state.top("r")
            return (top is not None and (source == "s" or self.kind(source) == TABLEAU)
                    and cards[0].rank == top.rank - 1)
        return source == "s"

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """RB4: an empty auxiliary stack takes the drawn card; RB3: an empty ``r`` nothing."""
        return len(cards) == 1 and self.kind(pile) == TABLEAU and source == "s"

    def special_moves(self, state: State) -> list[Move]:
        """RB5: ``redeal`` once, the stock empty."""
        if not state["s"].cards and state.counters["redeals"] > 0:
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """RB5: t1..t3 gathered bottom to top, shuffled (G6), the new stock, first card on top."""
        gathered: list[Card] = []
        for name in ("t1", "t2", "t3"):
            gathered.extend(state.take(name, len(state[name])))
        state.counters["redeals"] -= 1
        state.put("s", list(reversed(state.shuffled(gathered))), face_up=False)

    def after_move(self, state: State, move: Move) -> None:
        """G4: the next stock card is turned up."""
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """RB6: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 104
