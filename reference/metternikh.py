"""Metternikh (1 pack without kings, 48 cards): Doublets; build one foundation by doubling.

Layout, in this order: the stock ``s`` (40 cards, face down but its top card,
the drawn card), the waste ``w`` (face up, empty at the start), the foundation
``f1`` (one face-up card, the base, at the start) and the horseshoe
``t1``..``t7`` (one face-up card each at the start). Counter ``redeals``: the
redeals left, 1 at the deal (two passes). No other counter; the phase word is
always ``play``. No options. The deck has no kings: ranks ace to queen.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, QUEEN, Card, Deck
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

HORSESHOE = 7
REDEALS = 1
VALUES = 13  # doubling is taken modulo 13: 8 doubles to 16 - 13 = 3
DISCARD = card_move("s", "w")
REDEAL = action("redeal")


def doubles(card: Card, below: Card) -> bool:
    """MK2: ``card`` fits on ``below`` when its value is twice below's, less 13 past 13."""
    double = 2 * below.rank
    return card.rank == (double - VALUES if double > VALUES else double)


class Metternikh(Variation):
    name = "metternikh"
    title = "Metternikh (Doublets; not Metternich)"
    deck = Deck(1, ranks=tuple(range(ACE, QUEEN + 1)))
    layout = Layout(
        single(STOCK),
        single(WASTE),
        numbered(FOUNDATION, 1),
        numbered(TABLEAU, HORSESHOE),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """MK1, G1, G3, G4, MK6: kings removed (48 cards). deck[0..6] face up to the
        horseshoe ``t1``..``t7``, one each; deck[7] face up to ``f1``, the base. The
        other 40 cards are the stock, face down, deck[8] on top and face up (the
        drawn card). The waste is empty. Two passes: ``redeals`` = 1.
        """
        ### BEGIN SOLUTION
        for pile, card in zip(self.piles(TABLEAU), cards, strict=False):
            state.put(pile, [card])
        state.put("f1", [cards[HORSESHOE]])
        state.put("s", reversed(cards[HORSESHOE + 1 :]), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """MK3, MK4, G4: one card at a time: the top of a horseshoe pile, the drawn
        card (the top stock card) or the waste top. The foundation never gives a card.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (TABLEAU, STOCK, WASTE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """MK2, MK3: ``f1`` takes a card whose value doubles its top card's (ace 1 ...
        queen 12; 2v - 13 past 13: the cycle A 2 4 8 3 6 Q J 9 5 10 7), suits ignored,
        from a horseshoe top, the drawn card or the waste top.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(foundation)
        return top is not None and doubles(card, top)
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MK4: the drawn card and the waste top may go onto a horseshoe pile by MK2
        (its value doubles the pile's top card's). A horseshoe top never goes onto
        another horseshoe pile (gap): horseshoe tops go only to ``f1``.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(pile)
        return self.kind(source) in (STOCK, WASTE) and top is not None and doubles(card, top)
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """MK5: an empty horseshoe pile is filled only by the refill effect, never by a
        move. (While the waste or the stock has a card no pile stays empty.)
        """
        ### BEGIN SOLUTION
        return False
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """G4, G5, MK6: ``s>w`` discards the drawn card while the stock has cards,
        even when it could be played; ``redeal`` is legal when the stock is empty and
        the redeal is left, even with an empty waste. Whether the horseshoe is stuck
        is not checked.
        """
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [DISCARD]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """G4, G5, MK6: ``s>w`` puts the drawn card face up on the waste. ``redeal``
        turns the waste over, unshuffled, as the new stock, face down: the first card
        discarded is the next card drawn. ``redeals`` drops by one.
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
        """MK5 effect (Doublets), G4, G11: after every move (a redeal too) each empty
        horseshoe pile, in number order, takes the waste top face up, or the drawn
        card when the waste is empty; it stays empty only when both are empty. Then
        the new top stock card turns face up.
        """
        ### BEGIN SOLUTION
        for pile in self.piles(TABLEAU):
            if not state.is_empty(pile):
                continue
            source = "w" if not state.is_empty("w") else "s"
            if state.is_empty(source):
                break
            state.put(pile, state.take(source))
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """MK7: won when all 48 cards are on ``f1``."""
        ### BEGIN SOLUTION
        return len(state["f1"]) == self.deck.size
        ### END SOLUTION
