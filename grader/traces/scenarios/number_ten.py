"""Number Ten scenarios (rulings NT1..NT5, X3, X4, X8, X10).

Deals and long playouts (generic) cover the deal with its face-down rows
(NT1) and stock play (NT2). Here: near-won positions that end in a win, with
face-down cards to turn up (X10), groups to move whole or in part (NT3, X8)
and spaces to fill with cards or groups (NT4); a foundation completed while
its twin's cards are still in play (NT2); every pile cleared with cards left
in the waste (not won yet, NT5); positions mined from seeded playouts with a
group that may move, a group that may go into a space, and the stock exhausted.

The two-letter ruling ids (``NT3``) are named in the descriptions; a trace's
``rulings`` keeps those the trace format admits (:func:`.seed001.rulings`).
"""

from __future__ import annotations

from solitaire import engine
from solitaire.moves import card_move
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted
from .seed001 import alternate_fits, building_scatter, half_hidden_finish, rulings, to_waste, won_state

PILES = tuple(f"t{i}" for i in range(1, 11))
DISCARD = card_move("s", "w")

DEAL_RULINGS = rulings("NT1", "X3")  # the rulings of the deal, named by the generic deal traces


def make_scatter(share: float):  # noqa: ANN201 - a Scatter
    """Cards off the foundations onto piles they pack onto (``share`` of the time), else anywhere."""
    return building_scatter(PILES, share)


finish = half_hidden_finish(PILES)
_fits = alternate_fits
_to_waste = to_waste


def _moves(kit: Kit, state: State) -> list:  # noqa: ANN401
    return engine.legal_moves(kit.variation, state)


def _group_move(kit: Kit, state: State, *, into_space: bool) -> bool:
    """Some legal move carries two or more cards from a pile (into a space, or onto a card)."""
    for move in _moves(kit, state):
        if move.kind == "move" and move.count >= 2 and bool(state.piles[move.target].cards) != into_space:
            return True
    return False


def build(kit: Kit) -> None:
    for index, (pulls, share) in enumerate(((5, 0.6), (9, 0.7), (14, 0.7), (20, 0.6), (28, 0.5), (36, 0.5))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"number-ten-won-{index}")),
                 make_scatter(share), pulls, finish=finish, neutral=DISCARD,
                 rulings=rulings("NT2", "NT3", "NT4", "X8", "X10", "X4"), attempts=16, max_nodes=8000,
                 description=f"{pulls} cards off the foundations, many laid in groups, some face down "
                 "(NT2-NT4, X8, X10); the trace plays a winning line found by search")
    near_won(kit, "near-won-stripped", won_state(kit, Rng("number-ten-stripped")), make_scatter(0.5), 3,
             finish=finish, neutral=DISCARD, rulings=rulings("NT2"), strip=1, attempts=20, max_nodes=8000,
             description="NT2: one foundation emptied completely while its twin stays complete: the "
             "twin ace must start another foundation; the trace plays a winning line")
    near_won(kit, "piles-cleared", won_state(kit, Rng("number-ten-cleared")), _to_waste, 6, finish=finish,
             neutral=DISCARD, rulings=rulings("NT5", "NT4", "X4"), attempts=12, max_nodes=5000,
             description="NT5: every pile empty, the stock exhausted, cards left in the waste: not won "
             "until they are on the foundations")
    near_won(kit, "public-near-won", won_state(kit, Rng("public")), make_scatter(0.6), 6, finish=finish,
             neutral=DISCARD, rulings=rulings("NT3", "X8"), public=True)

    mined = {
        "group-move": (lambda s: _group_move(kit, s, into_space=False), rulings("NT3", "X8"),
                       "NT3, X8: a group at the top of a pile moves onto a card one rank higher and of "
                       "the other colour than its lowest card, whole or in part"),
        "group-into-space": (lambda s: _group_move(kit, s, into_space=True), rulings("NT4", "X8"),
                             "NT4: a space takes any available card or a group, whole or in part"),
        "space-with-stock": (lambda s: any(not s.piles[p].cards for p in PILES) and bool(s.piles["s"].cards),
                             rulings("NT4", "X4"),
                             "NT4: a space while the stock lasts takes a pile's top card or group, the "
                             "top waste card or the drawn stock card"),
        "stock-exhausted": (lambda s: not s.piles["s"].cards and bool(s.piles["w"].cards),
                            rulings("NT2", "X4"),
                            "NT2: the stock is exhausted: no discard, no redeal; the top waste card "
                            "still plays"),
    }
    for name, (predicate, ids, description) in mined.items():
        state = mine(kit, predicate, steps=400, action_bias=0.35)
        if state is None:
            raise AssertionError(f"number_ten: no seeded playout reaches {name}")
        scripted(kit, name, state, [DISCARD] if name == "stock-exhausted" else [], rulings=ids,
                 description=description, then=16)
