"""Open Stack (2 packs): one pass through the deck onto eight suit-free foundations, a reserve to build on.

Layout, in order: the stock ``s`` (85 cards, face down but its top card, the
drawn card), eight foundations ``f1``..``f8`` (``f1`` holds the base card
after the deal, the others are empty), five auxiliary stacks ``t1``..``t5``
(empty at the start, face up) and the open stack ``r`` (18 cards, all face
up). There is no waste and no ``s>w``. No counters: the base rank is the rank
of ``f1``'s bottom card. No options. The phase is always ``play``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import KING, TWO_PACKS, Card
from solitaire.moves import Move
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

FOUNDATIONS = 8
STACKS = 5
OPEN_STACK = 18


class OpenStack(Variation):
    name = "open_stack"
    title = "Open Stack"
    deck = TWO_PACKS
    layout = Layout(
        single(STOCK),
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(TABLEAU, STACKS),
        single(RESERVE, target=True),
    )
    # solver hint: the auxiliary stacks take any drawn card alike
    interchangeable = (TABLEAU,)

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """OS1, G3, G4, G7: deck[0..17] are the open stack ``r``, all face up,
        deck[0] at the bottom and deck[17] on top. deck[18] goes to ``f1``: its
        rank is the base rank (G8). The other 85 cards are the stock, face down,
        deck[19] on top and face up (the drawn card). No waste.
        """
        ### BEGIN SOLUTION
        state.put("r", cards[:OPEN_STACK])
        state.put("f1", [cards[OPEN_STACK]])
        state.put("s", reversed(cards[OPEN_STACK + 1:]), face_up=False)
        state.turn_up("s")
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """OS3, OS4, G4, G7: the drawn card (top of the stock), the top of an
        auxiliary stack and the top of the open stack are available, one card at a
        time, at any time. Foundation cards never move.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (STOCK, TABLEAU, RESERVE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """OS2, G8: an empty foundation takes a card of the base rank (the rank of
        ``f1``'s bottom card), from any available source. A foundation builds up
        regardless of suit, king to ace wrapping, one card at a time, and holds
        13 cards at most.
        """
        ### BEGIN SOLUTION
        card, *_ = cards  # the lowest card is the one that lands
        pile = state[foundation].cards
        if not pile:
            return card.rank == state["f1"].cards[0].rank
        return len(pile) < 13 and card.rank == pile[-1].rank % KING + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """OS3, OS4, G4, G9: the open stack ``r`` takes the drawn card or an auxiliary
        top one rank lower than its top card, suit ignored, no wrap. An auxiliary
        stack takes any drawn card (whether it could go elsewhere is not checked),
        never a card from another auxiliary stack or from ``r``.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        if self.kind(pile) == RESERVE:
            return self.kind(source) in (STOCK, TABLEAU) and card.rank == state[pile].cards[-1].rank - 1
        return self.kind(source) == STOCK
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """OS3, OS4, G4: an empty auxiliary stack takes the drawn card, nothing else.
        An empty open stack takes nothing (the text builds "on the last card")."""
        ### BEGIN SOLUTION
        return self.kind(pile) == TABLEAU and self.kind(source) == STOCK
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """G4, G11: after every move the new top card of the stock turns face up (the
        next drawn card). Nothing goes to a foundation by itself."""
        ### BEGIN SOLUTION
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """OS5: one pass, no redeal; won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
