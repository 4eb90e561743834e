"""Cotillion (2 packs): Contradance; fives build down to the kings, sixes up to the queens.

Layout, in this order: the stock ``s`` (88 cards, face down but its top card,
the drawn card), the waste ``w`` (face up, empty at the start) and sixteen
foundations, face up: the five-foundations ``f1``..``f8`` (one five each at the
start) and the six-foundations ``f9``..``f16`` (one six each at the start).
Counter ``redeals``: the redeals left, 1 at the deal (two passes). No other
counter; the phase word is always ``play``. No options.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, QUEEN, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

BASES = 8  # of each kind: fives, sixes
REDEALS = 1
DISCARD = card_move("s", "w")
REDEAL = action("redeal")


class Cotillion(Variation):
    name = "cotillion"
    title = "Cotillion"
    deck = TWO_PACKS
    layout = Layout(single(STOCK), single(WASTE), numbered(FOUNDATION, 2 * BASES))

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """CT1, G3, G4, CT4: the sixteen fives and sixes are taken out in deck order:
        the fives to ``f1``..``f8``, the sixes to ``f9``..``f16``, as met. The other
        88 cards are the stock in deck order, face down, the first of them on top and
        face up (the drawn card). The waste is empty. Two passes: ``redeals`` = 1.
        """
        ### BEGIN SOLUTION
        fives = iter(self.piles(FOUNDATION)[:BASES])
        sixes = iter(self.piles(FOUNDATION)[BASES:])
        rest = []
        for card in cards:
            if card.rank == 5:
                state.put(next(fives), [card])
            elif card.rank == 6:
                state.put(next(sixes), [card])
            else:
                rest.append(card)
        state.put("s", reversed(rest), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """CT3, G4: only the drawn card (the top stock card) and the top waste card
        are sources, one card at a time. Foundation cards never move.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (STOCK, WASTE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """CT2: a five-foundation (``f1``..``f8``) builds down in its suit 4, 3, 2, A,
        then K, and takes nothing on the king; a six-foundation (``f9``..``f16``)
        builds up in its suit 7 to Q, and takes nothing on the queen.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(foundation)
        if top is None or card.suit != top.suit:
            return False
        if self.piles(FOUNDATION).index(foundation) < BASES:
            return top.rank != KING and card.rank == (KING if top.rank == ACE else top.rank - 1)
        return top.rank != QUEEN and card.rank == top.rank + 1
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """G4, G5, CT4: ``s>w`` discards the drawn card while the stock has cards, even
        when it could be played; ``redeal`` is legal when the stock is empty and the
        redeal is left, even with an empty waste.
        """
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [DISCARD]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """G4, G5, CT4: ``s>w`` puts the drawn card face up on the waste. ``redeal``
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
        """G4, G11: after every move (a redeal too) the new top stock card turns face
        up: the next drawn card. Nothing goes to a foundation by itself.
        """
        ### BEGIN SOLUTION
        state.turn_up("s")  # the next drawn card
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """CT5: won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
