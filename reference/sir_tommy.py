"""Sir Tommy (1 pack): turn the deck once, card by card, building four in-suit foundations.

Layout: the stock ``s`` (all 52 cards, face down but its top card, the drawn
card), four foundations ``f1``..``f4`` (empty at the start) and four auxiliary
stacks ``t1``..``t4`` (empty at the start). There is no waste and no ``s>w``:
the drawn card is played directly to a foundation or onto an auxiliary stack
(``s>f2``, ``s>t3``). Auxiliary tops go only to foundations. No counters, no
phases, no redeal. Option ``foundation_suit`` (default true): foundations
build in suit; false gives the classic suit-free Sir Tommy.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, Layout, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Option, Variation

FOUNDATIONS = 4
STACKS = 4


class SirTommy(Variation):
    name = "sir_tommy"
    title = "Sir Tommy"
    deck = ONE_PACK
    layout = Layout(
        single(STOCK),
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(TABLEAU, STACKS),
    )
    # solver hint: foundations have no fixed suit, auxiliary stacks take any card alike
    interchangeable = (FOUNDATION, TABLEAU)
    options = (
        Option(
            "foundation_suit",
            True,
            "ST2: when true (default), foundations build up in suit (the text's suit stacks); "
            "when false, regardless of suit (the classic Sir Tommy)",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """ST1, G3, G4: no layout: all 52 cards are the stock, face down, the first
        card of the deck on top and face up (the drawn card). Foundations and
        auxiliary stacks start empty; there is no waste.
        """
        ### BEGIN SOLUTION
        state.put("s", reversed(cards), face_up=False)
        state.turn_up("s")
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """ST3, G4: the drawn card (the top stock card) and the top card of an
        auxiliary stack are available, one card at a time. Foundation cards
        never move. Auxiliary tops are available at any time, also while a drawn
        card waits to be played (ST, tightened).
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (STOCK, TABLEAU)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """ST2: an ace goes to an empty foundation (any empty one: each is its own
        move); a foundation builds up in suit to the king, one card at a time.
        With option ``foundation_suit`` false, up regardless of suit.
        """
        ### BEGIN SOLUTION
        card, *_ = cards  # the lowest card is the one that lands
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        if state.option("foundation_suit") and card.suit != top.suit:
            return False
        return card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """ST3, G4: an auxiliary stack takes any drawn card (from the stock), in no
        order, whether or not it could have gone elsewhere. "You cannot move cards
        between auxiliary stacks": nothing comes from another stack.
        """
        ### BEGIN SOLUTION
        return source == "s"
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """ST3, G4: an empty auxiliary stack takes any drawn card (from the stock),
        and nothing from another stack.
        """
        ### BEGIN SOLUTION
        return self.kind(source) == STOCK
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """G4: after every move the new top card of the stock turns face up (the
        next drawn card). Nothing else happens by itself (G11)."""
        ### BEGIN SOLUTION
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """ST4: one pass, no redeal; won when all 52 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move the solver may make
        without trying alternatives (:func:`solitaire.solver.safe_foundation_move`)."""
        return safe_foundation_move(self, state)
