"""Napoleon's Square, written independently of the reference (from RULINGS.md N1..N7).

Two packs. The 8 aces start the foundations f1..f8; the tableau t1..t12 is dealt
in four rounds of twelve with a pause after each; then the stock ``s`` is played
one card at a time, with a waste ``w``.

State: phase ``pause`` with counter ``rounds`` (rounds dealt so far, 1..3) while
the rounds are being dealt; phase ``play`` (``rounds`` stays 4) once the fourth
round is down. The stock holds the next card on top, face down during the pauses
and with its top card face up during play.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Variation

PAUSE, PLAY = "pause", "play"
ROUNDS = 4
COLUMNS = 12


class NapoleonsSquare(Variation):
    name = "napoleons_square"
    title = "Napoleon's Square"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, COLUMNS), numbered(FOUNDATION, 8), single(STOCK), single(WASTE)
    )

    # -- helpers ---------------------------------------------------------------
    def _deal_round(self, state: State) -> None:
        for pile in self.piles(TABLEAU):
            state.put(pile, state.take("s"))

    # -- rules -----------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """N1: the 8 aces go to f1..f8 in deck order; the other 96 cards are the stock.
        N2: the first round of 12 is dealt face up, and the game pauses (phase ``pause``)."""
        aces = [card for card in cards if card.rank == ACE]
        rest = [card for card in cards if card.rank != ACE]
        for foundation, ace in zip(self.piles(FOUNDATION), aces, strict=True):
            state.put(foundation, [ace])
        state.put("s", list(reversed(rest)), face_up=False)
        self._deal_round(state)
        state.phase = PAUSE
        state.counters["rounds"] = 1

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """N5: one card at a time. Tableau and waste tops are available; the stock top
        only in play (N3, N2); cards never leave a foundation."""
        if count != 1:
            return False
        kind = self.kind(pile)
        if kind in (TABLEAU, WASTE):
            return True
        if kind == STOCK:
            return state.phase == PLAY
        return False

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """N5: foundations build up in suit from ace to king, one card at a time."""
        if len(cards) != 1:
            return False
        card = cards[0]
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """N5: the tableau packs down in suit, one card at a time."""
        top = state.top(pile)
        if len(cards) != 1 or top is None or self.kind(pile) != TABLEAU:
            return False
        return cards[0].suit == top.suit and cards[0].rank == top.rank - 1

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """N6: a space takes the top stock card, the top waste card or a king from the
        top of a tableau pile; N2: no space is filled during the pauses."""
        if state.phase != PLAY or len(cards) != 1 or self.kind(pile) != TABLEAU:
            return False
        kind = self.kind(source)
        if kind in (STOCK, WASTE):
            return True
        return kind == TABLEAU and cards[0].rank == KING

    def special_moves(self, state: State) -> list[Move]:
        """N2: ``deal`` during the pauses; N3: ``s>w`` in play while the stock has cards."""
        if state.phase == PAUSE:
            return [action("deal")] if not state.is_empty("s") else []
        if not state.is_empty("s"):
            return [card_move("s", "w")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """N2: ``deal`` deals the next round, one card to every pile (empty ones too);
        after the 4th round play begins. N3: ``s>w`` discards the drawn card."""
        if move.kind == "deal":
            self._deal_round(state)
            state.counters["rounds"] += 1
            if state.counters["rounds"] >= ROUNDS:
                state.phase = PLAY
        else:
            state.put("w", state.take("s"))

    def after_move(self, state: State, move: Move) -> None:
        """General stock ruling: in play the top stock card is face up (the drawn card)."""
        if state.phase == PLAY:
            state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """Won when all 104 cards are on the foundations."""
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
