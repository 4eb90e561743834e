"""Perseverance scenarios (rulings PE1..PE6, X1, X3, X5, X6, X8, X11; option ``redeal_by``).

Deals, playouts and long playouts that lean on ``redeal`` (generic) cover the
deal (PE1) and redeals from full layouts. Here, for both values of
``redeal_by``: near-won positions with two, one or no redeal left that end in
a win (PE2-PE6); constructed positions with uneven and empty piles redealt
twice and then refused a third redeal (PE5, X5, X6), with fewer than four and
fewer than twelve cards; the last card played up, after which no redeal is
legal (PE5, PE6); positions mined from seeded playouts with groups and spaces
(PE3, PE4); decks with the aces first, last and in between (PE1, X3).
"""

from __future__ import annotations

from typing import Any

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.state import State

from ..build import Kit
from ..builder import PLAYOUT, Rng, playout
from .common import mine, near_won, scripted

PILES = tuple(f"t{i}" for i in range(1, 13))
FOUNDATIONS = ("f1", "f2", "f3", "f4")
DEAL_RULINGS = ["PE1", "X3"]  # the rulings of the deal, named by the generic deal traces
REDEAL_RULINGS = ["PE5", "X5", "X6", "X1"]


def won_state(kit: Kit, rng: Rng, redeals: int, options: dict[str, Any]) -> State:
    """Every card on the foundations, ace to king, suits shuffled; ``redeals`` left."""
    suits = list(SUITS)
    rng.shuffle(suits)
    lines = [f"phase play redeals={redeals}"]
    lines += [f"{f}: " + " ".join(str(Card(rank, suit)) for rank in range(ACE, KING + 1))
              for f, suit in zip(FOUNDATIONS, suits, strict=True)]
    return kit.position("\n".join(lines), options)


def _packs(card: Card, top: Card | None) -> bool:
    return top is not None and top.suit == card.suit and card.rank == top.rank - 1


def make_scatter(group_share: float, piles: tuple[str, ...] = PILES):  # noqa: ANN201 - a Scatter
    """A card pulled off a foundation goes onto a pile it packs on (``group_share`` of the
    time, when one fits: groups form), else onto any of ``piles``."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        fitting = [p for p in piles if _packs(card, state.piles[p].top)]
        if fitting and rng.chance(group_share):
            state.put(rng.choice(fitting), [card])
        else:
            state.put(rng.choice(piles), [card])
        return True

    return scatter


def _spread(kit: Kit, name: str, count: int, piles: tuple[str, ...], redeals: int,
            options: dict[str, Any]) -> State:
    """``count`` cards off the foundations laid at random on ``piles`` only (others empty)."""
    rng = Rng(name)
    state = won_state(kit, rng, redeals, options)
    scatter = make_scatter(0.2, piles)
    for _ in range(count):
        foundation = rng.choice([f for f in FOUNDATIONS if len(state.piles[f]) > 1])
        card = state.piles[foundation].top
        state.take(foundation)
        scatter(state, card, rng)
    return state


def build(kit: Kit) -> None:
    for redeal_by in ("packets", "rows"):
        options = {"redeal_by": redeal_by}
        tag = "" if redeal_by == "packets" else "-rows"
        plan = ((2, 6), (1, 10), (0, 14), (2, 20), (1, 26), (2, 32))
        for index, (redeals, pulls) in enumerate(plan):
            rng = Rng(f"perseverance-won-{index}{tag}")
            near_won(kit, f"near-won-{index + 1}{tag}", won_state(kit, rng, redeals, options),
                     make_scatter(0.6), pulls, attempts=16, max_nodes=6000,
                     rulings=["PE2", "PE3", "PE4", "PE5", "PE6", "X8", "X11"],
                     description=f"{pulls} cards off the foundations, many laid in groups, {redeals} "
                     "redeals left (PE2-PE6); the trace plays a winning line found by search")
        # redeals from uneven piles with spaces among them, then a third refused
        for name, count, piles in (("redeal-uneven", 30, ("t1", "t3", "t4", "t7", "t8", "t11", "t12")),
                                   ("redeal-few", 9, ("t2", "t5", "t9", "t10")),
                                   ("redeal-three", 3, ("t6", "t12"))):
            state = _spread(kit, name + tag, count, piles, 2, options)
            scripted(kit, name + tag, state, ["redeal", "redeal", "redeal"], rulings=REDEAL_RULINGS,
                     description=f"PE5: {count} cards on piles {' '.join(piles)}, the others empty: two "
                     "redeals (reverse pick-up, then dealt again by the option's order), a third refused",
                     then=12)
        state = _spread(kit, "redeal-once-left" + tag, 20, PILES[:9], 1, options)
        scripted(kit, "redeal-once-left" + tag, state, ["redeal", "redeal"], rulings=REDEAL_RULINGS,
                 description="PE5: one redeal left: it is used, the next is refused", then=20)
        mined = {
            "group": (lambda s: any(m.count >= 2 for m in engine.legal_moves(kit.variation, s)),
                      ["PE3", "X8"], "a group at the top of a pile moves, whole or in part"),
            "spaces": (lambda s: sum(not s.piles[p].cards for p in PILES) >= 2, ["PE4", "PE5"],
                       "empty piles are never filled; a redeal deals into them again"),
            "no-redeal-left": (lambda s: s.counters["redeals"] == 0, ["PE5", "PE3"],
                               "both redeals used: no redeal; play goes on"),
        }
        for name, (predicate, ids, description) in mined.items():
            found = mine(kit, predicate, options=options, steps=300, action_bias=0.05)
            if found is None:
                raise AssertionError(f"perseverance: no seeded playout reaches {name}{tag}")
            scripted(kit, name + tag, found, [], rulings=ids, description=description, then=20)
    # one card left: a redeal deals it to t1; once it goes up the game is won, and no redeal
    # is legal although one is left
    state = _spread(kit, "last-card", 1, ("t7",), 2, {})
    scripted(kit, "last-card", state, ["redeal", f"t1>{_foundation_of(state, 't7')}", "redeal"],
             rulings=["PE6", "PE5", "PE2"],
             description="PE5: a redeal of one card puts it on t1; PE6: it goes up and the game is won; "
             "PE5: with the tableau empty no redeal is legal, though one is left")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 2, {}), make_scatter(0.6), 6,
             rulings=["PE2", "PE3"], public=True)
    _special_decks(kit)


def _foundation_of(state: State, pile: str) -> str:
    card = state.piles[pile].top
    return next(f for f in FOUNDATIONS if state.piles[f].top is not None
                and state.piles[f].top.suit == card.suit)  # type: ignore[union-attr]


def _special_decks(kit: Kit) -> None:
    """PE1: the four aces at the very start and at the very end of the deck."""
    for seed, where in ((91, "first"), (92, "last")):
        cards = engine.shuffled_deck(kit.variation, seed)
        aces = [c for c in cards if c.rank == ACE]
        others = [c for c in cards if c.rank != ACE]
        deck = aces + others if where == "first" else others + aces
        builder = kit.trace(f"deal-aces-{where}-{seed}", cards=deck, density=PLAYOUT, rulings=["PE1", "X3"],
                            description=f"the four aces lie {where} in the deck: they go to f1..f4 in deck "
                            "order and the others are dealt row by row")
        playout(builder, 20)
        kit.add(builder)
