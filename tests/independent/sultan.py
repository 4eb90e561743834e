"""Sultan, written independently of the reference (from RULINGS-000.md SU1..SU6 and the
tightened SU1..SU4).

Two packs. Stock ``s`` (top card face up: the drawn card), waste ``w``, foundations f1..f7
(a king each), f8 (the ace of hearts), the Sultan's pile f9 (never a source or a target),
divan r1..r6. Counter ``redeals`` = redeals left (2). Option ``divan_fill`` auto | player.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, QUEEN, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, RESERVE, STOCK, WASTE, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

HEARTS = "H"
BUILT = ("f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8")
DIVAN = ("r1", "r2", "r3", "r4", "r5", "r6")


class Sultan(Variation):
    name = "sultan"
    title = "Sultan"
    deck = TWO_PACKS
    layout = Layout(single(STOCK), single(WASTE), numbered(FOUNDATION, 9), numbered(RESERVE, 6, target=True))
    options = (
        Option("divan_fill", "auto", "SU4: who fills an empty divan slot", choices=("auto", "player")),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """SU1: the first king of hearts is the Sultan (f9); the other kings to f1..f7 and the
        first ace of hearts to f8, as met; the next six cards to the divan; the rest the stock,
        the first of them on top, face up."""
        rest: list[Card] = []
        kings: list[Card] = []
        sultan = ace = None
        for card in cards:
            if card.rank == KING and card.suit == HEARTS and sultan is None:
                sultan = card
            elif card.rank == KING:
                kings.append(card)
            elif card.rank == ACE and card.suit == HEARTS and ace is None:
                ace = card
            else:
                rest.append(card)
        assert sultan is not None and ace is not None
        for index, king in enumerate(kings):
            state.put(f"f{index + 1}", [king])
        state.put("f8", [ace])
        state.put("f9", [sultan])
        for name, card in zip(DIVAN, rest[:6], strict=True):
            state.put(name, [card])
        state.put("s", list(reversed(rest[6:])), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = 2

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """SU3: a divan card, the drawn card, the waste top; one at a time."""
        return count == 1 and (pile in DIVAN or pile in ("s", "w"))

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """SU2: in suit, an ace on a king, then up to the queen; nothing on a queen; f9 never."""
        if len(cards) != 1 or foundation not in BUILT:
            return False
        card, top = cards[0], state.top(foundation)
        if top is None or top.rank == QUEEN or card.suit != top.suit:
            return False
        wanted = ACE if top.rank == KING else top.rank + 1
        return card.rank == wanted

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """Nothing is built on a divan card."""
        return False

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """SU4: an empty divan slot takes the drawn card or the waste top (in auto mode a slot
        is empty only when both are, so the answer matters in player mode alone)."""
        return pile in DIVAN and len(cards) == 1 and source in ("s", "w")

    def special_moves(self, state: State) -> list[Move]:
        """G4: ``s>w``; G5/SU5: ``redeal`` with the stock empty while redeals remain."""
        if state["s"].cards:
            return [card_move("s", "w")]
        if state.counters["redeals"] > 0:
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        if move.kind == "redeal":
            waste = state.take("w", len(state["w"]))
            state.put("s", list(reversed(waste)), face_up=False)
            state.counters["redeals"] -= 1
            return
        (card,) = state.take("s", 1)
        state.put("w", [card])

    def after_move(self, state: State, move: Move) -> None:
        """SU3/SU4 (auto): empty divan slots, in number order, take the stock top, else the
        waste top; then the next stock card is turned up."""
        if state.option("divan_fill") == "auto":
            for name in DIVAN:
                if state[name].cards:
                    continue
                source = "s" if state["s"].cards else ("w" if state["w"].cards else None)
                if source is None:
                    break
                state.put(name, state.take(source, 1))
        state.turn_up("s")

    def is_won(self, state: State) -> bool:
        """SU6: every card but the Sultan on f1..f8."""
        return sum(len(state[name]) for name in BUILT) == 103
