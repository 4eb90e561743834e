"""Mount Olympus scenarios (rulings MO1..MO7, X3, X8, X10).

Deals and long playouts (generic) cover the deal with its sixteen base cards
(MO1) and the deals from the stock (MO6). Here: near-won positions that end
in a win, with stock cards still to deal and refill emptied piles (MO4), or
the stock gone and spaces to fill with any card or group (MO5), groups by
twos to move whole or in part (MO3, X8) and both kinds of foundation to
finish (MO2); positions mined from seeded playouts with a group that may
move, a move that empties a pile while the stock lasts, a short last deal
and a space once the stock is exhausted.
"""

from __future__ import annotations

from solitaire.cards import ACE, KING, QUEEN, SUITS, Card
from solitaire.moves import action
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted
from .seed001 import rulings

PILES = tuple(f"t{i}" for i in range(1, 10))
DEAL = action("deal")

DEAL_RULINGS = rulings("MO1", "X3")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng) -> State:
    """Every card on the foundations: f1..f8 the odd chains (A..K), f9..f16 the even
    chains (2..Q), one suit each, two of each suit per row, suits shuffled."""
    lines = []
    for row, (first, last) in enumerate(((ACE, KING), (ACE + 1, QUEEN))):
        suits = list(SUITS) * 2
        rng.shuffle(suits)
        for index, suit in enumerate(suits, start=1 + 8 * row):
            lines.append(f"f{index}: " + " ".join(str(Card(r, suit)) for r in range(first, last + 1, 2)))
    return kit.position("\n".join(lines))


def _fits(card: Card, top: Card | None) -> bool:
    return top is not None and card.suit == top.suit and card.rank == top.rank - 2


def make_scatter(group_share: float, stock: float):  # noqa: ANN201 - a Scatter
    """Cards pulled off the foundations (highest first) fill the empty piles first (MO4
    leaves none while the stock lasts), then go (``stock`` of them) face down onto the
    stock, or onto a pile they fit on, so that groups form (``group_share`` of the time,
    when one fits), else onto a random pile."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        fitting = [p for p in PILES if _fits(card, state.piles[p].top)]
        spaces = _spaces(state)
        if spaces and stock:
            state.put(rng.choice(spaces), [card])
        elif rng.chance(stock):
            pile = state.piles["s"]
            state.set_pile("s", Pile(pile.cards + (card,), len(pile.cards) + 1))
        elif fitting and rng.chance(group_share):
            state.put(rng.choice(fitting), [card])
        else:
            state.put(rng.choice(PILES), [card])
        return True

    return scatter


def refill(state: State) -> None:
    """MO4 on a constructed position: while the stock has cards no pile stays empty."""
    for pile in PILES:
        if not state.piles[pile].cards and state.piles["s"].cards:
            state.put(pile, state.take("s"))


def _to_stock(state: State, card: Card, rng: Rng) -> bool:
    pile = state.piles["s"]
    state.set_pile("s", Pile(pile.cards + (card,), len(pile.cards) + 1))
    return True


def _spaces(state: State) -> list[str]:
    return [p for p in PILES if not state.piles[p].cards]


def _groups(state: State) -> bool:
    return any(len(state.piles[p].cards) >= 2 and _fits(state.piles[p].cards[-1], state.piles[p].cards[-2])
               for p in PILES)


def _emptying(kit: Kit, state: State) -> list[str]:
    """Moves that would empty a pile while the stock has cards (MO4 then refills it)."""
    from solitaire import engine

    if not state.piles["s"].cards:
        return []
    return [str(m) for m in engine.legal_moves(kit.variation, state)
            if m.kind == "move" and m.count == len(state.piles[m.source].cards)]


def build(kit: Kit) -> None:
    kinds = ((14, 0.6, 0.4), (20, 0.7, 0.5), (26, 0.7, 0.4), (6, 0.6, 0.0), (12, 0.7, 0.0), (20, 0.6, 0.0),
             (28, 0.6, 0.0))
    for index, (pulls, share, stock) in enumerate(kinds):
        where = "some on the stock, refilling emptied piles (MO4, MO6)" if stock else \
            "the stock gone, spaces to fill (MO5)"
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"mount-olympus-won-{index}")),
                 make_scatter(share, stock), pulls, finish=refill, neutral=DEAL,
                 rulings=rulings("MO2", "MO3", "X8", *(("MO4", "MO6") if stock else ("MO5",))),
                 attempts=20, max_nodes=8000,
                 description=f"{pulls} cards off the foundations, many laid in groups by twos, {where}; "
                 "the trace plays a winning line found by search")
    near_won(kit, "stock-left", won_state(kit, Rng("mount-olympus-stock")), _to_stock, 14, finish=refill,
             neutral=DEAL, rulings=rulings("MO7", "MO4", "MO6"), attempts=12, max_nodes=6000,
             description="MO7: cards left only in the stock and on the piles it refilled: not won "
             "until the stock is dealt out and every card is on the foundations")
    near_won(kit, "public-near-won", won_state(kit, Rng("public")), make_scatter(0.6, 0.2), 6,
             finish=refill, neutral=DEAL, rulings=rulings("MO3", "X8"), public=True)

    mined = {
        "group-move": (lambda s: _groups(s), [], rulings("MO3", "X8"),
                       "MO3, X8: groups descending by twos in suit move whole or in part"),
        "refill": (lambda s: bool(_emptying(kit, s)), None, rulings("MO4", "X10"),
                   "MO4: a move empties a pile while the stock has cards: the top stock card refills it"),
        "short-last-deal": (lambda s: 0 < len(s.piles["s"].cards) < len(PILES), [DEAL], rulings("MO6"),
                            "MO6: fewer than nine stock cards: the last deal goes as far as it goes, "
                            "from t1; then no deal is left"),
        "space-after-stock": (lambda s: not s.piles["s"].cards and bool(_spaces(s)), [], rulings("MO5"),
                              "MO5: the stock is exhausted: a space stays empty and takes any top card "
                              "or group"),
    }
    for name, (predicate, moves, ids, description) in mined.items():
        state = mine(kit, predicate, steps=500, action_bias=0.3)
        if state is None:
            raise AssertionError(f"mount_olympus: no seeded playout reaches {name}")
        scripted(kit, name, state, _emptying(kit, state)[:1] if moves is None else moves, rulings=ids,
                 description=description, then=20)
