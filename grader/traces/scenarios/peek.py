"""Peek scenarios (rulings PK1, PK2, OS1..OS8, X1, X3, X7).

Peek is Osmosis with the tableau face up (PK1): its scenarios are Osmosis's
(:func:`.osmosis.build_scenarios`), with every tableau card face up, so that
pick-ups of several cards from a pile (always refused) are asked too. Besides
them: a deal whose base card lies under a card of its own suit (PK2: no action
ends it; the game goes on, lost).
"""

from __future__ import annotations

from ..build import Kit
from .common import scripted
from .osmosis import build_scenarios, position
from .seed001 import rulings

DEAL_RULINGS = rulings("PK1", "OS1", "X3")  # the rulings of the deal, named by the generic deal traces


def build(kit: Kit) -> None:
    ids = {
        "near": rulings("PK1", "OS2", "OS3", "OS4", "OS5", "OS6", "OS7"),
        "won": rulings("PK1", "OS8", "OS5"),
        "base": rulings("PK1", "OS3", "OS5"),
        "above": rulings("PK1", "OS2", "OS4", "OS5"),
        "stock": rulings("PK1", "OS6", "OS7", "X1", "X7"),
        "empty": rulings("PK1", "OS7", "OS4"),
        "space": rulings("PK1", "OS5"),
    }
    build_scenarios(kit, ids, tableau_down=False, tag="peek")
    # PK2: 7S, a base card, lies under KS: KS can only go to the spade foundation, which 7S
    # would start; the deal is lost, but no action ends it
    state = position(kit, """
        f1: 7D
        t1: 7S 4C KS 2D
        t2: 4D JD 5D JH
        t3: 8H 6D KD 5H
        t4: 8D 9S 3C 7H
    """)
    scripted(kit, "base-buried-under-its-suit", state, ["t1>f1", "t4>f2", "t3>f3", "t1:3>f4", "s>w"],
             rulings=rulings("PK2", "PK1", "OS3"), then=30,
             description="a base card (7S) buried under a card of its suit (KS): advice says deal "
             "again, but there is no such action; play goes on")
