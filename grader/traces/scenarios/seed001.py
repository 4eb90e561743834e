"""Helpers shared by the scenario modules of the seed-001 games (Maria, Number Ten ...).

Their rulings have two-letter ids (``MA5``, ``NT3``) next to the common ``X`` ones.
The trace schema (:data:`solitaire.traces.SCHEMA`) admits one letter and digits
only, so :func:`rulings` keeps the ids it admits and leaves the others to the
trace's description; once the schema admits them, the scenarios name them with
no change here.
"""

from __future__ import annotations

import re

from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.state import State
from solitaire.traces import SCHEMA

from ..build import Kit
from ..builder import Rng

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
