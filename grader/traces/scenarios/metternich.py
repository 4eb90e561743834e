"""Metternich scenarios (rulings M1..M6, option ``kings_rule``).

Deals (both values of ``kings_rule``) and long playouts are generic. Here:
decks that trigger the kings rule again and again (M1), positions mined from
seeded playouts with disabled columns (M5) and around the one redeal (M6),
and near-won positions that end in a win.
"""

from __future__ import annotations

from typing import Any

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import action, card_move
from solitaire.state import State

from ..build import Kit
from ..builder import PLAYOUT, Rng, playout
from .common import deck_with, mine, near_won, scripted, stock_play_scatter, turn_up_stock

COLUMNS = tuple(f"t{i}" for i in range(1, 13))
FOUNDATIONS = tuple(f"f{i}" for i in range(1, 9))
DISCARD, REDEAL = card_move("s", "w"), action("redeal")


DEAL_RULINGS = ["M1"]  # the rulings of the deal, named by the generic deal traces

def won_state(kit: Kit, rng: Rng, options: dict[str, Any], redeals: int) -> State:
    suits = list(SUITS) * 2
    rng.shuffle(suits)
    lines = [f"phase play redeals={redeals}"]
    for foundation, suit in zip(FOUNDATIONS, suits, strict=True):
        lines.append(f"{foundation}: " + " ".join(str(Card(rank, suit)) for rank in range(ACE, KING + 1)))
    return kit.position("\n".join(lines), options)


scatter = stock_play_scatter(COLUMNS)
finish = turn_up_stock


def _disabled(state: State) -> bool:
    """Some column is empty and a column to its right holds cards (M5)."""
    empties = [i for i, c in enumerate(COLUMNS) if not state.piles[c].cards]
    return bool(empties) and any(state.piles[c].cards for c in COLUMNS[empties[0] + 1:])


def build(kit: Kit) -> None:
    for kings_rule in (True, False):
        options = {"kings_rule": kings_rule}
        tag = "" if kings_rule else "-no-kings-rule"
        for index, (pulls, redeals) in enumerate(((4, 0), (8, 1), (14, 0), (22, 1))):
            rng = Rng(f"metternich-won-{index}{tag}")
            near_won(kit, f"near-won-{index + 1}{tag}", won_state(kit, rng, options, redeals), scatter,
                     pulls, finish=finish, neutral=DISCARD, rulings=["M2", "M3", "M4"])
        kings = [Card(KING, s) for s in "SHSHDDCC"]
        builder = kit.trace(f"deal-kings-rule-chain{tag}", cards=deck_with(kit.variation, 31, kings),
                            options=options, rulings=["M1"], density=PLAYOUT,
                            description="kings of a suit already in the layout, one after another: each "
                            "goes to the bottom of the stock and the next card takes its place")
        playout(builder, 20)
        kit.add(builder)
        # M1: the second king of a suit would land in the same column as the first
        deck = engine.shuffled_deck(kit.variation, 37)
        filler = [c for c in deck if c.rank != KING][:11]
        builder = kit.trace(f"deal-kings-one-column{tag}",
                            cards=deck_with(kit.variation, 37, [Card(KING, "H"), *filler, Card(KING, "H")]),
                            options=options, rulings=["M1"], density=PLAYOUT,
                            description="the second king of hearts would be dealt onto the first, in the "
                            "same column")
        playout(builder, 12)
        kit.add(builder)
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), {}, 1), scatter, 5, finish=finish,
             neutral=DISCARD, rulings=["M2"], public=True)

    mined = {
        "disabled-columns": (_disabled, [], ["M5", "M4"],
                             "an empty column disables every column to its right: they take no card "
                             "and give none to another column; their top cards may still go to a "
                             "foundation; spaces are never filled"),
        "redeal-available": (lambda s: not s.piles["s"].cards and s.counters.get("redeals") == 1,
                             [REDEAL], ["M6", "M3"],
                             "the stock is empty: the one redeal turns the waste over, unshuffled"),
        "redeal-used": (lambda s: not s.piles["s"].cards and s.counters.get("redeals") == 0,
                        [REDEAL, DISCARD], ["M6"], "the redeal is used up: no second redeal"),
    }
    for name, (predicate, moves, rulings, description) in mined.items():
        for kings_rule in (True, False):
            state = mine(kit, predicate, options={"kings_rule": kings_rule}, steps=400, action_bias=0.4)
            if state is None:
                raise AssertionError(f"metternich: no seeded playout reaches {name}")
            tag = "" if kings_rule else "-no-kings-rule"
            scripted(kit, name + tag, state, moves, rulings=rulings, description=description, then=16)
