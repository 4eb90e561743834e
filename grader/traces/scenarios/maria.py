"""Maria scenarios (rulings MA1..MA6, X3, X4).

Deals and long playouts (generic) cover the deal (MA1) and stock play (MA3).
Here: near-won positions that end in a win, with the stock still in play and
spaces to fill from the tableau, the stock and the waste (MA5); a foundation
completed while its twin's cards are still in play (MA2); every pile cleared
with cards left in the waste (not won yet, MA6); positions mined from seeded
playouts with a space while the stock lasts and with the stock exhausted.

The two-letter ruling ids (``MA5``) are named in the descriptions; a trace's
``rulings`` keeps those the trace format admits (:func:`.seed001.rulings`).
"""

from __future__ import annotations

from solitaire.moves import card_move
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted, stock_play_scatter, turn_up_stock
from .seed001 import rulings, to_waste, won_state

PILES = tuple(f"t{i}" for i in range(1, 10))
DISCARD = card_move("s", "w")

DEAL_RULINGS = rulings("MA1", "X3")  # the rulings of the deal, named by the generic deal traces


scatter = stock_play_scatter(PILES)
finish = turn_up_stock


_to_waste = to_waste


def _spaces(state: State) -> list[str]:
    return [p for p in PILES if not state.piles[p].cards]


def build(kit: Kit) -> None:
    for index, pulls in enumerate((4, 8, 12, 18, 26, 34)):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"maria-won-{index}")), scatter, pulls,
                 finish=finish, neutral=DISCARD, rulings=rulings("MA2", "MA3", "MA4", "MA5", "X4"),
                 attempts=14, max_nodes=6000,
                 description=f"{pulls} cards off the foundations, spread over piles, waste and stock "
                 "(MA2-MA5); the trace plays a winning line found by search")
    near_won(kit, "near-won-stripped", won_state(kit, Rng("maria-stripped")), scatter, 3, finish=finish,
             neutral=DISCARD, rulings=rulings("MA2"), strip=1, attempts=20, max_nodes=8000,
             description="MA2: one foundation emptied completely while its twin stays complete: the "
             "twin ace must start another foundation; the trace plays a winning line")
    near_won(kit, "piles-cleared", won_state(kit, Rng("maria-cleared")), _to_waste, 6, finish=finish,
             neutral=DISCARD, rulings=rulings("MA6", "MA5", "X4"), attempts=12, max_nodes=5000,
             description="MA6: every pile empty, the stock exhausted, cards left in the waste: not won "
             "until they are on the foundations")
    near_won(kit, "public-near-won", won_state(kit, Rng("public")), scatter, 5, finish=finish,
             neutral=DISCARD, rulings=rulings("MA2", "X4"), public=True)

    mined = {
        "space-with-stock": (lambda s: bool(_spaces(s) and s.piles["s"].cards), rulings("MA5", "MA3", "X4"),
                             "MA5: a space while the stock lasts takes any single card: a pile's top "
                             "card, the top waste card or the drawn stock card"),
        "two-spaces": (lambda s: len(_spaces(s)) >= 2, rulings("MA5", "MA4"),
                       "MA5: two spaces; a lone card may move from one to the other, pointless as it is"),
        "stock-exhausted": (lambda s: not s.piles["s"].cards and bool(s.piles["w"].cards),
                            rulings("MA3", "X4"),
                            "MA3: the stock is exhausted: no discard, no redeal; the top waste card "
                            "still plays"),
    }
    for name, (predicate, ids, description) in mined.items():
        state = mine(kit, predicate, steps=400, action_bias=0.35)
        if state is None:
            raise AssertionError(f"maria: no seeded playout reaches {name}")
        scripted(kit, name, state, [DISCARD] if name == "stock-exhausted" else [], rulings=ids,
                 description=description, then=16)
