"""Eleven (1 pack): remove two cards totalling 11, or a jack, a queen and a king together.

Layout: the stock ``s`` (41 cards after the deal, face down throughout, the
twelfth card of the deck on top: it is dealt first), the discard pile ``d``
(the rulings' "f1": removed cards go there, face up), then the eleven slots
``t1``..``t11`` (two rows of 6 and 5, display only), one face-up card each
at most. Removals are the engine's ``a+b`` and ``a+b+c`` (``removes = 3``).
No counters, no options, no actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import JACK, KING, ONE_PACK, QUEEN, Card
from solitaire.engine import removal_moves
from solitaire.moves import Move
from solitaire.piles import DISCARD, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

SLOTS = 11
TOTAL = 11  # a pair is removed when its values add up to this
PICTURES = (JACK, QUEEN, KING)


class Eleven(Variation):
    name = "eleven"
    title = "Eleven"
    deck = ONE_PACK
    layout = Layout(single(STOCK), single(DISCARD), numbered(TABLEAU, SLOTS))
    removes = 3

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """EL1, G3: deal the first eleven cards face up, one to each slot, ``t1``
        (deck[0]) to ``t11`` (deck[10]). The other 41 cards are the stock, face
        down, deck[11] on top: the next card of the deck is the next one dealt.
        The player never draws.
        """
        ### BEGIN SOLUTION
        slots = self.piles(TABLEAU)
        for index, card in enumerate(cards[:SLOTS]):
            state.put(slots[index], [card])
        state.put("s", reversed(cards[SLOTS:]), face_up=False)
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """EL2: every card in a slot is available (to be removed), one card per
        slot. The stock is never available (nobody draws, G4), and cards on the
        discard pile are out of play.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) == TABLEAU
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """EL2, EL3 (tightened), G10: the discard pile takes a removal of two slot
        cards whose values add up to 11 (ace 1, a number card its number: A+10,
        2+9, ... 5+6), suits ignored; or of three slot cards that are one jack,
        one queen and one king, in whichever slots. Jacks, queens and kings have
        no value: they never pair. Nothing goes to the discard pile alone; the
        slots are named in ascending number order (the engine's canonical order).
        """
        ### BEGIN SOLUTION
        ranks = sorted(card.rank for card in cards)
        if len(cards) == 3:
            return tuple(ranks) == PICTURES
        return len(cards) == 2 and sum(ranks) == TOTAL  # a picture card is 11 or more
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """EL2: nothing is built: a card never goes onto another slot's card."""
        ### BEGIN SOLUTION
        return False  # whatever the cards
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """EL3: an empty slot is filled only from the stock, by the refill effect,
        never by moving a card into it.
        """
        ### BEGIN SOLUTION
        return False  # only the refill fills a slot
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """EL2 (tightened), G11: after each removal every empty slot, lowest number
        first, takes the next stock card face up, while the stock lasts. When the
        stock runs out, the higher-numbered empty slots stay empty.
        """
        ### BEGIN SOLUTION
        for slot in self.piles(TABLEAU):
            if state.is_empty(slot) and not state.is_empty("s"):
                state.put(slot, state.take("s"))
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """EL4: won when all 52 cards have been removed to the discard pile."""
        ### BEGIN SOLUTION
        return len(state["d"]) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): any legal removal. A slot card stays
        available until it is removed, slots are all alike and cards of one rank are
        interchangeable, so a removal spoils no other: playing it now only brings the
        next stock cards in sooner. The game is decided by the deal."""
        moves = removal_moves(self, state)
        return moves[0] if moves else None
