"""Four Queens (1 pack): place the queens, then the fives and sixes, then build on them in suit.

Layout, in this order: the stock ``s`` (all 52 cards, face down but its top
card, the drawn card), the waste ``w`` (face up, empty at the start) and twelve
foundations, face up and empty at the start: the queen slots ``f1``..``f4``,
the five-slots ``f5``..``f8`` and the six-slots ``f9``..``f12``. Counter
``redeals``: the redeals left, 2 at the deal (three passes). No other counter
and no phase word (always ``play``): the phase is read from the piles. Option
``strict_phases``, true or false (default true).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, JACK, KING, ONE_PACK, QUEEN, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

SLOTS = 4  # of each kind: queens, fives, sixes
REDEALS = 2
DISCARD = card_move("s", "w")
REDEAL = action("redeal")


class FourQueens(Variation):
    name = "four_queens"
    title = "Four Queens"
    deck = ONE_PACK
    layout = Layout(single(STOCK), single(WASTE), numbered(FOUNDATION, 3 * SLOTS))
    options = (
        Option(
            "strict_phases",
            True,
            "FQ4: when true (default), fives and sixes wait for the four queens and building "
            "waits for all eight fives and sixes; when false every slot is open from the start "
            "and a stack is built as soon as its base is placed",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """FQ1, G3, G4: no layout: all 52 cards are the stock, face down, the first
        card of the deck on top and face up (the drawn card). The waste and the
        twelve slots start empty. Three passes: ``redeals`` = 2 (FQ5, G5).
        """
        ### BEGIN SOLUTION
        state.put("s", reversed(cards), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """FQ5, G4: only the drawn card (the top stock card) and the top waste card
        are sources, one card at a time. Placed cards never move again.
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (STOCK, WASTE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """FQ2, FQ3, FQ4: what each slot takes, phase by phase.

        FQ2: an empty queen slot ``f1``..``f4`` takes any queen, and nothing else
        ever goes there. FQ3: once the four queens are placed, an empty five-slot
        ``f5``..``f8`` takes any five and an empty six-slot ``f9``..``f12`` any
        six. FQ4: once all eight fives and sixes are placed, a five-stack builds
        down in suit 4, 3, 2, A, then K, and a six-stack up in suit 7 to J;
        nothing goes on the king or the jack. With ``strict_phases`` false every
        slot is open from the start and a stack builds as soon as its base is
        placed. The phase is read from the piles (cards never leave them).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        kind = self.piles(FOUNDATION).index(foundation) // SLOTS  # 0 queens, 1 fives, 2 sixes
        top = state.top(foundation)
        if kind == 0:
            return top is None and card.rank == QUEEN
        strict = state.option("strict_phases")
        filled = [not state.is_empty(f) for f in self.piles(FOUNDATION)]
        if strict and not all(filled[:SLOTS]):
            return False
        if top is None:
            return card.rank == (5 if kind == 1 else 6)
        if strict and not all(filled):
            return False
        if card.suit != top.suit:
            return False
        if kind == 1:
            return top.rank != KING and card.rank == (KING if top.rank == ACE else top.rank - 1)
        return top.rank != JACK and card.rank == top.rank + 1
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """FQ2, FQ5, G4, G5: the actions.

        ``s>w`` discards the drawn card to the waste while the stock has cards,
        except while the drawn card is a queen: a queen must be placed (FQ2, in
        both settings of ``strict_phases``). ``redeal`` is legal when the stock
        is empty and redeals remain (``redeals`` > 0), even with an empty waste.
        """
        ### BEGIN SOLUTION
        drawn = state.top("s")
        if drawn is not None:
            return [] if drawn.rank == QUEEN else [DISCARD]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """FQ5, G4, G5: ``s>w`` puts the drawn card face up on the waste. ``redeal``
        turns the waste over, unshuffled, as the new stock, face down: the first
        card discarded is the next card drawn. ``redeals`` drops by one.
        """
        ### BEGIN SOLUTION
        if move == REDEAL:
            waste = state.take("w", len(state["w"]))
            state.put("s", reversed(waste), face_up=False)
            state.counters["redeals"] -= 1
        else:
            state.put("w", state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """G4: after every move (and a redeal) the new top stock card turns face up:
        the next drawn card. Nothing is placed by itself, not even a queen (G11).
        """
        ### BEGIN SOLUTION
        state.turn_up("s")  # the next drawn card
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """FQ6: won when all 52 cards are placed: the queens on their slots, the
        five-stacks ending in kings, the six-stacks in jacks."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): the first placement of the drawn card or
        the waste top. Placing a card is never worse than waiting: it has one place (slots
        of a kind are alike), a placed card only opens phases sooner and uncovers the waste,
        and the stock keeps its order without it."""
        for source in ("s", "w"):
            card = state.top(source)
            if card is None or not state[source].top_is_face_up:
                continue
            for slot in self.piles(FOUNDATION):
                if self.foundation_accepts(state, slot, (card,), source):
                    return card_move(source, slot)
        return None
