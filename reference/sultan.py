"""Sultan (2 packs): build eight foundations round the Sultan from the divan, the stock and the waste.

Layout, in this order: the stock ``s`` (89 cards, face down but its top card,
the drawn card), the waste ``w`` (face up, empty at the start), the eight
foundations ``f1``..``f8`` (face up: ``f1``..``f7`` each start with one king,
``f8`` with the ace of hearts), the Sultan's pile ``f9`` (the Sultan, one face-up
king of hearts, for the whole game: never a source, never a target) and the
divan ``r1``..``r6`` (one face-up card each at the start). Counter ``redeals``:
the redeals left, 2 at the deal (three passes). No other counter; the phase
word is always ``play``. Option ``divan_fill``, "auto" or "player" (default
"auto").
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, QUEEN, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, RESERVE, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

FOUNDATIONS = 8
SULTAN = "f9"
DIVAN = 6
REDEALS = 2
SULTAN_CARD = Card(KING, "H")
HEARTS_ACE = Card(ACE, "H")
DISCARD = card_move("s", "w")
REDEAL = action("redeal")


class Sultan(Variation):
    name = "sultan"
    title = "Sultan"
    deck = TWO_PACKS
    layout = Layout(
        single(STOCK),
        single(WASTE),
        numbered(FOUNDATION, FOUNDATIONS),
        numbered(FOUNDATION, FOUNDATIONS + 1, target=False)[-1:],  # f9, the Sultan
        numbered(RESERVE, DIVAN, target=True, capacity=1),
    )
    options = (
        Option(
            "divan_fill",
            "auto",
            "SU4: 'auto' (default): an empty divan slot is filled at once from the stock, else "
            "the waste; 'player': the player moves the drawn card or the waste top into an "
            "empty slot, at any time (PySol)",
            choices=("auto", "player"),
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """SU1 (tightened), G3, G4, SU5: scan the deck once, in order. The first king
        of hearts is the Sultan (on ``f9``); the other seven kings go to ``f1``..``f7``
        and the first ace of hearts to ``f8``, as met. Of the other 95 cards, in deck
        order, the first six go face up to the divan ``r1``..``r6``; the other 89 are
        the stock, face down, the next card of the deck on top and face up (the drawn
        card). The waste is empty. Three passes: ``redeals`` = 2.
        """
        ### BEGIN SOLUTION
        bases: list[Card] = []
        rest: list[Card] = []
        sultan = ace = False
        for card in cards:
            if card == SULTAN_CARD and not sultan:
                sultan = True
                state.put(SULTAN, [card])
            elif card.rank == KING:
                bases.append(card)
            elif card == HEARTS_ACE and not ace:
                ace = True
                state.put(f"f{FOUNDATIONS}", [card])
            else:
                rest.append(card)
        for foundation, king in zip(self.piles(FOUNDATION), bases, strict=False):
            state.put(foundation, [king])
        for slot, card in zip(self.piles(RESERVE), rest, strict=False):
            state.put(slot, [card])
        state.put("s", reversed(rest[DIVAN:]), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """SU3, G4: one card at a time: a divan card, the drawn card (the top stock
        card) or the top waste card. Foundation cards never move; the Sultan is
        never a source (SU2, tightened).
        """
        ### BEGIN SOLUTION
        return count == 1 and self.kind(pile) in (STOCK, WASTE, RESERVE)
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """SU2: a king's foundation builds up in its suit A, 2, ..., Q; the ace of
        hearts' foundation 2 to Q of hearts. Nothing goes on a queen. (The Sultan's
        pile is never a target: the engine does not ask.)
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(foundation)
        if top is None or top.rank == QUEEN or card.suit != top.suit:
            return False
        return card.rank == (ACE if top.rank == KING else top.rank + 1)
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """SU4 (tightened): with ``divan_fill`` "player", an empty divan slot takes the
        drawn card or the waste top, at any time; never a card of another slot (no
        divan-to-divan move). With "auto" a slot is never empty while the stock or
        the waste has a card (the effect fills it), so nothing can fill it by a move.
        """
        ### BEGIN SOLUTION
        return self.kind(source) in (STOCK, WASTE)
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """G4, G5, SU5: ``s>w`` discards the drawn card while the stock has cards,
        even when it could be played; ``redeal`` is legal when the stock is empty
        and redeals remain, even with an empty waste.
        """
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [DISCARD]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """G4, G5, SU5: ``s>w`` puts the drawn card face up on the waste. ``redeal``
        turns the waste over, unshuffled, as the new stock, face down: the first card
        discarded is the next card drawn. ``redeals`` drops by one.
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
        """SU4 effect (tightened SU3, SU4), G4, G11: with ``divan_fill`` "auto", after
        every move (a redeal too) each empty divan slot, in number order, takes the
        top stock card face up, or the waste top when the stock is empty (even while
        a redeal remains); slots stay empty only when both are empty. With "player"
        nothing is filled by itself. Then the new top stock card turns face up.
        """
        ### BEGIN SOLUTION
        if state.option("divan_fill") == "auto":
            for slot in self.piles(RESERVE):
                if not state.is_empty(slot):
                    continue
                source = "s" if not state.is_empty("s") else "w"
                if state.is_empty(source):
                    break
                state.put(slot, state.take(source))
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """SU6: won when all 104 cards are on the foundations: the eight queens round
        the Sultan (the Sultan's own pile counts)."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION
