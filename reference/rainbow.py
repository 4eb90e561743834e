"""Rainbow of seed 000 (2 packs; not PySol's): eight suit-free foundations on dealt bases, one reshuffle.

Layout, in order: the stock ``s`` (68 cards, face down but its top card, the
drawn card), eight foundations ``f1``..``f8`` (one base card each after the
deal, face up), three auxiliary stacks ``t1``..``t3`` (empty at the start,
face up) and the open stack ``r`` (28 cards, all face up). There is no waste
and no ``s>w``. Counters: ``redeals`` = redeals left (1 after the deal);
``shuffle_seed`` = the seed of the in-game shuffle (the option's value, or when
that is 0 the seed derived from the deal, docs/engine.md "In-game shuffles");
``shuffles`` = shuffles done (0 after the deal). Option: ``shuffle_seed`` (an
integer 0..2**64-1, default 0 = derived from the deal). Action: ``redeal``.
The phase is always ``play``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import KING, TWO_PACKS, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import SHUFFLE_SEED_OPTION, Variation

FOUNDATIONS = 8
STACKS = 3
OPEN_STACK = 28
FULL = 13  # cards on a finished foundation
REDEAL = action("redeal")


class Rainbow(Variation):
    name = "rainbow"
    title = "Rainbow (seed 000, two decks; not PySol's Rainbow)"
    deck = TWO_PACKS
    layout = Layout(
        single(STOCK),
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(TABLEAU, STACKS),
        single(RESERVE, target=True),
    )
    # solver hint: the auxiliary stacks take any drawn card alike
    interchangeable = (TABLEAU,)
    options = (SHUFFLE_SEED_OPTION,)

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """RB1, G3, G4, G6, G7: deck[0..27] are the open stack ``r``, all face up,
        deck[0] at the bottom and deck[27] on top. deck[28..35] go one each to
        f1..f8 (the base cards). The other 68 cards are the stock, face down,
        deck[36] on top and face up (the drawn card). No waste. Counters:
        ``redeals`` = 1 (RB5) and the in-game shuffle counters of G6.
        """
        ### BEGIN SOLUTION
        self.start_shuffles(state, cards)
        state.put("r", cards[:OPEN_STACK])
        for index, foundation in enumerate(self.piles(FOUNDATION)):
            state.put(foundation, [cards[OPEN_STACK + index]])
        state.put("s", reversed(cards[OPEN_STACK + FOUNDATIONS:]), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = 1
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """RB3, RB4, G4, G7: the drawn card (top of the stock), the top of an
        auxiliary stack and the top of the open stack are available, one card at a
        time. Foundation cards never move.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (STOCK, TABLEAU, RESERVE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """RB2, G8, G13: a foundation builds up from its base card regardless of
        suit, king to ace wrapping, one card at a time, and holds 13 cards at most.
        An empty foundation (never met in play: every one starts with a base card)
        takes nothing.
        """
        ### BEGIN SOLUTION
        card, *_ = cards  # the lowest card is the one that lands
        pile = state[foundation].cards
        return 0 < len(pile) < FULL and card.rank == pile[-1].rank % KING + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """RB3, RB4, G4, G9: the open stack ``r`` takes the drawn card or an
        auxiliary top one rank lower than its top card, suit ignored, no wrap (an
        ace takes nothing). An auxiliary stack takes any drawn card (whether it
        could go elsewhere is not checked), never a card from another auxiliary
        stack or from ``r``.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        if self.kind(pile) == RESERVE:
            return self.kind(source) in (STOCK, TABLEAU) and card.rank == state[pile].cards[-1].rank - 1
        return self.kind(source) == STOCK
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """RB3, RB4, G4: an empty auxiliary stack takes the drawn card, nothing else.
        An empty open stack takes nothing."""
        ### BEGIN SOLUTION
        return self.kind(pile) == TABLEAU and self.kind(source) == STOCK
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """RB5, G5, G12: ``redeal`` is legal when the stock is empty and the redeal
        remains (even with the auxiliary stacks empty). The player decides when."""
        ### BEGIN SOLUTION
        if state.is_empty("s") and state.counters["redeals"] > 0:
            return [REDEAL]
        return []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """RB5, G6: ``redeal`` gathers t1, t2, t3 in that order, each from bottom to
        top, shuffles the list (``state.shuffled``: the next in-game shuffle) and
        makes it the stock, face down, the first card of the shuffled list on top
        (its top card turns up by ``after_move``); no redeal remains.
        """
        ### BEGIN SOLUTION
        gathered: list[Card] = []
        for pile in self.piles(TABLEAU):
            gathered += state.take(pile, len(state[pile]))
        state.put("s", reversed(state.shuffled(gathered)), face_up=False)
        state.counters["redeals"] -= 1
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """G4, G11: after every move (a redeal too) the new top card of the stock
        turns face up (the next drawn card). Nothing goes to a foundation by itself."""
        ### BEGIN SOLUTION
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """RB6: won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
