"""Trefoil (1 pack; not PySol's Trefoil): piles of three built on same ranks, two shuffled redeals.

Layout, in this order: four foundations ``f1``..``f4`` (empty at the start)
and eighteen piles ``t1``..``t18`` (the trefoils: three cards each after the
deal, ``t18`` one card; all face up). No stock, no waste. Counters:
``redeals`` = redeals left (2 after the deal); ``shuffle_seed`` = the seed of
the in-game shuffles (the option's value, or when that is 0 the seed derived
from the deal, docs/engine.md "In-game shuffles"); ``shuffles`` = shuffles
done (0 after the deal). Option: ``shuffle_seed`` (an integer 0..2**64-1,
default 0 = derived from the deal). Action: ``redeal``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, TABLEAU, Layout, numbered
from solitaire.state import State
from solitaire.variation import SHUFFLE_SEED_OPTION, Variation

PILES = 18
GROUP = 3  # cards per trefoil
REDEALS = 2  # three deals
REDEAL = action("redeal")


class Trefoil(Variation):
    name = "trefoil"
    title = "Trefoil (same-rank piles of three)"
    deck = ONE_PACK
    layout = Layout(
        numbered(FOUNDATION, 4),
        numbered(TABLEAU, PILES),
    )
    interchangeable = (FOUNDATION,)  # solver hint: any empty foundation takes any ace
    options = (SHUFFLE_SEED_OPTION,)

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """TF1, G6: deal in threes, face up: deck[0..2] to t1 (deck[2] on top),
        deck[3..5] to t2, ..., deck[48..50] to t17 and deck[51] alone to t18.
        Foundations start empty. Counters: ``redeals`` = 2 (TF5) and the in-game
        shuffle counters of G6 (``self.start_shuffles(state, cards)``).
        """
        ### BEGIN SOLUTION
        self.start_shuffles(state, cards)
        piles = self.piles(TABLEAU)
        for index, card in enumerate(cards):
            state.put(piles[index // GROUP], [card])
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """TF3: only the top card of a pile is available, one card at a time.
        Foundation cards never move.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) == TABLEAU
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """TF2: an ace goes to an empty foundation (any empty one); a foundation
        builds up in suit to the king, one card at a time, no wrap.
        """
        ### BEGIN SOLUTION
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """TF3: a top card goes onto another pile whose top card has the same rank
        (suit ignored) when that pile holds fewer than three cards. Aces never go
        onto a pile: they go only to the foundations.
        """
        ### BEGIN SOLUTION
        card = cards[0]
        top = state.top(pile)
        return card.rank != ACE and top is not None and top.rank == card.rank and len(state[pile]) < GROUP
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """TF4: an emptied pile takes nothing for the rest of that deal."""
        ### BEGIN SOLUTION
        return False  # whatever the cards
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """TF5, G12: ``redeal`` is legal whenever redeals remain, at any time (the
        player decides; "when you cannot make a move" is not checked)."""
        ### BEGIN SOLUTION
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """TF5, G6: ``redeal`` gathers t1..t18, each from bottom to top, t1 first,
        shuffles them (``state.shuffled``: the next in-game shuffle) and deals the
        shuffled list again in threes from t1, face up, its first card at the
        bottom of t1; the last pile dealt may hold fewer than three and later
        piles stay empty. One redeal fewer remains.
        """
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        gathered = [card for pile in piles for card in state.take(pile, len(state[pile]))]
        for index, card in enumerate(state.shuffled(gathered)):
            state.put(piles[index // GROUP], [card])
        state.counters["redeals"] -= 1
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """TF6: won when all 52 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
