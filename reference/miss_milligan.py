"""Miss Milligan (2 packs): a builder fed eight cards at a time, kings-only spaces, one reserve.

Layout: eight tableau piles ``t1``..``t8`` of one face-up card, eight
foundations ``f1``..``f8`` (empty at the start), the stock ``s`` (face down,
never available: it is only dealt from) and the reserve ``r`` (empty at the
start; once the stock is empty a card or group may be set aside on it, and
its top card plays singly). Groups in alternate colour move in whole or in
part. No counters, no phases, no redeal.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from solitaire.cards import ACE, KING, TWO_PACKS, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, Layout, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Option, Variation

PILES = 8
FOUNDATIONS = 8
DEAL = action("deal")


class MissMilligan(Variation):
    name = "miss_milligan"
    title = "Miss Milligan"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, PILES),
        numbered(FOUNDATION, FOUNDATIONS),
        single(STOCK),
        single(RESERVE, target=True),
    )
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed suit
    options = (
        Option(
            "reserve_stacking",
            False,
            "ML6: once the stock is empty the reserve takes a card or group at any time, on "
            "top of what it holds (default: only when it is empty, the classic waiving rule)",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """ML1, X3: deal 8 cards face up, one to each of ``t1``..``t8``.

        The other 96 cards are the stock, face down, the 9th card of the deck
        on top (dealt first). The stock is never available and there is no
        waste; the reserve starts empty.
        """
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        for index, card in enumerate(cards[:PILES]):
            state.put(piles[index], [card])
        state.put("s", reversed(cards[PILES:]), face_up=False)
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """ML4, X8, ML7: from a tableau pile, the top card or a group at its top,
        whole or in part: each card one rank lower than the card under it and of
        the other colour. From the reserve, only its top card, singly (ML7),
        whatever lies under it. Stock cards are not available (ML1) and
        foundation cards never move.
        """
        ### BEGIN SOLUTION
        kind = self.kind(pile)
        if kind == RESERVE:
            return count == 1
        if kind != TABLEAU:
            return False
        cards = state[pile].cards[-count:]
        return all(
            upper.color != lower.color and upper.rank == lower.rank - 1 for lower, upper in pairwise(cards)
        )
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """ML2, ML7, ML6: an empty foundation takes an ace (any empty one: each is
        its own move); a foundation builds up in suit to the king. Only single
        cards go to a foundation: a group goes card by card.
        """
        ### BEGIN SOLUTION
        if len(cards) != 1:
            return False
        (card,) = cards
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """ML4, ML7, ML6: a card, or a group headed by it (its lowest card), goes
        onto a tableau pile whose top card is one rank higher and of the other
        colour; it comes from a tableau pile or (singly) from the reserve.

        The reserve ``r`` holding cards takes more only with the option
        ``reserve_stacking``, once the stock is empty, from a tableau pile (the
        only pile whose cards can come to it), with no build rule (ML6); by
        default it takes cards only when empty.
        """
        ### BEGIN SOLUTION
        if self.kind(pile) == RESERVE:
            return bool(state.option("reserve_stacking")) and state.is_empty("s")
        head, *_ = cards
        *_, top = state[pile].cards
        return head.color != top.color and head.rank == top.rank - 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """ML5, ML6: a tableau space takes only a king, or a group with a king at
        its bottom, from a tableau pile, or a king from the reserve.

        The empty reserve ``r`` takes a tableau pile's top card or any top part
        of a group once the stock is empty (ML6: no build rule applies there).
        Only tableau piles and the reserve give cards, so the source needs no check.
        """
        ### BEGIN SOLUTION
        if self.kind(pile) == RESERVE:
            return state.is_empty("s")
        return cards[0].rank == KING
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """ML3: ``deal`` is legal while the stock has cards (12 deals in all, no
        redeal); spaces need not be filled first."""
        ### BEGIN SOLUTION
        return [DEAL] if not state.is_empty("s") else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """ML3, ML6: ``deal`` puts the next stock cards face up, one on each of
        ``t1``..``t8`` in order, empty piles included; with fewer than 8 left it
        deals as far as they go, from ``t1``.
        """
        ### BEGIN SOLUTION
        piles = self.piles(TABLEAU)
        for index in range(min(PILES, len(state["s"]))):
            state.put(piles[index], state.take("s"))
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """ML8: the game is won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a foundation move the solver may make
        without trying alternatives (:func:`solitaire.solver.safe_foundation_move`)."""
        return safe_foundation_move(self, state)
