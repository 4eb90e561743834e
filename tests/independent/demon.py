"""Demon (the one-deck Canfield of seed 000), written independently of the reference (from
RULINGS-000.md DM1..DM8, the tightened DM1..DM4, G6).

One pack. Stock ``s`` (face down), waste ``w``, the second-card pile ``w2`` (the lower of
the two cards of a two-card turn while it stays available), foundations f1..f4, tableau
t1..t4, reserve ``r`` (closed: only its top face up). Counters ``redeals`` = 5,
``shuffle_seed`` and ``shuffles`` (G6). Options ``foundation_suit`` (off), ``last_two``
(both | top), ``shuffle_seed``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, RESERVE, STOCK, TABLEAU, WASTE, Layout, PileSpec, numbered, single
from solitaire.state import State
from solitaire.variation import SHUFFLE_SEED_OPTION, Option, Variation

RESERVE_CARDS = 13
TURN = 3
RANKS = 13


def above(rank: int) -> int:
    """The rank one higher, a king followed by an ace (DM2, DM3: wrapping)."""
    return rank % RANKS + 1


class Demon(Variation):
    name = "demon"
    title = "Demon"
    deck = ONE_PACK
    layout = Layout(
        single(STOCK), single(WASTE), (PileSpec("w2", WASTE),), numbered(FOUNDATION, 4),
        numbered(TABLEAU, 4), single(RESERVE),
    )
    options = (
        Option("foundation_suit", False, "DM2: foundations build in suit (Canfield)"),
        Option("last_two", "both", "DM6: both cards of a two-card turn stay available",
               choices=("both", "top")),
        SHUFFLE_SEED_OPTION,
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """DM1: deck[0..12] the closed reserve (deck[12] on top, face up), deck[13..16] t1..t4,
        deck[17] to f1 (the base rank), the other 34 the stock, face down."""
        state.put("r", cards[:RESERVE_CARDS], face_up=False)
        state.turn_up("r")
        for index in range(4):
            state.put(f"t{index + 1}", [cards[RESERVE_CARDS + index]])
        state.put("f1", [cards[RESERVE_CARDS + 4]])
        state.put("s", list(reversed(cards[RESERVE_CARDS + 5:])), face_up=False)
        state.counters["redeals"] = 5
        self.start_shuffles(state, cards)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """DM3: a tableau top run descending by one regardless of suit (wrapping); DM5/DM6:
        the reserve top, the waste top and ``w2``, one card."""
        if pile in ("w", "w2", "r"):
            return count == 1
        if self.kind(pile) != TABLEAU:
            return False
        cards = state[pile].cards[-count:]
        return all(above(upper.rank) == lower.rank for lower, upper in zip(cards, cards[1:], strict=False))

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """DM2: an empty foundation takes the base rank (f1's first card); then one up,
        wrapping, any suit (in suit with ``foundation_suit``), 13 cards at most."""
        if len(cards) != 1:
            return False
        card = cards[0]
        pile = state[foundation].cards
        if not pile:
            return card.rank == state["f1"].cards[0].rank
        top = pile[-1]
        if len(pile) >= RANKS or card.rank != above(top.rank):
            return False
        return not state.option("foundation_suit") or card.suit == top.suit

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """DM3: onto a card one rank above the run's deepest card, any suit, wrapping."""
        top = state.top(pile)
        return top is not None and top.rank == above(cards[0].rank)

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """DM4: while the reserve has cards only the refill fills a space; then any card or run."""
        return self.kind(pile) == TABLEAU and not state["r"].cards

    def special_moves(self, state: State) -> list[Move]:
        """DM6: ``s>w`` while the stock has cards; DM7: ``redeal`` (five) with the stock empty."""
        if state["s"].cards:
            return [card_move("s", "w")]
        if state.counters["redeals"] > 0:
            return [action("redeal")]
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """DM6: min(3, n) cards turned one by one onto the waste; a two-card turn keeps its
        lower card apart in ``w2`` (``last_two`` both). DM7: the waste, gathered bottom to top
        (``w2``'s card just under the top), shuffled (G6) into the new stock, first card on top."""
        if move.kind == "redeal":
            waste = list(state.take("w", len(state["w"])))
            if state["w2"].cards:
                waste[-1:-1] = state.take("w2", 1)
            state.counters["redeals"] -= 1
            state.put("s", list(reversed(state.shuffled(waste))), face_up=False)
            return
        count = min(TURN, len(state["s"]))
        turned = state.take("s", count)[::-1]
        if count == 2 and state.option("last_two") == "both":
            state.put("w2", [turned[0]])
            state.put("w", [turned[1]])
        else:
            state.put("w", list(turned))

    def after_move(self, state: State, move: Move) -> None:
        """DM2 (tightened): a card played from the waste ends ``w2``: its card becomes the waste
        top. DM4: empty tableau piles take the reserve top, in number order; G7: the
        reserve's top is face up."""
        if move.kind == "move" and move.source == "w" and state["w2"].cards:
            state.put("w", state.take("w2", 1))
        for index in range(4):
            name = f"t{index + 1}"
            if not state[name].cards and state["r"].cards:
                state.put(name, state.take("r", 1))
        state.turn_up("r")

    def is_won(self, state: State) -> bool:
        """DM8: all 52 cards on the foundations."""
        return sum(len(state[name]) for name in self.piles(FOUNDATION)) == 52
