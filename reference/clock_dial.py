"""Clock, seed 000 (1 pack): thirteen rank piles in a dial, filled from the stock in alternating colours.

Layout, in this order: the stock ``s`` (all 52 cards, face down but its top
card, the drawn card), the waste ``w`` (face up, empty at the start) and
thirteen rank piles ``f1``..``f13`` (face up, empty at the start; ``f1`` aces
... ``f11`` jacks, ``f12`` queens, ``f13`` kings). Counter ``redeals``: the
redeals left, 1 at the deal, 0 once the waste has been turned over. No other
counter; the phase word is always ``play``: the primary suit and each
position's suit are read from the piles. Options: ``primary_suit``, one of ``first`` (default), ``c``,
``d``, ``h``, ``s``; ``suit_sequence``, true or false (default false).

Not the classic Clock (Travellers); rebuilt from German Clock ("Die Uhr").
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

RANK_PILES = 13
REDEALS = 1
DISCARD = card_move("s", "w")
REDEAL = action("redeal")


class ClockDial(Variation):
    name = "clock_dial"
    title = "Clock (rank dial)"
    deck = ONE_PACK
    layout = Layout(single(STOCK), single(WASTE), numbered(FOUNDATION, RANK_PILES))
    options = (
        Option(
            "primary_suit",
            "first",
            "CK3: the suit every rank pile starts with: 'first' (default: the first card "
            "placed on any pile fixes it) or c, d, h, s, fixed in advance",
            ("first", "c", "d", "h", "s"),
        ),
        Option(
            "suit_sequence",
            False,
            "CK5: when true, the k-th card of every pile has the same suit, fixed by the "
            "first card placed in position k (German Clock); default false",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """CK1, G3, G4: no layout: all 52 cards are the stock, face down, the first
        card of the deck on top and face up (the drawn card). The waste and the
        thirteen rank piles start empty. One redeal: ``redeals`` = 1 (CK1, G5).
        """
        ### BEGIN SOLUTION
        state.put("s", reversed(cards), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """CK2, G4: only the drawn card (the top stock card) and the top waste card
        are available, one card at a time. Cards never leave a rank pile.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (STOCK, WASTE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """CK2, CK3, CK4, CK5: where a card may go.

        CK2: a card goes only to the pile of its rank (``f1`` aces ... ``f13``
        kings). CK3: the first card of every pile is of the primary suit: with
        ``primary_suit`` "first", the suit of the first card placed on any pile
        (read from the piles: the bottom card of any non-empty pile; while all
        are empty any suit starts one); otherwise the option's suit. CK4: on a
        non-empty pile the card differs in colour from the pile's top card.
        CK5: with ``suit_sequence`` true, the card landing in position k of its
        pile has the suit of the k-th card of any pile that already has k cards
        (position 1 by CK3).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        if card.rank != self.piles(FOUNDATION).index(foundation) + 1:
            return False
        pile = state[foundation].cards
        if not pile:
            fixed = state.option("primary_suit")
            if fixed != "first":
                return card.suit == str(fixed).upper()
            bottoms = [state[f].cards[0] for f in self.piles(FOUNDATION) if state[f].cards]
            return not bottoms or card.suit == bottoms[0].suit
        if card.color == pile[-1].color:
            return False
        if state.option("suit_sequence"):
            here = [state[f].cards[len(pile)] for f in self.piles(FOUNDATION) if len(state[f]) > len(pile)]
            return not here or card.suit == here[0].suit
        return True
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """G4, G5, CK1: ``s>w`` discards the drawn card to the waste, whenever the
        stock has a card, even when the card could be played. ``redeal`` is legal
        when the stock is empty and the redeal is unused (``redeals`` is 1), even
        with an empty waste.
        """
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [DISCARD]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """G4, G5: ``s>w`` puts the drawn card face up on the waste. ``redeal``
        turns the waste over, unshuffled, as the new stock, face down: the first
        card discarded is the next card drawn. ``redeals`` drops by one.
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
        """G4: after every move (and a redeal) the new top stock card turns face up:
        the next drawn card. Nothing goes to a rank pile by itself (G11).
        """
        ### BEGIN SOLUTION
        state.turn_up("s")  # the next drawn card
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """CK6: won when each of the 13 rank piles holds its four cards (all 52
        cards on the piles)."""
        ### BEGIN SOLUTION
        return all(len(state[f]) == 4 for f in self.piles(FOUNDATION))
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): the drawn card or the waste top to its
        rank pile when no other card still out could take that place now. Such a card is
        the one the place waits for, placing it fixes no suit for other piles (the only
        choices, the first primary card and the first of a position, have rivals), and
        the stock keeps its order without it."""
        out = [card for pile in ("s", "w") for card in state[pile].cards]
        for source in ("s", "w"):
            card = state.top(source)
            if card is None or not state[source].top_is_face_up:
                continue
            target = self.piles(FOUNDATION)[card.rank - 1]
            if self.foundation_accepts(state, target, (card,), source) and not any(
                other != card and self.foundation_accepts(state, target, (other,), source) for other in out
            ):
                return card_move(source, target)
        return None
