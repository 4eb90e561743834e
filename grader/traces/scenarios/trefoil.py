"""Trefoil scenarios (rulings TF1..TF6, G6, G11, G12).

Deals and long playouts (generic) cover the deal (TF1), same-rank moves (TF3)
and redeals (TF5). Here: near-won positions that end in a win, with cards
spread over piles of one to three (TF2, TF3); positions mined from seeded
playouts where a same-rank move is refused because the target holds three
cards, where two aces lie on top (an ace never goes onto a pile), where a
dead pile is offered a card (TF4); redeals that gather short and dead piles
(TF5), the last redeal and a redeal with every redeal used up, a redeal with
one card left, and a fixed ``shuffle_seed`` (G6).
"""

from __future__ import annotations

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import card_move
from solitaire.state import State

from ..build import Kit
from ..builder import PLAYOUT, Rng, playout
from .common import mine, near_won, scripted
from .same_rank_piles import SameRankPiles
from .seed001 import rulings

PILES = tuple(f"t{i}" for i in range(1, 19))
POSITIONS = SameRankPiles(PILES)
FOUNDATIONS = tuple(f"f{i}" for i in range(1, 5))

DEAL_RULINGS = rulings("TF1", "G6")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng, redeals: int, options: dict | None = None) -> State:
    """Every card on the foundations, A..K of one suit each, suits in a random order."""
    suits = list(SUITS)
    rng.shuffle(suits)
    seed = 1 + rng.below(1 << 30)
    lines = [f"phase play redeals={redeals} shuffle_seed={seed} shuffles={2 - redeals}"]
    lines += [f"{f}: " + " ".join(str(Card(rank, suit)) for rank in range(ACE, KING + 1))
              for f, suit in zip(FOUNDATIONS, suits, strict=True)]
    return kit.position("\n".join(lines), options)


def build(kit: Kit) -> None:
    for index, (pulls, redeals) in enumerate(((6, 2), (12, 1), (20, 0), (30, 2))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"trefoil-won-{index}"), redeals),
                 POSITIONS.scatter, pulls, rulings=rulings("TF2", "TF3"), attempts=10, max_nodes=6000,
                 description=f"{pulls} cards off the foundations onto piles of one to three; the trace "
                 "plays a winning line found by search")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 2), POSITIONS.scatter, 8,
             rulings=rulings("TF2", "TF3"), public=True)
    near_won(kit, "stripped", won_state(kit, Rng("trefoil-stripped"), 1), POSITIONS.scatter, 6, strip=2,
             rulings=rulings("TF2"), attempts=12, max_nodes=6000,
             description="TF2: two foundations emptied completely, aces too: any ace starts an empty "
             "foundation, and only in suit does it grow")

    refused = {
        "three-card-limit": (POSITIONS.blocked_by_three, rulings("TF3"),
                             "TF3: a same-rank move onto a pile of three cards is refused"),
        "ace-on-ace": (POSITIONS.ace_on_ace, rulings("TF3"),
                       "TF3: an ace never goes onto a pile, not even onto an ace"),
        "dead-pile": (POSITIONS.onto_dead, rulings("TF4"),
                      "TF4: an emptied pile takes nothing until the next deal"),
    }
    for name, (finder, ids, description) in refused.items():
        # f=finder binds this finder; mypy cannot infer such a lambda (python/mypy#15459)
        state = mine(kit, lambda s, f=finder: f(s) is not None, steps=200)  # type: ignore[misc]
        if state is None:
            raise AssertionError(f"trefoil: no seeded playout reaches {name}")
        move = finder(state)
        assert move is not None
        scripted(kit, name, state, [move], rulings=ids, description=description, then=12)

    # TF5: redeals that gather short and dead piles
    gathered = mine(kit, lambda s: s.counters["redeals"] == 2 and sum(
        not s.piles[p].cards for p in PILES) >= 2, steps=200, action_bias=0.0)
    if gathered is None:
        raise AssertionError("trefoil: no seeded playout empties two piles")
    scripted(kit, "redeal-dead-piles", gathered, ["redeal"], rulings=rulings("TF5", "TF4", "G6"), then=30,
             description="TF5: a redeal gathers the piles left (dead ones hold nothing), shuffles and deals "
             "in threes from t1: the last pile may be short, later piles empty")
    last = mine(kit, lambda s: s.counters["redeals"] == 1, steps=300, action_bias=0.1)
    if last is None:
        raise AssertionError("trefoil: no seeded playout uses one redeal")
    scripted(kit, "last-redeal", last, ["redeal", "redeal"], rulings=rulings("TF5"), then=30,
             description="TF5: the second redeal is the last: a third is refused")
    one_left = won_state(kit, Rng("trefoil-one-left"), 1)
    card = one_left.take("f3")
    one_left.put("t9", card)
    scripted(kit, "redeal-one-card", one_left, ["redeal", "t1>f3"], rulings=rulings("TF5", "G12"),
             description="TF5, G12: a redeal at any time, even with one card left: it lands on t1")
    won = won_state(kit, Rng("trefoil-won-redeal"), 2)
    scripted(kit, "redeal-nothing-left", won, ["redeal", "redeal", "redeal"], rulings=rulings("TF5", "TF6"),
             description="TF5: a redeal is legal whenever redeals remain, even with no card on the piles")

    # G6: option shuffle_seed fixes the shuffles; the same deal with another seed deals otherwise
    for seed in (1, 777):
        builder = kit.trace(f"fixed-shuffle-seed-{seed}", cards=engine.shuffled_deck(kit.variation, 42),
                            options={"shuffle_seed": seed}, rulings=rulings("G6", "TF5"), density=PLAYOUT,
                            description=f"G6: shuffle_seed={seed} fixes the shuffles of the redeals")
        builder.play(card_move("t1", "t2"))
        builder.play("redeal")
        playout(builder, 10)
        builder.play("redeal")
        playout(builder, 10)
        kit.add(builder)
