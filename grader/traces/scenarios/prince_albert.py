"""Prince Albert scenarios (rulings PR1..PR6, X3, X10).

Deals and long playouts (generic) cover the deal in nine rounds with its
face-down cards (PR1). Here: near-won positions that end in a win, with
face-down cards to turn up (X10), reserve cards to play to foundations, onto
piles and into spaces (PR4, PR5) and single cards to pack (PR3); a foundation
emptied completely (PR2); the reserve cleared with one pile left, and the
tableau cleared with reserve cards left (neither won yet, PR6); positions
mined from seeded playouts with a space next to reserve cards and with
reserve places emptied.
"""

from __future__ import annotations

from solitaire.cards import Card
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted
from .seed001 import rulings, won_state

PILES = tuple(f"t{i}" for i in range(1, 10))
RESERVES = tuple(f"r{i}" for i in range(1, 8))

DEAL_RULINGS = rulings("PR1", "X3")  # the rulings of the deal, named by the generic deal traces


def _fits(card: Card, top: Card | None) -> bool:
    return top is not None and card.color != top.color and card.rank == top.rank - 1


def make_scatter(pack_share: float, reserve_share: float):  # noqa: ANN201 - a Scatter
    """Cards pulled off the foundations (highest first) go onto a pile they fit on
    (``pack_share`` of the time, when one fits), into an empty reserve place
    (``reserve_share``), else onto a random pile."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        fitting = [p for p in PILES if _fits(card, state.piles[p].top)]
        free = [r for r in RESERVES if not state.piles[r].cards]
        roll = rng.below(100) / 100
        if fitting and roll < pack_share:
            state.put(rng.choice(fitting), [card])
        elif free and roll < pack_share + reserve_share:
            state.put(rng.choice(free), [card])
        else:
            state.put(rng.choice(PILES), [card])
        return True

    return scatter


def finish(state: State) -> None:
    """In a pile of three cards or more the bottom card (five or more: the two bottom
    cards) face down, as dealt."""
    for pile in PILES:
        cards = state.piles[pile].cards
        if len(cards) >= 3:
            state.set_pile(pile, Pile(cards, 1 if len(cards) < 5 else 2))


def _one_pile(state: State, card: Card, rng: Rng) -> bool:
    """Every pulled card onto t5, so a single out-of-order pile is left (no reserve)."""
    state.put("t5", [card])
    return True


def _to_reserve(state: State, card: Card, rng: Rng) -> bool:
    """Pulled cards into empty reserve places only (at most seven)."""
    free = [r for r in RESERVES if not state.piles[r].cards]
    if not free:
        return False
    state.put(rng.choice(free), [card])
    return True


def build(kit: Kit) -> None:
    ids = rulings("PR2", "PR3", "PR4", "PR5", "X10")
    for index, (pulls, pack, reserve) in enumerate(((4, 0.5, 0.3), (8, 0.6, 0.25), (12, 0.6, 0.2),
                                                    (18, 0.6, 0.15), (24, 0.5, 0.15), (30, 0.5, 0.1))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"prince-albert-won-{index}"), 4),
                 make_scatter(pack, reserve), pulls, finish=finish, rulings=ids, attempts=16,
                 max_nodes=8000,
                 description=f"{pulls} cards off the foundations, spread over piles (some face down) "
                 "and reserve places (PR2-PR5, X10); the trace plays a winning line found by search")
    near_won(kit, "near-won-stripped", won_state(kit, Rng("prince-albert-stripped"), 4),
             make_scatter(0.5, 0.2), 2, finish=finish, rulings=rulings("PR2", "PR5"), strip=1,
             attempts=20, max_nodes=8000,
             description="PR2: one foundation emptied completely: its ace must start a foundation "
             "again; the trace plays a winning line")
    near_won(kit, "one-pile-left", won_state(kit, Rng("prince-albert-one-pile"), 4), _one_pile, 5,
             rulings=rulings("PR6", "PR5", "PR3"), attempts=12, max_nodes=5000,
             description="PR6: the reserve and every pile but one empty: not won until those cards "
             "are on the foundations; spaces take any single card")
    near_won(kit, "reserve-left", won_state(kit, Rng("prince-albert-reserve-left"), 4), _to_reserve, 5,
             rulings=rulings("PR6", "PR4"), attempts=12, max_nodes=5000,
             description="PR6: the tableau cleared, cards left in the reserve: not won until they are "
             "on the foundations; they go there or into spaces")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 4), make_scatter(0.5, 0.2), 6,
             finish=finish, rulings=rulings("PR3", "PR4"), public=True)

    mined = {
        "space-with-reserve": (
            lambda s: any(not s.piles[p].cards for p in PILES) and any(s.piles[r].cards for r in RESERVES),
            rulings("PR5", "PR4"),
            "PR5, PR4: a space takes any single available card: a pile's top card or a reserve card"),
        "reserve-emptied": (
            lambda s: sum(not s.piles[r].cards for r in RESERVES) >= 2,
            rulings("PR4", "PR3"),
            "PR4: emptied reserve places stay empty; the cards left there are still available"),
    }
    for name, (predicate, ids_, description) in mined.items():
        state = mine(kit, predicate, steps=400, action_bias=0.0)
        if state is None:
            raise AssertionError(f"prince_albert: no seeded playout reaches {name}")
        scripted(kit, name, state, [], rulings=ids_, description=description, then=16)
