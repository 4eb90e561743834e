"""Peek (1 pack): Osmosis with the tableau dealt face up (PK1).

Every rule is Osmosis's (``reference/osmosis.py``, rulings OS1..OS8) except
that all sixteen tableau cards lie face up, so nothing is ever turned up (no
``after_move``). The module stands alone, as a student's file must: the
grader's sandbox hides ``reference/``.

Layout: four foundations ``f1``..``f4`` (top to bottom; ``f1`` holds the base
card from the deal, the others start empty), four tableau piles ``t1``..``t4``
of four face-up cards, the stock ``s`` (face down throughout, not available)
and the waste ``w``. ``s>w`` turns up to three
cards; ``redeal`` turns the waste over as the stock, as often as wanted. No
counters: the base rank is the rank of ``f1``'s bottom card. No phases.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.state import State
from solitaire.variation import Variation

PILES = 4
ROWS = 4
FOUNDATIONS = 4
TURN = 3  # cards turned from the stock by one s>w
DRAW = card_move("s", "w")
REDEAL = action("redeal")


class Peek(Variation):
    name = "peek"
    title = "Peek"
    deck = ONE_PACK
    layout = Layout(
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(TABLEAU, PILES),
        single(STOCK),
        single(WASTE),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PK1, OS1, X3: the first card of the deck goes face up to ``f1``: its
        rank is the base rank. The next 16 are dealt row by row into
        ``t1``..``t4``, four rows of four (round-robin), all face up (PK1). The
        other 35 cards are the stock, face down, the 18th card of the deck on
        top; the stock is not available (not the X4 model). No counters (OS2).
        """
        ### BEGIN SOLUTION
        state.put("f1", [cards[0]])
        piles = self.piles(TABLEAU)
        for index, card in enumerate(cards[1 : 1 + PILES * ROWS]):
            state.put(piles[index % PILES], [card])
        state.put("s", reversed(cards[1 + PILES * ROWS :]), face_up=False)
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PK1, OS5: the top card of a tableau pile and the top card of the waste
        are available, one card at a time: the cards under a pile's top, face up
        as they are (PK1), are seen but not available. The stock is not available (OS1: it is
        only turned by ``s>w``) and foundation cards never move.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (TABLEAU, WASTE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PK1, OS2, OS3, OS4: which card a foundation takes (only single cards are
        ever picked up, so this judges the one card).

        OS2: ``f1`` takes any card of its suit, whatever its rank. OS3: another
        card of the base rank (the rank of ``f1``'s bottom card) starts the
        lowest-numbered empty foundation, and only that one: ``f2``, then
        ``f3``, then ``f4``. OS4: a started ``fk`` (k = 2..4) takes a card of
        its own suit whose rank is present in ``f(k-1)`` at that moment.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        foundations = self.piles(FOUNDATION)
        top = state.top(foundation)
        if top is None:
            lowest_empty = next(f for f in foundations if state.is_empty(f))
            return foundation == lowest_empty and card.rank == state["f1"].cards[0].rank
        if card.suit != top.suit:
            return False
        above = foundations.index(foundation) - 1
        return above < 0 or card.rank in {c.rank for c in state[foundations[above]].cards}
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PK1, OS5: no building: nothing goes onto a tableau pile."""
        ### BEGIN SOLUTION
        return False  # whatever the cards
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """PK1, OS5: a space left by a whole pile is never filled."""
        ### BEGIN SOLUTION
        return False  # whatever the source
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """PK1, OS6, OS7, X1, PK2: ``s>w`` is legal while the stock has cards;
        ``redeal`` (unlimited) when the stock is empty and the waste is not.
        Neither waits for a standstill: the player decides (X1). PK2: "deal a new
        game if a foundation base is buried under another card of its suit" is
        advice: there is no action for it."""
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [DRAW]
        return [REDEAL] if not state.is_empty("w") else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """PK1, OS6, OS7: what the actions do.

        ``s>w`` turns the next three stock cards (fewer at the end) one by one,
        face up, onto the waste: the first turned lies lowest, the third is the
        new top. ``redeal`` turns the whole waste over, unshuffled (X7), as the
        stock, face down: the first card turned onto the waste is drawn first.
        """
        ### BEGIN SOLUTION
        if move == REDEAL:
            waste = state.take("w", len(state["w"]))
            state.put("s", reversed(waste), face_up=False)
        else:
            for _ in range(min(TURN, len(state["s"]))):
                state.put("w", state.take("s"))
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """PK1, OS8: the game is won when all 52 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a tableau top card that is not of
        the base rank may go to its foundation at once. It has no other place, a
        foundation only ever gains ranks (so nothing else becomes illegal) and the
        stock and waste are untouched. Base-rank cards (which foundation each
        starts matters) and waste cards (the stock's grouping by three) are left
        to the search."""
        base = state["f1"].cards[0]
        sources = [p for p in self.piles(TABLEAU) if state[p].cards and state[p].cards[-1].rank != base.rank]
        return safe_foundation_move(self, state, sources)
