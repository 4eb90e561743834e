"""Bismarck scenarios (rulings B1..B6, option ``same_suit``).

Deals and playouts are generic (Bismarck has many moves: free cells and empty
rows). Here: near-won positions from foundations built from base ranks all
round the clock (so that K-to-A wraps occur, B3), positions mined from seeded
playouts with full and empty free cells and empty rows (B4, B6), and decks
whose base cards lie far apart (B1).
"""

from __future__ import annotations

from typing import Any

from solitaire import engine
from solitaire.cards import SUITS, Card, next_rank
from solitaire.state import State

from ..build import Kit
from ..builder import PLAYOUT, Rng, playout
from .common import mine, near_won, scripted

ROWS = tuple(f"t{i}" for i in range(1, 9))
CELLS = ("c1", "c2", "c3")
FOUNDATIONS = ("f1", "f2", "f3", "f4")
DEAL_RULINGS = ["B1", "B2"]  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, base: int, rng: Rng, options: dict[str, Any]) -> State:
    suits = list(SUITS)
    rng.shuffle(suits)
    lines = []
    for foundation, suit in zip(FOUNDATIONS, suits, strict=True):
        rank, cards = base, []
        for _ in range(13):
            cards.append(str(Card(rank, suit)))
            rank = next_rank(rank, wrap=True) or 1
        lines.append(f"{foundation}: " + " ".join(cards))
    return kit.position("\n".join(lines), options)


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """Put a card pulled from a foundation on a row (mostly) or into an empty free cell."""
    free = [c for c in CELLS if not state.piles[c].cards]
    if free and rng.chance(0.15):
        state.put(rng.choice(free), [card])
    else:
        state.put(rng.choice(ROWS), [card])
    return True


def build(kit: Kit) -> None:
    for same_suit in (False, True):
        options = {"same_suit": same_suit}
        tag = "-same-suit" if same_suit else ""
        for index, (base, pulls) in enumerate(((13, 5), (1, 9), (11, 14), (7, 20), (10, 26))):
            rng = Rng(f"bismarck-won-{index}{tag}")
            near_won(kit, f"near-won-{index + 1}{tag}", won_state(kit, base, rng, options), scatter, pulls,
                     rulings=["B3", "B4", "B5", "B6"], max_nodes=6000)
        mined = {
            "cells-full": (lambda s: all(s.piles[c].cards for c in CELLS), ["B4"],
                           "every free cell is taken: a cell holds one card"),
            "cell-and-space": (lambda s: any(s.piles[c].cards for c in CELLS)
                               and any(not s.piles[c].cards for c in CELLS)
                               and any(not s.piles[r].cards for r in ROWS), ["B4", "B6"],
                               "an empty row takes a row card or a free-cell card; an empty free cell "
                               "takes only a row card"),
        }
        for name, (predicate, rulings, description) in mined.items():
            state = mine(kit, predicate, options=options, steps=200)
            if state is None:
                raise AssertionError(f"bismarck: no seeded playout reaches {name}")
            scripted(kit, name + tag, state, [], rulings=rulings, description=description, then=16)
    near_won(kit, "public-near-won", won_state(kit, 4, Rng("public"), {}), scatter, 6, rulings=["B3"],
             public=True)
    # B1: the base card is the first card of the deck; its rank-mates lie anywhere
    cards = engine.shuffled_deck(kit.variation, 91)
    base_card = cards[0]
    mates = [c for c in cards[1:] if c.rank == base_card.rank]
    others = [c for c in cards[1:] if c.rank != base_card.rank]
    deck = [base_card] + others + mates
    builder = kit.trace("deal-base-mates-last", cards=deck, density=PLAYOUT, rulings=["B1", "B2"],
                        description="the other three cards of the base rank lie at the end of the deck")
    playout(builder, 12)
    kit.add(builder)
