"""Sir Tommy, written independently of the reference (from RULINGS-000.md ST1..ST4, G1..G13
and the tightened ST note).

One pack, no layout: all 52 cards are the stock ``s``, deck[0] on top and face up (G3, G4);
no waste and no ``s>w``. Foundations f1..f4 take an ace when empty and build up in suit
(``foundation_suit`` on) or by rank alone (off) to the king. The drawn card goes to a
foundation or onto any of the auxiliary stacks t1..t4; an auxiliary top goes only to a
foundation, at any time. One pass: won with all 52 cards on the foundations.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

TOTAL = 52


class SirTommy(Variation):
    name = "sir_tommy"
    title = "Sir Tommy"
    deck = ONE_PACK
    layout = Layout(single(STOCK), numbered(FOUNDATION, 4), numbered(TABLEAU, 4))
    options = (
        Option("foundation_suit", True, "ST2: foundations build up in suit; off: by rank alone"),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """ST1/G3/G4: every card to the stock in deck order, deck[0] on top and face up."""
        state.put("s", list(reversed(cards)), face_up=False)
        state.turn_up("s")

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """G4/ST3: the drawn (top stock) card and an auxiliary stack's top, one at a time;
        foundation cards never move."""
        return count == 1 and self.kind(pile) in (STOCK, TABLEAU)

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """ST2: an ace on an empty foundation; then one rank up, same suit with
        ``foundation_suit``, any suit without; no wrap (G8: ace-based)."""
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        if state.option("foundation_suit") and card.suit != top.suit:
            return False
        return card.rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """ST3/G4: an auxiliary stack takes any single card from the stock; nothing else."""
        return len(cards) == 1 and source == "s"

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """ST3/G4: an empty auxiliary stack takes the drawn card too, and nothing else."""
        return len(cards) == 1 and source == "s" and self.kind(pile) == TABLEAU

    def special_moves(self, state: State) -> list[Move]:
        """ST1/ST4: no waste, no draw action, one pass: nothing special."""
        return []

    def apply_special(self, state: State, move: Move) -> None:
        raise ValueError(f"Sir Tommy has no special move {move}")

    def after_move(self, state: State, move: Move) -> None:
        """G4: the next stock card is drawn face up."""
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """ST4: all 52 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
