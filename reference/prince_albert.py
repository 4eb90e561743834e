"""Prince Albert (1 pack): King Albert with its columns dealt face down.

Layout: nine tableau piles ``t1``..``t9`` of 1 to 9 cards, each with only its
top card face up; seven reserve cards ``r1``..``r7``, face up, every one of
them available; four foundations ``f1``..``f4`` (empty at the start). Single
cards pack down in alternate colour; a space takes any available card. The
reserve is a source only: nothing goes to it and its places are never
refilled. No stock, no actions, no counters, no phases.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move
from solitaire.piles import FOUNDATION, RESERVE, TABLEAU, Layout, numbered
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Variation

PILES = 9
RESERVES = 7
FOUNDATIONS = 4


class PrinceAlbert(Variation):
    name = "prince_albert"
    title = "Prince Albert"
    deck = ONE_PACK
    layout = Layout(
        numbered(TABLEAU, PILES),
        numbered(RESERVE, RESERVES),
        numbered(FOUNDATION, FOUNDATIONS),
    )
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed suit

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PR1, X3: deal 45 cards in nine rounds: round k gives one card to each
        of tk..t9, left to right, so tk holds k cards.

        The card a pile gets in its own round (tk in round k, the first card of
        that round) is its last, face up; every other tableau card is face down.
        The last 7 cards of the deck go face up to ``r1``..``r7`` (the 46th to
        ``r1``).
        """
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        deck = iter(cards)
        for round_ in range(PILES):
            for pile in piles[round_:]:
                state.put(pile, [next(deck)], face_up=pile == piles[round_])
        for reserve in self.piles(RESERVE):
            state.put(reserve, [next(deck)])
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PR3, PR4: one card moves at a time: the top card of a tableau pile or a
        reserve card. Cards never come back from a foundation (general ruling)."""
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (TABLEAU, RESERVE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PR2: an empty foundation takes an ace (any empty one: each is its own
        move); a foundation builds up in suit to the king."""
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PR3, PR4: a card goes onto a tableau pile whose top card is one rank
        higher and of the other colour (a red 7 on a black 8); from a tableau
        pile or the reserve."""
        ### BEGIN SOLUTION
        card, *_ = cards
        *_, top = state[pile].cards
        return card.color != top.color and card.rank == top.rank - 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PR5, PR4: a space takes any single available card: a tableau pile's top
        card or a reserve card."""
        ### BEGIN SOLUTION
        return True
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """X10: a face-down card left on top of a tableau pile turns face up.
        PR4: an emptied reserve place stays empty (nothing refills it)."""
        ### BEGIN SOLUTION
        for pile in self.piles(TABLEAU):
            state.turn_up(pile)
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """PR6: the game is won when all 52 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move the solver may make
        without trying alternatives (:func:`solitaire.solver.safe_foundation_move`)."""
        return safe_foundation_move(self, state)
