"""Miss Milligan scenarios (rulings ML1..ML8, X3, X8), for both values of ``reserve_stacking``.

Deals and long playouts (generic) cover the deal (ML1) and the twelve deals
(ML3). Here: near-won positions that end in a win, some with stock cards still
to deal, some with the stock gone and the reserve in use (ML6, ML7), some with
the reserve stacked (option on); a foundation completed while its twin's
cards are still in play (ML2); every pile cleared with cards left in the
reserve (not won yet, ML8); constructed positions for each clause the play
rarely reaches: a king, a king-headed group and a reserve king into a space,
other cards refused there (ML5); the reserve closed while the stock lasts,
waiving one group at a time, stacking with the option (ML6); a reserve group
given back only card by card (ML7); a deal onto spaces, the last deal and a
short deal from a constructed stock (ML3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from solitaire.cards import ACE, KING, SUITS, Card, parse_card
from solitaire.moves import action
from solitaire.piles import Pile
from solitaire.state import OptionValue, State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted
from .seed001 import rulings, won_state

PILES = tuple(f"t{i}" for i in range(1, 9))
DEAL = action("deal")
STACKING = {"reserve_stacking": True}

DEAL_RULINGS = rulings("ML1", "X3")  # the rulings of the deal, named by the generic deal traces


def _fits(card: Card, top: Card | None) -> bool:
    return top is not None and card.color != top.color and card.rank == top.rank - 1


def make_scatter(group_share: float, *, stock: float, reserve: float, stacking: bool = False):  # noqa: ANN201
    """Cards pulled off the foundations (highest first) go onto a pile they fit on
    (``group_share`` of the time, when one fits), a king into a space, else onto a random
    pile; ``stock`` of them face down onto the stock, ``reserve`` of them onto the reserve
    (default rule: only while it is empty or the card continues its group)."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        roll = rng.below(100) / 100
        if roll < stock:
            pile = state.piles["s"]
            state.set_pile("s", Pile(pile.cards + (card,), len(pile.cards) + 1))
            return True
        if roll < stock + reserve:
            top = state.piles["r"].top
            if stacking or top is None or _fits(card, top):
                state.put("r", [card])
                return True
        fitting = [p for p in PILES if _fits(card, state.piles[p].top)]
        spaces = [p for p in PILES if not state.piles[p].cards]
        if fitting and rng.chance(group_share):
            state.put(rng.choice(fitting), [card])
        elif card.rank == KING and spaces:
            state.put(rng.choice(spaces), [card])
        else:
            state.put(rng.choice(PILES), [card])
        return True

    return scatter


def _to_reserve(state: State, card: Card, rng: Rng) -> bool:
    state.put("r", [card])
    return True


def _with_options(state: State, options: Mapping[str, OptionValue]) -> State:
    state.options = {**state.options, **options}
    return state


def position(kit: Kit, piles: dict[str, str], options: Mapping[str, OptionValue] | None = None,
             rest: str = "s") -> State:
    """A constructed position: the given piles (cards bottom first; stock cards face
    down), every other card on the foundations as ace-up suit runs. The cards that do
    not make such runs go to the bottom of pile ``rest``: face down under the stock, or
    face up under a tableau pile's given cards."""
    placed = Counter(parse_card(c) for cards in piles.values() for c in cards.split())
    lines = {name: f"{name}: {cards}" for name, cards in piles.items()}
    left: list[Card] = []
    foundation = 1
    for suit in SUITS:
        remaining = Counter({Card(rank, suit): 2 for rank in range(ACE, KING + 1)}) - placed
        for _ in range(2):
            run = []
            for rank in range(ACE, KING + 1):
                if remaining[Card(rank, suit)] == 0:
                    break
                run.append(Card(rank, suit))
                remaining[Card(rank, suit)] -= 1
            lines[f"f{foundation}"] = f"f{foundation}: " + " ".join(str(c) for c in run)
            foundation += 1
        left.extend(remaining.elements())
    if left:
        under = " ".join(str(c).lower() if rest == "s" else str(c) for c in left)
        lines[rest] = f"{rest}: " + f"{under} {piles.get(rest, '')}".strip()
    return kit.position("\n".join(lines.values()), options)


def _spaces(state: State) -> list[str]:
    return [p for p in PILES if not state.piles[p].cards]


def _groups(state: State) -> bool:
    return any(len(state.piles[p].cards) >= 2 and _fits(state.piles[p].cards[-1], state.piles[p].cards[-2])
               for p in PILES)


def _near_won(kit: Kit) -> None:
    kinds = (  # pulls, group share, stock share, reserve share, stacking
        (5, 0.6, 0.3, 0.0, False), (9, 0.7, 0.25, 0.0, False), (14, 0.7, 0.2, 0.0, False),
        (6, 0.6, 0.0, 0.3, False), (12, 0.7, 0.0, 0.3, False), (20, 0.6, 0.1, 0.0, False),
        (6, 0.6, 0.0, 0.4, True), (12, 0.6, 0.0, 0.4, True), (18, 0.6, 0.0, 0.3, True),
    )
    for index, (pulls, share, stock, reserve, stacking) in enumerate(kinds):
        won = won_state(kit, Rng(f"miss-milligan-won-{index}"))
        if stacking:
            _with_options(won, STACKING)
        where = "the reserve stacked (ML6 option)" if stacking else (
            "some on the stock still to deal (ML3)" if stock else "some on the reserve (ML6, ML7)")
        near_won(kit, f"near-won-{index + 1}", won, make_scatter(share, stock=stock, reserve=reserve,
                                                                 stacking=stacking),
                 pulls, rulings=rulings("ML2", "ML4", "ML5", "ML7", "X8", "ML3" if stock else "ML6"),
                 attempts=20, max_nodes=8000,
                 description=f"{pulls} cards off the foundations, many laid in groups, {where}; "
                 "the trace plays a winning line found by search")
    near_won(kit, "near-won-stripped", won_state(kit, Rng("miss-milligan-stripped")),
             make_scatter(0.5, stock=0.0, reserve=0.2), 3, rulings=rulings("ML2"), strip=1, attempts=20,
             max_nodes=8000, description="ML2: one foundation emptied completely while its twin stays "
             "complete: the twin ace must start another foundation; the trace plays a winning line")
    near_won(kit, "piles-cleared", _with_options(won_state(kit, Rng("miss-milligan-cleared")), STACKING),
             _to_reserve, 6, rulings=rulings("ML8", "ML7"), attempts=12, max_nodes=5000,
             description="ML8: every pile empty, the stock exhausted, cards left in the (stacked) "
             "reserve: not won until they are on the foundations, one by one (ML7)")
    near_won(kit, "public-near-won", won_state(kit, Rng("public")),
             make_scatter(0.6, stock=0.0, reserve=0.2), 6, rulings=rulings("ML4", "X8"), public=True)


def _constructed(kit: Kit) -> None:
    # ML5: a space takes a king, a king-headed group, a reserve king; nothing else
    state = position(kit, {"t1": "QC KS QH JC", "t3": "QS QD", "t4": "JD KD", "t6": "TH KC",
                           "t7": "JS 9S", "t8": "JH TS", "r": "KH"}, rest="t7")
    scripted(kit, "kings-into-spaces", state,
             ["t3>t5", "t8>t5", "t8:2>t5", "r>t5", "t1:3>t2", "t1>t5", "t4>t1", "t6>t4", "t7>t1"],
             rulings=rulings("ML5", "ML7", "X8"), then=8,
             description="ML5: the spaces take a reserve king, a king-headed group and a lone king; "
             "a queen, a ten and a group headed by a jack are refused")
    # ML5, ML7: a queen in the reserve cannot fill a space; it goes onto a king
    state = position(kit, {"t1": "KS", "t2": "QS KD", "t3": "QC JC", "t4": "KC", "t6": "JS TD",
                           "t7": "KH", "t8": "QD JD", "r": "QH"}, rest="t6")
    scripted(kit, "reserve-queen", state, ["r>t5", "r>t1", "t3>t1", "t6:2>t1", "t2>t5"],
             rulings=rulings("ML5", "ML7"), then=8,
             description="ML5, ML7: the reserve's queen is refused by a space and plays onto a king; "
             "then a king fills the space")
    # ML6: waiving one group at a time (default); ML7: the reserve gives back one card at a time
    waiving = {"t1": "KS QH JC", "t2": "9D 8C", "t3": "QD JS TD", "t4": "7C", "t5": "KD", "t6": "5H KC",
               "t7": "8S", "t8": "JH TS 9H"}
    state = position(kit, waiving, rest="t6")
    scripted(kit, "reserve-waiving", state,
             ["t3:2>r", "t8>r", "t1>r", "r:2>t1", "r>t1", "t8>r", "r>t3", "t8>r", "t2>r", "r>t4"],
             rulings=rulings("ML6", "ML7"), then=12,
             description="ML6: the empty reserve takes a group once the stock is empty, then nothing "
             "more until it is empty again; ML7: its cards come back singly")
    state = position(kit, waiving, STACKING, rest="t6")
    scripted(kit, "reserve-stacking", state,
             ["t3:2>r", "t8>r", "t2:2>r", "r:2>t1", "r>t3", "t1>r", "r>t4"],
             rulings=rulings("ML6", "ML7"), then=12,
             description="ML6 (reserve_stacking on): the reserve takes cards and groups on top of "
             "what it holds, with no build rule; ML7: only its top card moves off")
    # ML6: the reserve is closed while the stock has cards, with either option value
    for name, options in (("reserve-closed", {}), ("reserve-closed-stacking", STACKING)):
        state = position(kit, {**waiving, "s": "4s 9c 3h 6d jc 2s 5d 8h"}, options, rest="t6")
        scripted(kit, name, state, ["t3>r", "t3:2>r", "deal", "t3>r", "t1:2>r", "t1>r"],
                 rulings=rulings("ML6", "ML3"), then=8,
                 description="ML6: before the stock is empty the reserve takes nothing; after the last "
                 "deal (ML3) it opens")
    # ML3: a short deal from a constructed stock goes as far as it goes, from t1
    state = position(kit, {"t1": "KS QH", "t2": "9D 8C", "t4": "7C", "t5": "KD", "t6": "5H KC",
                           "t7": "8S", "t8": "JH TS 9H", "s": "4s jc 9c 3h 6d"}, rest="t6")
    scripted(kit, "short-deal", state, ["deal", "deal", "t5>r"], rulings=rulings("ML3"), then=10,
             description="ML3: a stock of five cards deals to t1..t5 (the space t3 included), then "
             "no deal is left")


def _mined(kit: Kit) -> None:
    def spaces_and_stock(s: State) -> bool:
        return bool(_spaces(s)) and len(s.piles["s"].cards) >= 8

    mined = {
        "group-move": (lambda s: _groups(s) and bool(s.piles["s"].cards), {}, [],
                       rulings("ML4", "X8"),
                       "ML4, X8: groups in alternate colour move whole or in part"),
        "deal-onto-spaces": (spaces_and_stock, {}, [DEAL], rulings("ML3", "ML5"),
                             "ML3: a deal puts a card on every pile, the spaces included"),
        "last-deal": (lambda s: len(s.piles["s"].cards) == 8, {}, [DEAL], rulings("ML3", "ML6"),
                      "ML3: the twelfth deal empties the stock: no deal is left and the reserve opens "
                      "(ML6)"),
        "last-deal-stacking": (lambda s: len(s.piles["s"].cards) == 8, STACKING, [DEAL],
                               rulings("ML3", "ML6"),
                               "ML3, ML6 (reserve_stacking on): after the last deal the reserve takes "
                               "cards on top of what it holds"),
        "stock-exhausted": (lambda s: not s.piles["s"].cards and _groups(s), {}, [], rulings("ML6", "ML4"),
                            "ML6: the stock is exhausted: a card or group may be waived to the reserve"),
    }
    for name, (predicate, options, moves, ids, description) in mined.items():
        state = mine(kit, predicate, options=options, steps=400, action_bias=0.35)
        if state is None:
            raise AssertionError(f"miss_milligan: no seeded playout reaches {name}")
        scripted(kit, name, state, moves, rulings=ids, description=description, then=20)


def build(kit: Kit) -> None:
    _near_won(kit)
    _constructed(kit)
    _mined(kit)
