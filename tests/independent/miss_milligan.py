"""Miss Milligan, written independently of the reference (from RULINGS-001.md ML1..ML8,
X1..X11 and the tightened ML6).

Two packs. Tableau t1..t8 (one card each at the start), foundations f1..f8,
stock ``s`` (face down throughout, not available; no waste) and the reserve
``r`` (a target pile, empty at the start). ``deal`` puts the next eight stock
cards on t1..t8. Tableau piles pack down in alternate colour; a group moves in
whole or in part; a space takes only a king, or a group with a king at its
bottom. Once the stock is empty a tableau top card or any top part of a group
may be waived to the (empty) reserve; only the top reserve card comes off,
singly. Option ``reserve_stacking``: the reserve also takes cards when it is not
empty. No counters.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, TWO_PACKS, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

PILES = 8
TOTAL = 104


def _fits(upper: Card, lower: Card) -> bool:
    """ML4: ``upper`` may lie on ``lower``: one rank lower, the other colour."""
    return upper.rank == lower.rank - 1 and upper.color != lower.color


class MissMilligan(Variation):
    name = "miss_milligan"
    title = "Miss Milligan"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, PILES), numbered(FOUNDATION, 8), single(STOCK), single(RESERVE, target=True)
    )
    options = (
        Option(
            "reserve_stacking",
            False,
            "ML6: the reserve accepts cards at any time after the stock is empty, on top of "
            "what it holds (off: only when it is empty)",
        ),
    )

    # -- helpers -----------------------------------------------------------------
    def _is_group(self, state: State, pile: str, count: int) -> bool:
        """X8/ML4: the top ``count`` cards of ``pile`` are face up and each fits on the one below."""
        stack = state[pile]
        if count > len(stack.face_up):
            return False
        moving = stack.cards[-count:]
        return all(_fits(moving[i + 1], moving[i]) for i in range(count - 1))

    def _reserve_takes(self, state: State, cards: tuple[Card, ...], source: str) -> bool:
        """ML6: once the stock is empty, a tableau top card or group (any top part of one)
        may be moved to the reserve; no build rule applies there."""
        return state.is_empty("s") and self.kind(source) == TABLEAU

    # -- rules -------------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """ML1: deck[0..7] face up to t1..t8; the other 96 are the stock, face down,
        deck[8] on top. The reserve starts empty."""
        for name, card in zip(self.piles(TABLEAU), cards[:PILES], strict=True):
            state.put(name, [card])
        state.put("s", list(reversed(cards[PILES:])), face_up=False)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """ML4: from a tableau pile, any top part of its group. ML7: only the top reserve
        card, singly. The stock is not available; foundation cards never move."""
        kind = self.kind(pile)
        if kind == TABLEAU:
            return self._is_group(state, pile, count)
        if kind == RESERVE:
            return count == 1
        return False

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """ML2: an ace on an empty foundation, then up in suit to king; single cards only
        (tightened ML6)."""
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """ML4/ML7: onto a tableau pile, the lowest moved card one rank below its top card
        and of the other colour (from a tableau pile or the reserve). ML6: the non-empty
        reserve takes cards only with ``reserve_stacking``, once the stock is empty."""
        if self.kind(pile) == RESERVE:
            return bool(state.option("reserve_stacking")) and self._reserve_takes(state, cards, source)
        stack = state[pile]
        return stack.top_is_face_up and _fits(cards[0], stack.cards[-1])

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """ML5: a tableau space takes only a king, or a group with a king at its bottom,
        from a tableau pile, or a king from the reserve. ML6: the empty reserve takes a
        tableau top card or group once the stock is empty."""
        if self.kind(pile) == RESERVE:
            return self._reserve_takes(state, cards, source)
        if cards[0].rank != KING:
            return False
        kind = self.kind(source)
        return kind == TABLEAU or (kind == RESERVE and len(cards) == 1)

    def special_moves(self, state: State) -> list[Move]:
        """ML3: ``deal`` while the stock has cards (no redeal)."""
        return [] if state.is_empty("s") else [action("deal")]

    def apply_special(self, state: State, move: Move) -> None:
        """ML3: the next stock cards, one face up on each of t1..t8 in order, empty piles
        included, as far as the stock goes (tightened ML6)."""
        for name in self.piles(TABLEAU):
            if state.is_empty("s"):
                break
            state.put(name, state.take("s", 1))

    def after_move(self, state: State, move: Move) -> None:
        """X10: an exposed face-down tableau card turns up (none is face down in a game
        from a deal; kept for hand-built positions)."""
        for name in self.piles(TABLEAU):
            state.turn_up(name)

    def is_won(self, state: State) -> bool:
        """ML8: all 104 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == TOTAL
