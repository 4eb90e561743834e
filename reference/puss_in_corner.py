"""Puss In Corner (1 pack): Sir Tommy with colour foundations and four wastes.

Layout: four foundations ``f1``..``f4`` (the aces, dealt before play), four
waste piles ``w1``..``w4`` (empty at the start) and the stock ``s`` (its top
card face up: the card being dealt). The player places each stock card on a
waste pile of their choice (``s>w3``), in groups of four; only in the pause
between groups may top waste cards go to the foundations. Counters:
``placed`` (placements in the current group, 0 in a pause, 1..3 during one)
and ``redeals`` (redeals left, 1 then 0). Option ``free_play``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, ONE_PACK, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

WASTES = 4
GROUP = 4
REDEALS = 1
REDEAL = action("redeal")


class PussInCorner(Variation):
    name = "puss_in_corner"
    title = "Puss In Corner"
    deck = ONE_PACK
    layout = Layout(
        numbered(FOUNDATION, 4),
        numbered(WASTE, WASTES),
        single(STOCK),
    )
    options = (
        Option(
            "free_play",
            False,
            "PC4: foundation moves at any time, and the stock card may go straight to a "
            "foundation (Sir Tommy convention, PySolFC)",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """PC1, X3, X4: the four aces come out first, in deck order, to ``f1``..``f4``.

        The other 48 cards, in deck order, are the stock, face down, its first
        card on top and face up: the card being dealt (X4). The wastes start
        empty. Counters: ``placed`` = 0 (a pause), ``redeals`` = 1.
        """
        ### BEGIN SOLUTION
        aces = [card for card in cards if card.rank == ACE]
        for foundation, card in zip(self.piles(FOUNDATION), aces, strict=True):
            state.put(foundation, [card])
        state.put("s", reversed([card for card in cards if card.rank != ACE]), face_up=False)
        state.turn_up("s")
        state.counters["placed"] = 0
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """PC4, PC5: which cards may move (to a foundation: nothing else takes cards).

        A top waste card, one at a time, only in a pause (``placed`` is 0):
        during a group there is no foundation move. The stock card never goes
        straight to a foundation. Option ``free_play``: a top waste card at any
        time, and the top stock card too. Foundation cards never move.
        """
        ### BEGIN SOLUTION
        if count != 1:
            return False
        free = state.option("free_play") is True
        kind = self.kind(pile)
        if kind == WASTE:
            return free or state.counters["placed"] == 0
        return kind == STOCK and free
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """PC2: a foundation builds up by colour regardless of suit: it takes a card
        of its ace's colour one rank higher than its top card, up to the king.
        Foundations are never empty (the aces are dealt there and never move).
        Only one card is ever offered: that is :meth:`can_pick_up`'s rule.
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        pile = state[foundation].cards
        return card.color == pile[0].color and card.rank == pile[-1].rank + 1
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """PC3, PC6: the actions.

        While the stock has cards, ``s>w1``..``s>w4`` (the stock card onto any
        waste pile, no restriction) are legal, in a pause or during a group.
        ``redeal`` is legal when the stock is empty and the redeal is unused
        (``redeals`` is 1), even if the waste piles are empty.
        """
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [card_move("s", waste) for waste in self.piles(WASTE)]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """PC3, PC6: what the actions do.

        ``s>wN`` puts the top stock card face up on waste pile ``wN`` and counts
        the placement: the fourth placement of a group, or one that empties the
        stock, ends it (``placed`` back to 0, a pause; the placement itself does
        it, as PC3 says). ``redeal`` picks the waste piles up in the order
        dealt and turns them face down as the stock: the new stock yields
        ``w1``'s cards from the first placed to the last, then ``w2``'s, ``w3``'s
        and ``w4``'s; ``redeals`` drops by one.
        """
        ### BEGIN SOLUTION
        if move == REDEAL:
            gathered: list[Card] = []
            for waste in self.piles(WASTE):
                gathered += state.take(waste, len(state[waste]))
            state.put("s", reversed(gathered), face_up=False)
            state.counters["redeals"] -= 1
        else:
            state.put(move.target, state.take("s"))
            placed = (state.counters["placed"] + 1) % GROUP
            state.counters["placed"] = placed if not state.is_empty("s") else 0
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """PC3, PC6, X4: the effects after every move.

        A card move that empties the stock ends the group too (``placed`` back
        to 0, a pause): with ``free_play``, the stock card played to a
        foundation, which is not a placement. The top stock card is then
        turned face up (X4, also after the redeal).
        """
        ### BEGIN SOLUTION
        if state.is_empty("s"):
            state.counters["placed"] = 0
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """PC7: the game is won when all 52 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
