"""Double Fives (2 separate packs): build eight foundations of 13 cards in suit
from a base card, wrapping from king to ace.

Layout: ten tableau columns ``t1``..``t10`` (``t1``..``t5`` left of the
foundations, ``t6``..``t10`` right), eight foundations ``f1``..``f8``, the hand
row of five fixed slots ``h1``..``h5`` (cards are played from them, never
onto them), the face-down discard pile ``d``, the stock ``s`` and the waste ``w``.

Phase ``hand`` (phase 1): the stock (pack B) is dealt five cards at a time
into the hand row with ``deal``. Phase ``stock`` (phase 2), after the one
``redeal``: ordinary stock play, one card at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, TWO_SEPARATE_PACKS, Card, next_rank
from solitaire.moves import Move, action, card_move
from solitaire.piles import (
    DISCARD,
    FOUNDATION,
    HAND,
    STOCK,
    TABLEAU,
    WASTE,
    Layout,
    numbered,
    single,
)
from solitaire.solver import safe_foundation_move
from solitaire.solver_dead import blocking_in_sequences
from solitaire.state import State
from solitaire.variation import Variation

COLUMNS = 10
SIDE_COLUMNS = 5  # columns 1..5 are dealt first, then columns 6..10
ROWS = 5
PACK_SIZE = 52
BASE_CARD = 50  # index in pack A of the base card (the 51st card)
HAND_CARD = 51  # index in pack A of the card dealt to the hand row (the 52nd)
HAND_SLOTS = 5
FOUNDATIONS = 8
SUIT_LENGTH = 13
HAND_PHASE = "hand"  # phase 1
STOCK_PHASE = "stock"  # phase 2
DEAL = action("deal")
REDEAL = action("redeal")
TO_WASTE = card_move("s", "w")


class DoubleFives(Variation):
    name = "double_fives"
    title = "Double Fives"
    deck = TWO_SEPARATE_PACKS
    layout = Layout(
        numbered(TABLEAU, COLUMNS),
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(HAND, HAND_SLOTS),
        single(DISCARD),
        single(STOCK),
        single(WASTE),
    )
    # solver hint: foundations have no fixed suit; columns are alike: left and right
    # matter only to the deal (D1), and no rule of play names a column (D3, D4)
    interchangeable = (FOUNDATION, TABLEAU)
    # solver hint: the best-first search plays greedier for the foundations (deals 1..50 at
    # 20,000 nodes: 45 won with 30, 42 with the default 10; docs/winnability.md)
    foundation_weight = 30

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """D1: pack A is ``cards[0:52]``, pack B ``cards[52:104]``.

        Pack A: the first 25 cards go row by row into columns t1..t5 (5 rows of
        5: cards 1..5 are the first card of t1..t5), the next 25 the same way
        into t6..t10, all face up. The 51st card is the base card: it goes to
        f1. The 52nd card lies face up in the first hand slot h1. Pack B is the
        stock, face down, its first card on top (dealt first). Play starts in
        phase ``hand``.
        """
        ### BEGIN SOLUTION
        columns = self.piles(TABLEAU)
        for index, card in enumerate(cards[:BASE_CARD]):
            side, rest = divmod(index, SIDE_COLUMNS * ROWS)
            column = side * SIDE_COLUMNS + rest % SIDE_COLUMNS
            state.put(columns[column], [card])
        state.put("f1", [cards[BASE_CARD]])
        state.put("h1", [cards[HAND_CARD]])
        state.put("s", reversed(cards[PACK_SIZE:]), face_up=False)
        state.phase = HAND_PHASE
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """D3: only one card moves at a time.

        D5: in phase 1 the available cards are the top card of each column and
        every card of the hand row. D6: in phase 2 they are the top card of
        each column, the top stock card (the drawn card) and the top waste
        card. Foundation cards never come back; the discard pile is never played from.
        """
        ### BEGIN SOLUTION
        available = (TABLEAU, HAND) if state.phase == HAND_PHASE else (TABLEAU, STOCK, WASTE)
        return count == 1 and self.kind(pile) in available
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """D2: any empty foundation takes a card of the base rank (the rank of
        the base card, the bottom card of f1); a foundation builds up in suit,
        one card at a time, wrapping from king to ace, until it holds 13 cards.
        Only one card is ever offered: that is :meth:`can_pick_up`'s rule (D3).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(foundation)
        if top is None:
            base = state["f1"].cards[0] if state["f1"] else None
            return base is not None and card.rank == base.rank
        return (
            len(state[foundation]) < SUIT_LENGTH
            and card.suit == top.suit
            and card.rank == next_rank(top.rank, wrap=True)
        )
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """D3: one card goes onto the top card of a column of its own suit one
        rank higher, wrapping: a king may go onto an ace (ranks run K, A, 2 ...).
        Only one card is ever offered: that is :meth:`can_pick_up`'s rule (D3).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        *_, top = state[pile].cards
        return top.suit == card.suit and top.rank == next_rank(card.rank, wrap=True)
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """D4: an empty column takes any single available card, at any time:
        a column's top card, a hand-row card (phase 1), the top stock card or
        the top waste card (phase 2). Which cards are available, one at a time,
        is :meth:`can_pick_up`'s rule (D3, D5, D6).
        """
        ### BEGIN SOLUTION
        return True
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """D5, D6: in phase 1, ``deal`` while the stock has cards (at any time:
        the player decides when no move is left), ``redeal`` once it is empty.
        In phase 2, ``s>w`` while the stock has cards; no further redeal.
        """
        ### BEGIN SOLUTION
        stock_left = not state.is_empty("s")
        if state.phase == HAND_PHASE:
            return [DEAL] if stock_left else [REDEAL]
        return [TO_WASTE] if stock_left else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """The actions, each sweeping the hand row first (except ``s>w``):

        * D5 ``deal``: every card still in the hand row goes face down onto the
          discard pile ``d``, slot by slot from h1 to h5 (so the h1 card lies
          lowest); then the next five stock cards (fewer at the end) go face up
          into h1, h2, ... in order, the next stock card into h1.
        * D6 ``redeal``: the same sweep; then the discard pile is turned over as
          the new stock, so its first-swept (bottom) card is drawn first; phase
          2 (``stock``) begins.
        * D6 ``s>w``: the top stock card goes face up onto the waste.
        """
        ### BEGIN SOLUTION
        if move == TO_WASTE:
            state.put("w", state.take("s"))
        else:
            for slot in self.piles(HAND):
                if not state.is_empty(slot):
                    state.put("d", state.take(slot), face_up=False)
            if move == DEAL:
                for slot in self.piles(HAND):
                    if not state.is_empty("s"):
                        state.put(slot, state.take("s"))
            else:
                state.put("s", reversed(state.take("d", len(state["d"]))), face_up=False)
                state.phase = STOCK_PHASE
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """D6 and the general rule of stock play: in phase 2 the top card of the
        stock is face up (it is the drawn card). Nothing happens in phase 1.
        """
        ### BEGIN SOLUTION
        if state.phase == STOCK_PHASE:
            state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """The game is won when all 104 cards are on the foundations, 13 on each."""
        ### BEGIN SOLUTION
        return all(len(state[f]) == SUIT_LENGTH for f in self.piles(FOUNDATION))
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a card the solver may put on a
        foundation without trying alternatives, found with the rule methods above by
        :func:`solitaire.solver.safe_foundation_move`: no card that could still be
        packed onto it is off the foundations, its twin (two packs) keeps a foundation
        to go to, and the move has no effect beyond the card itself.
        """
        return safe_foundation_move(self, state)

    #: what the best-first search charges for a card lying above a lower card of its suit
    BLOCKING_COST = 10

    def solver_estimate(self, state: State) -> int:
        """Solver hint, not a rule (never graded): each card that lies above a lower
        card of its own suit costs ``BLOCKING_COST``, ranks counted up from the base rank
        (D2: foundations build up in suit from the base rank, wrapping). In a column
        (D3, D4) it must leave before the lower card can go up. In the order the stock
        cards of phase 2 come (D6: the waste bottom to top, then the stock top to bottom;
        in phase 1 the discard pile, which becomes that stock, bottom to top), a card
        coming after a lower card of its suit must go onto the waste above it, or to a
        column, unless the lower card has gone up first. Only an estimate: an estimate
        never changes a verdict, only which win is found first."""
        base = state.piles["f1"].cards[0].rank if state.piles["f1"].cards else ACE
        piles = [state.piles[name].cards for name in self.piles(TABLEAU)]
        if state.phase == HAND_PHASE:
            piles.append(state.piles["d"].cards)
        else:
            piles.append(state.piles["w"].cards + state.piles["s"].cards[::-1])
        return self.BLOCKING_COST * blocking_in_sequences(piles, base)
