"""Color Star (2 packs): one pass through the deck onto eight colour-alternating foundations, a closed stack.

Layout, in order: the stock ``s`` (90 cards, face down but its top card, the
drawn card), eight foundations ``f1``..``f8`` (``f1`` holds the base card
after the deal, the others are empty), ten auxiliary stacks ``t1``..``t10``
(empty at the start, face up) and the main stack ``r`` (13 cards, face down
but its top card, which is face up after the deal and after every move).
There is no waste and no ``s>w``. No counters: the base rank is the rank of
``f1``'s bottom card. No options. The phase is always ``play``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import KING, TWO_PACKS, Card
from solitaire.moves import Move
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, Layout, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Variation

FOUNDATIONS = 8
STACKS = 10
MAIN_STACK = 13


class ColorStar(Variation):
    name = "color_star"
    title = "Color Star"
    deck = TWO_PACKS
    layout = Layout(
        single(STOCK),
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(TABLEAU, STACKS),
        single(RESERVE),
    )
    # solver hint: the auxiliary stacks take any drawn card alike
    interchangeable = (TABLEAU,)

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """CS1, G3, G4, G7: deck[0..12] are the main stack ``r``, closed: face down,
        deck[0] at the bottom, deck[12] on top and face up. deck[13] goes to
        ``f1``: its rank is the base rank (G8). The other 90 cards are the stock,
        face down, deck[14] on top and face up (the drawn card). No waste.
        """
        ### BEGIN SOLUTION
        state.put("r", cards[:MAIN_STACK], face_up=False)
        state.turn_up("r")
        state.put("f1", [cards[MAIN_STACK]])
        state.put("s", reversed(cards[MAIN_STACK + 1:]), face_up=False)
        state.turn_up("s")
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """CS3, CS4, G4, G7: the drawn card (top of the stock), the top of an
        auxiliary stack and the top of the main stack are available, one card at
        a time, at any time. Foundation cards never move.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (STOCK, TABLEAU, RESERVE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """CS2, G8, G10: an empty foundation takes a card of the base rank (the rank
        of ``f1``'s bottom card), from any available source. A foundation builds
        up in alternating colours (black on red, red on black), king to ace
        wrapping, one card at a time, and holds 13 cards at most.
        """
        ### BEGIN SOLUTION
        card, *_ = cards  # the lowest card is the one that lands
        pile = state[foundation].cards
        if not pile:
            return card.rank == state["f1"].cards[0].rank
        top = pile[-1]
        return len(pile) < 13 and card.is_red != top.is_red and card.rank == top.rank % KING + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """CS3, CS4, G4: an auxiliary stack takes any drawn card (from the stock),
        in no order, whether or not it could have gone elsewhere. "You cannot
        play cards between stacks": nothing comes from another auxiliary stack or
        from the main stack.
        """
        ### BEGIN SOLUTION
        return source == "s"
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """CS3, CS4, G4, G13: an empty auxiliary stack takes the drawn card, nothing
        else. Nothing goes onto the main stack, empty or not (it is no target)."""
        ### BEGIN SOLUTION
        return self.kind(source) == STOCK
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """G4, G7, G11: after every move the new top card of the stock (the next
        drawn card) and of the main stack turn face up. Nothing goes to a
        foundation by itself."""
        ### BEGIN SOLUTION
        state.turn_up("s")
        state.turn_up("r")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """CS5: one pass, no redeal; won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move the solver may make
        without trying alternatives (:func:`solitaire.solver.safe_foundation_move`)."""
        return safe_foundation_move(self, state)
