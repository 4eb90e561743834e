"""Triad scenarios (rulings TR1..TR5, TF3, TF4, G1, G6, G11, G12).

Deals and long playouts (generic, both values of ``shuffle_redeal``) cover the
deal (TR1), same-rank moves (TR3) and redeals (TR4). Here: near-won positions
that end in a win, with cards spread over groups of one to three (TR2, TR3),
with the redeals left or used up and with ``shuffle_redeal``; foundations
emptied completely (any ace starts one, then the six); positions mined from
seeded playouts where a same-rank move is refused because the target holds
three cards, where two aces lie on top (an ace never goes onto a group), where
a dead group is offered a card (TR3); unshuffled redeals that gather short and
dead groups and restart from t1 (TR4, TR2 tightened), the last redeal and a
redeal with every redeal used up, a redeal with one card left or none (TR1
tightened); shuffled redeals with a fixed ``shuffle_seed`` (G6).
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

PILES = tuple(f"t{i}" for i in range(1, 13))
POSITIONS = SameRankPiles(PILES)
SHUFFLED = {"shuffle_redeal": True}
RANKS = (ACE, *range(6, KING + 1))
FOUNDATIONS = tuple(f"f{i}" for i in range(1, 5))

DEAL_RULINGS = rulings("TR1", "G1", "G6")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng, redeals: int, options: dict | None = None) -> State:
    """Every card on the foundations, A, 6..K of one suit each, suits in a random order; the shuffle
    counters only with ``shuffle_redeal``."""
    suits = list(SUITS)
    rng.shuffle(suits)
    seed = 1 + rng.below(1 << 30)
    lines = [f"phase play redeals={redeals}"]
    if (options or {}).get("shuffle_redeal"):
        lines[0] += f" shuffle_seed={seed} shuffles={2 - redeals}"
    lines += [f"{f}: " + " ".join(str(Card(rank, suit)) for rank in RANKS)
              for f, suit in zip(FOUNDATIONS, suits, strict=True)]
    return kit.position("\n".join(lines), options)


def build(kit: Kit) -> None:
    for index, (pulls, redeals) in enumerate(((5, 2), (10, 1), (16, 0), (24, 2))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"triad-won-{index}"), redeals),
                 POSITIONS.scatter, pulls, rulings=rulings("TR2", "TR3"), attempts=10, max_nodes=6000,
                 description=f"{pulls} cards off the foundations onto groups of one to three; the trace "
                 "plays a winning line found by search")
    for index, (pulls, redeals) in enumerate(((8, 2), (14, 1))):
        near_won(kit, f"near-won-shuffled-{index + 1}",
                 won_state(kit, Rng(f"triad-shuffled-{index}"), redeals, SHUFFLED), POSITIONS.scatter, pulls,
                 rulings=rulings("TR2", "TR3", "TR4"), attempts=10, max_nodes=6000,
                 description=f"TR4 with shuffle_redeal=true (shuffle counters in the state): {pulls} cards "
                 "off the foundations; the trace plays a winning line")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 2), POSITIONS.scatter, 6,
             rulings=rulings("TR2", "TR3"), public=True)
    near_won(kit, "stripped", won_state(kit, Rng("triad-stripped"), 1), POSITIONS.scatter, 6, strip=2,
             rulings=rulings("TR2"), attempts=12, max_nodes=6000,
             description="TR2: two foundations emptied completely, aces too: any ace starts an empty "
             "foundation, the six follows it, in suit")

    refused = {
        "three-card-limit": (POSITIONS.blocked_by_three, rulings("TR3"),
                             "TR3 (TF3): a same-rank move onto a group of three cards is refused"),
        "ace-on-ace": (POSITIONS.ace_on_ace, rulings("TR3"),
                       "TR3 (TF3): an ace never goes onto a group, not even onto an ace"),
        "dead-pile": (POSITIONS.onto_dead, rulings("TR3", "TR2"),
                      "TR3 (TF4), TR2 tightened: an empty group takes nothing"),
    }
    for name, (finder, ids, description) in refused.items():
        # f=finder binds this finder; mypy cannot infer such a lambda (python/mypy#15459)
        state = mine(kit, lambda s, f=finder: f(s) is not None, steps=200)  # type: ignore[misc]
        if state is None:
            raise AssertionError(f"triad: no seeded playout reaches {name}")
        move = finder(state)
        assert move is not None
        scripted(kit, name, state, [move], rulings=ids, description=description, then=12)

    # TR4: unshuffled redeals that gather short and dead groups, restarting from t1
    gathered = mine(kit, lambda s: s.counters["redeals"] == 2 and sum(
        not s.piles[p].cards for p in PILES) >= 2, steps=200, action_bias=0.0)
    if gathered is None:
        raise AssertionError("triad: no seeded playout empties two groups")
    scripted(kit, "redeal-dead-piles", gathered, ["redeal"], rulings=rulings("TR4", "TR2", "TR3"), then=30,
             description="TR4: a redeal gathers the groups left (dead ones hold nothing), unshuffled, and "
             "deals in threes from t1: the last group may be short, later groups empty")
    last = mine(kit, lambda s: s.counters["redeals"] == 1, steps=300, action_bias=0.1)
    if last is None:
        raise AssertionError("triad: no seeded playout uses one redeal")
    scripted(kit, "last-redeal", last, ["redeal", "redeal"], rulings=rulings("TR4", "TR1"), then=30,
             description="TR4: the second redeal is the last: a third is refused")
    one_left = won_state(kit, Rng("triad-one-left"), 1)
    card = one_left.take("f3")
    one_left.put("t9", card)
    scripted(kit, "redeal-one-card", one_left, ["redeal", "t1>f3"], rulings=rulings("TR4", "TR2", "G12"),
             description="TR4, G12: a redeal at any time, even with one card left: it lands on t1")
    two_left = won_state(kit, Rng("triad-two-left"), 2)
    for pile, foundation in (("t12", "f1"), ("t5", "f2")):
        two_left.put(pile, two_left.take(foundation))
    scripted(kit, "redeal-two-cards", two_left, ["redeal", "t1>f2", "t1>f1"], rulings=rulings("TR4", "TR2"),
             description="TR4: two cards on t5 and t12 are gathered t5 first and dealt onto t1, t12's card "
             "on top; the other groups stay empty")
    won = won_state(kit, Rng("triad-won-redeal"), 2)
    scripted(kit, "redeal-nothing-left", won, ["redeal", "redeal", "redeal"], rulings=rulings("TR1", "TR5"),
             description="TR1 tightened: a redeal is legal whenever redeals remain, even with no card left")

    # G6: with shuffle_redeal, option shuffle_seed fixes the shuffles
    for seed in (1, 777):
        builder = kit.trace(f"fixed-shuffle-seed-{seed}", cards=engine.shuffled_deck(kit.variation, 42),
                            options={"shuffle_seed": seed, "shuffle_redeal": True},
                            rulings=rulings("G6", "TR4"), density=PLAYOUT,
                            description=f"G6: shuffle_redeal with shuffle_seed={seed} fixes the shuffles")
        builder.play(card_move("t1", "t2"))
        builder.play("redeal")
        playout(builder, 10)
        builder.play("redeal")
        playout(builder, 10)
        kit.add(builder)
    builder = kit.trace("unshuffled-redeals", cards=engine.shuffled_deck(kit.variation, 42),
                        options={"shuffle_seed": 777}, rulings=rulings("TR4", "G6"), density=PLAYOUT,
                        description="TR4: without shuffle_redeal the redeals keep the cards' order, "
                        "whatever shuffle_seed says")
    builder.play("redeal")
    playout(builder, 10)
    builder.play("redeal")
    playout(builder, 10)
    kit.add(builder)
