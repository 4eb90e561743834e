"""Triad (36 cards, A and 6..K): groups of three built on same ranks, three deals.

Layout, in this order: four foundations ``f1``..``f4`` (empty at the start)
and twelve groups ``t1``..``t12`` (three cards each after the deal, all face
up). No stock, no waste. Counters: ``redeals`` = redeals left (2 after the
deal); with option ``shuffle_redeal`` true only, also ``shuffle_seed`` = the
seed of the in-game shuffles (option ``shuffle_seed``, or when that is 0 the
seed derived from the deal, docs/engine.md "In-game shuffles") and
``shuffles`` = shuffles done (0 after the deal). Options: ``shuffle_redeal``
(true | false, default false); ``shuffle_seed`` (an integer 0..2**64-1,
default 0 = derived from the deal). Action: ``redeal``. The phase is always
``play``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, STRIPPED_36, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, TABLEAU, Layout, numbered
from solitaire.state import State
from solitaire.variation import SHUFFLE_SEED_OPTION, Option, Variation

GROUPS = 12
GROUP = 3  # cards per group
REDEALS = 2  # three deals
SIX = 6  # the rank after the ace in this deck
REDEAL = action("redeal")


class Triad(Variation):
    name = "triad"
    title = "Triad"
    deck = STRIPPED_36
    layout = Layout(
        numbered(FOUNDATION, 4),
        numbered(TABLEAU, GROUPS),
    )
    interchangeable = (FOUNDATION,)  # solver hint: any empty foundation takes any ace
    options = (
        Option("shuffle_redeal", False,
               "TR4: when false (default, the text), a redeal gathers the groups and deals them "
               "again unshuffled; when true, it shuffles them first (as Trefoil)"),
        SHUFFLE_SEED_OPTION,
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """TR1, G6: deal in threes, face up: deck[0..2] to t1 (deck[2] on top),
        deck[3..5] to t2, ..., deck[33..35] to t12. Foundations start empty.
        Counters: ``redeals`` = 2 (TR4); with option ``shuffle_redeal`` the
        in-game shuffle counters of G6 too (``self.start_shuffles``).
        """
        ### BEGIN SOLUTION
        if state.option("shuffle_redeal"):
            self.start_shuffles(state, cards)
        piles = self.piles(TABLEAU)
        for index, card in enumerate(cards):
            state.put(piles[index // GROUP], [card])
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """TR3 (TF3): only the top card of a group is available, one card at a
        time. Foundation cards never move.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) == TABLEAU
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """TR2: an ace goes to an empty foundation (any empty one); a foundation
        builds up in suit A, 6, 7, ..., K, one card at a time, no wrap.
        """
        ### BEGIN SOLUTION
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == (SIX if top.rank == ACE else top.rank + 1)
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """TR3 (TF3): a top card goes onto another group whose top card has the same
        rank (suit ignored) when that group holds fewer than three cards. Aces
        never go onto a group: they go only to the foundations.
        """
        ### BEGIN SOLUTION
        card = cards[0]
        top = state.top(pile)
        return card.rank != ACE and top is not None and top.rank == card.rank and len(state[pile]) < GROUP
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """TR3 (TF4), TR2 tightened: an empty group is dead: it takes nothing
        until a redeal deals to it again."""
        ### BEGIN SOLUTION
        return False  # whatever the cards
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """TR4, TR1 tightened, G12: ``redeal`` is legal whenever redeals remain, at
        any time (the player decides; "when there are no legal moves left" is not
        checked)."""
        ### BEGIN SOLUTION
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """TR4, TR2 tightened: ``redeal`` gathers t1..t12, each from bottom to top,
        t1 first, and deals the list again in threes from t1, face up, its first
        card at the bottom of t1; the last group dealt may hold fewer than three
        and later groups stay empty. Unshuffled; with option ``shuffle_redeal``
        the gathered list is shuffled first (``state.shuffled``, G6). One redeal
        fewer remains.
        """
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        gathered = [card for pile in piles for card in state.take(pile, len(state[pile]))]
        if state.option("shuffle_redeal"):
            gathered = state.shuffled(gathered)
        for index, card in enumerate(gathered):
            state.put(piles[index // GROUP], [card])
        state.counters["redeals"] -= 1
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """TR5: won when all 36 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
