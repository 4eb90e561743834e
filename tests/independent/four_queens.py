"""Four Queens, written independently of the reference (from RULINGS-000.md FQ1..FQ6, G1..G13).

One pack, all of it the stock ``s`` (deck[0] on top, the top card face up: the drawn
card), the waste ``w``, and twelve slots: queens f1..f4, fives f5..f8, sixes f9..f12.
Counter ``redeals`` = redeals left (2: three passes). Option ``strict_phases`` (on):
queens first, then fives and sixes, then building; off, every slot is open at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, JACK, KING, ONE_PACK, QUEEN, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

FIVE, SIX = 5, 6
QUEENS = ("f1", "f2", "f3", "f4")
FIVES = ("f5", "f6", "f7", "f8")
SIXES = ("f9", "f10", "f11", "f12")


class FourQueens(Variation):
    name = "four_queens"
    title = "Four Queens"
    deck = ONE_PACK
    layout = Layout(single(STOCK), single(WASTE), numbered(FOUNDATION, 12))
    options = (Option("strict_phases", True, "FQ4: queens, then fives and sixes, then building"),)

    def _placed(self, state: State, slots: tuple[str, ...]) -> int:
        return sum(1 for name in slots if state[name].cards)

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """FQ1/G3/G4: the whole pack is the stock, deck[0] on top, face up; 2 redeals (FQ5)."""
        state.put("s", list(reversed(cards)), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = 2

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """FQ5: the drawn card and the waste top, one at a time."""
        return count == 1 and self.kind(pile) in (STOCK, WASTE)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """FQ2-FQ4: a queen on an empty queen slot; a five / six on an empty five / six slot
        (strict: once the four queens lie); then five-stacks down in suit 4 3 2 A K and
        six-stacks up in suit 7..J (strict: once all eight fives and sixes lie)."""
        if len(cards) != 1:
            return False
        card = cards[0]
        strict = state.option("strict_phases")
        top = state.top(foundation)
        if foundation in QUEENS:
            return top is None and card.rank == QUEEN
        bases_open = not strict or self._placed(state, QUEENS) == 4
        building_open = not strict or self._placed(state, FIVES + SIXES) == 8
        if foundation in FIVES:
            if top is None:
                return bases_open and card.rank == FIVE
            if not building_open or card.suit != top.suit or top.rank == KING:
                return False
            wanted = KING if top.rank == ACE else top.rank - 1
            return card.rank == wanted
        if top is None:
            return bases_open and card.rank == SIX
        return building_open and card.suit == top.suit and top.rank < JACK and card.rank == top.rank + 1

    def special_moves(self, state: State) -> list[Move]:
        """FQ2/G4: ``s>w`` unless the drawn card is a queen; G5/FQ5: ``redeal`` with the stock
        empty while redeals remain."""
        top = state.top("s")
        if top is not None:
            return [] if top.rank == QUEEN else [card_move("s", "w")]
        if state.counters["redeals"] > 0:
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """G4: the drawn card face up onto the waste; G5: the waste turned over unshuffled."""
        if move.kind == "redeal":
            waste = state.take("w", len(state["w"]))
            state.put("s", list(reversed(waste)), face_up=False)
            state.counters["redeals"] -= 1
            return
        (card,) = state.take("s", 1)
        state.put("w", [card])

    def after_move(self, state: State, move: Move) -> None:
        """G4: the next stock card is drawn face up."""
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """FQ6: all 52 cards placed."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 52
