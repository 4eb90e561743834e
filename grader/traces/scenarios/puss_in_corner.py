"""Puss In Corner scenarios (rulings PC1..PC7, X3, X4, option ``free_play``).

Deals and long playouts (generic, both values of ``free_play``) cover the
deal (PC1) and the placements in groups (PC3). Here: near-won positions that
end in a win, in a pause and in the middle of a group, with and without
``free_play`` and the redeal (PC2-PC7); a won game with the redeal unused
(PC6: legal with every waste pile empty); decks with the aces first and last
(PC1); positions mined from seeded playouts: foundation moves refused during
a group (PC4), the last stock card ending a group (PC3), the stock card played
to a foundation with ``free_play`` (PC3, PC4), and the redeal (PC6).
"""

from __future__ import annotations

from typing import Any

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import action, card_move
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import PLAYOUT, Rng, playout
from .common import deck_with, mine, near_won, scripted, turn_up_stock
from .seed001 import rulings

WASTES = ("w1", "w2", "w3", "w4")
PLACE, REDEAL = card_move("s", "w1"), action("redeal")

DEAL_RULINGS = rulings("PC1", "X3", "X4")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng, placed: int, redeals: int, options: dict[str, Any]) -> State:
    """The four aces in a random order, each foundation built A..K in its ace's colour,
    the two cards of each rank and colour shared at random between that colour's two."""
    aces = [Card(ACE, suit) for suit in SUITS]
    rng.shuffle(aces)
    piles: list[list[Card]] = [[ace] for ace in aces]
    for rank in range(2, KING + 1):
        for colour in ("red", "black"):
            cards = [Card(rank, s) for s in SUITS if Card(rank, s).color == colour]
            rng.shuffle(cards)
            for pile in (p for p in piles if p[0].color == colour):
                pile.append(cards.pop())
    lines = [f"phase play placed={placed} redeals={redeals}"]
    lines += [f"f{i}: " + " ".join(map(str, pile)) for i, pile in enumerate(piles, start=1)]
    return kit.position("\n".join(lines), options)


def make_scatter(stock_share: float):  # noqa: ANN201 - a Scatter
    """A card pulled off a foundation goes onto a random waste pile, or onto the stock."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        if rng.below(100) < stock_share * 100:
            stock = state.piles["s"]
            state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
        else:
            state.put(rng.choice(WASTES), [card])
        return True

    return scatter


def _fits(kit: Kit, state: State, pile: str) -> bool:
    """The top card of ``pile`` would fit a foundation (PC2), pause or not."""
    card = state.piles[pile].top
    return card is not None and any(
        kit.variation.foundation_accepts(state, f, (card,), pile) for f in ("f1", "f2", "f3", "f4"))


def build(kit: Kit) -> None:
    cases = ((5, 0, 1, 0.5, False), (9, 2, 1, 0.4, False), (14, 0, 0, 0.5, False), (20, 3, 1, 0.6, False),
             (28, 1, 1, 0.5, False), (8, 0, 1, 0.6, True), (16, 2, 0, 0.5, True), (26, 1, 1, 0.5, True))
    for index, (pulls, placed, redeals, share, free) in enumerate(cases):
        options = {"free_play": free}
        near_won(kit, f"near-won-{index + 1}",
                 won_state(kit, Rng(f"puss-won-{index}"), placed, redeals, options), make_scatter(share),
                 pulls, finish=turn_up_stock, neutral=PLACE, attempts=16, max_nodes=8000,
                 rulings=rulings("PC2", "PC3", "PC4", "PC5", "PC6", "PC7"),
                 description=f"{pulls} cards off the foundations onto the waste piles and the stock, "
                 f"placed={placed}, redeals left {redeals}, free_play {str(free).lower()} (PC2-PC5); "
                 "the trace plays a winning line found by search, and the won game keeps its redeal "
                 "(PC6: legal with the waste piles empty)")
    near_won(kit, "wastes-only", won_state(kit, Rng("puss-wastes"), 0, 0, {}), make_scatter(0.0), 10,
             neutral=PLACE, rulings=rulings("PC4", "PC6", "PC7"), attempts=16,
             description="PC4: the stock exhausted, the redeal used: top waste cards play in the pause; "
             "the trace plays a winning line")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 0, 1, {}), make_scatter(0.5), 8,
             finish=turn_up_stock, neutral=PLACE, rulings=rulings("PC2", "PC4"), public=True)

    for name, front in (("deal-aces-first", [Card(ACE, s) for s in "HSCD"]),):
        builder = kit.trace(name, cards=deck_with(kit.variation, 51, front), rulings=rulings("PC1", "X3"),
                            density=PLAYOUT, description="PC1: the four aces open the deck: f1..f4 in their "
                            "order, the fifth card is the first card dealt")
        playout(builder, 30, action_bias=0.3)
        kit.add(builder)
    deck = engine.shuffled_deck(kit.variation, 53)
    builder = kit.trace("deal-aces-last", cards=[c for c in deck if c.rank != ACE] +
                        [c for c in deck if c.rank == ACE], rulings=rulings("PC1", "X3"), density=PLAYOUT,
                        description="PC1: the four aces end the deck: they still go to f1..f4 in deck order")
    playout(builder, 30, action_bias=0.3)
    kit.add(builder)

    waste_fits = lambda s: any(_fits(kit, s, w) for w in WASTES)  # noqa: E731
    mined = {
        "mid-group": (lambda s: s.counters["placed"] == 2 and waste_fits(s), False,
                      lambda s: [card_move(w, f) for w in WASTES for f in ("f1", "f2", "f3", "f4")
                                 if s.piles[w].cards][:4] + [card_move("s", "w2"), card_move("s", "w3")],
                      rulings("PC4", "PC3"),
                      "PC4: during a group no top waste card goes to a foundation; after the fourth "
                      "placement the pause comes and they may"),
        "mid-group-free": (lambda s: s.counters["placed"] == 2 and waste_fits(s), True, lambda s: [],
                           rulings("PC4", "PC3"),
                           "PC4, free_play: during a group top waste cards may go to the foundations"),
        "last-card-ends-group": (lambda s: len(s.piles["s"]) == 1 and s.counters["placed"] in (1, 2), False,
                                 lambda s: [card_move("s", "w4")], rulings("PC3", "PC6"),
                                 "PC3: the placement that empties the stock ends the group: a pause, "
                                 "then the redeal"),
        "stock-to-foundation-free": (lambda s: s.counters["placed"] > 0 and _fits(kit, s, "s"), True,
                                     lambda s: [next(m for m in engine.legal_moves(kit.variation, s)
                                                     if m.source == "s" and m.target.startswith("f"))],
                                     rulings("PC3", "PC4"),
                                     "PC3, free_play: the stock card goes to a foundation; it is not a "
                                     "placement, the group goes on"),
        "stock-card-not-to-foundation": (lambda s: _fits(kit, s, "s"), False,
                                         lambda s: [card_move("s", f) for f in ("f1", "f2", "f3", "f4")],
                                         rulings("PC4"),
                                         "PC4: the stock card never goes straight to a foundation"),
        "redeal-available": (lambda s: not s.piles["s"].cards and s.counters["redeals"] == 1, False,
                             lambda s: [REDEAL], rulings("PC6", "X4"),
                             "PC6: the stock is empty: the waste piles, w1 first, each from its first "
                             "card, become the stock, its top card face up"),
        "redeal-available-free": (lambda s: not s.piles["s"].cards and s.counters["redeals"] == 1, True,
                                  lambda s: [REDEAL], rulings("PC6"),
                                  "PC6 with free_play: the one redeal"),
        "redeal-used": (lambda s: not s.piles["s"].cards and s.counters["redeals"] == 0, False,
                        lambda s: [REDEAL, PLACE], rulings("PC6"), "PC6: the redeal is used up: no second"),
    }
    for name, (predicate, free, moves, ids, description) in mined.items():
        state = mine(kit, predicate, options={"free_play": free}, steps=400, action_bias=0.5)
        if state is None:
            raise AssertionError(f"puss_in_corner: no seeded playout reaches {name}")
        scripted(kit, name, state, moves(state), rulings=ids, description=description, then=20)

    # the last stock card played to a foundation with free_play ends the group (PC3)
    state = mine(kit, lambda s: len(s.piles["s"]) == 1 and s.counters["placed"] > 0 and _fits(kit, s, "s"),
                 options={"free_play": True}, steps=400, action_bias=0.5, seeds=tuple(range(1, 200)))
    if state is not None:
        target = next(m for m in engine.legal_moves(kit.variation, state) if m.source == "s" and
                      m.target.startswith("f"))
        scripted(kit, "last-card-to-foundation-free", state, [target], rulings=rulings("PC3", "PC4"),
                 description="PC3, free_play: the last stock card goes to a foundation: not a placement, "
                 "but the emptied stock ends the group", then=12)
