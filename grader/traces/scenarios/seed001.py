"""Helpers shared by the scenario modules of the seed-001 games (Maria, Number Ten ...).

Besides the ruling ids and a won state: the card scatter and the finishing touch
of the Forty Thieves games that pack down in alternate colour (Number Ten,
Midshipman), and the scatter that sends every card to the waste (Maria, Number
Ten, Midshipman).

Their rulings have two-letter ids (``MA5``, ``NT3``) next to the common ``X`` ones.
The trace schema (:data:`solitaire.traces.SCHEMA`) admits one letter and digits
only, so :func:`rulings` keeps the ids it admits and leaves the others to the
trace's description; once the schema admits them, the scenarios name them with
no change here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.piles import Pile
from solitaire.state import State
from solitaire.traces import SCHEMA

from ..build import Kit
from ..builder import Rng
from .common import turn_up_stock

_ADMITTED = re.compile(SCHEMA["properties"]["rulings"]["items"]["pattern"])


def rulings(*ids: str) -> list[str]:
    """The ruling ids a trace may name today: those the trace schema admits, in order."""
    return [ruling for ruling in ids if _ADMITTED.match(ruling)]


def won_state(kit: Kit, rng: Rng, foundations: int = 8) -> State:
    """Every card on the foundations, each an ace-to-king run of one suit, suits shuffled."""
    suits = list(SUITS) * (foundations // len(SUITS))
    rng.shuffle(suits)
    lines = [f"f{index}: " + " ".join(str(Card(rank, suit)) for rank in range(ACE, KING + 1))
             for index, suit in enumerate(suits, start=1)]
    return kit.position("\n".join(lines))


def alternate_fits(card: Card, top: Card | None) -> bool:
    """Whether ``card`` packs onto ``top``: one rank lower and of the other colour."""
    return top is not None and card.color != top.color and card.rank == top.rank - 1


def building_scatter(piles: tuple[str, ...], build_share: float) -> Callable[[State, Card, Rng], bool]:
    """A scatter: cards pulled off the foundations (highest first) go onto a pile of ``piles``
    they pack onto in alternate colour, so that builds form (``build_share`` of the time,
    when one fits), else onto a random pile, the waste or (face down) the stock."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        fitting = [p for p in piles if alternate_fits(card, state.piles[p].top)]
        roll = rng.below(100) / 100
        if fitting and roll < build_share:
            state.put(rng.choice(fitting), [card])
        elif roll < 0.75:
            state.put(rng.choice(piles), [card])
        elif roll < 0.88:
            state.put("w", [card])
        else:
            stock = state.piles["s"]
            state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
        return True

    return scatter


def half_hidden_finish(piles: tuple[str, ...]) -> Callable[[State], None]:
    """A finish: the stock's top card face up, the rest face down; in a pile of ``piles``
    with four cards or more the bottom card (six or more: the two bottom cards) face
    down, as dealt in rows 1-2 face down."""

    def finish(state: State) -> None:
        turn_up_stock(state)
        for pile in piles:
            cards = state.piles[pile].cards
            if len(cards) >= 4:
                state.set_pile(pile, Pile(cards, 1 if len(cards) < 6 else 2))

    return finish


def to_waste(state: State, card: Card, rng: Rng) -> bool:
    """A scatter that puts every card pulled off the foundations on the waste."""
    state.put("w", [card])
    return True
