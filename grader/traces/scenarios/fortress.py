"""Fortress scenarios (rulings FT1..FT6, G9, G11, G13).

Deals and playouts (generic) cover the deal (FT1), the outer cards (FT2) and
building on rows up and down in suit (FT4). Here: near-won positions that end
in a win, with rows that never emptied (built up or down in suit, FT4), suit
stacks with cards (down in suit only, FT5) and empty suit stacks that take any
card (FT5); a foundation emptied completely, so an ace must start it again
(FT3); positions mined from seeded playouts where the first row is emptied,
where a non-empty suit stack is offered a card of its suit one rank higher
(refused) and lower (taken).

Every pulled card goes onto a pile above the cards pulled before it, so
playing the pulled cards back in reverse order wins: each near-won position is
winnable and the search finds a line.
"""

from __future__ import annotations

from itertools import pairwise

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted
from .seed001 import rulings

ROWS = tuple(f"t{i}" for i in range(1, 11))
FOUNDATIONS = tuple(f"f{i}" for i in range(1, 5))
ALL_STACKS = (1 << len(ROWS)) - 1

DEAL_RULINGS = rulings("FT1", "FT2")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng) -> State:
    """Every card on the foundations, A..K of one suit each; every row emptied (all suit stacks)."""
    suits = list(SUITS)
    rng.shuffle(suits)
    lines = [f"{f}: " + " ".join(str(Card(rank, suit)) for rank in range(ACE, KING + 1))
             for f, suit in zip(FOUNDATIONS, suits, strict=True)]
    return kit.position("\n".join([f"phase play stacks={ALL_STACKS}", *lines]))


def make_scatter(build_share: float):  # noqa: ANN201 - a Scatter
    """A card pulled off a foundation goes onto a row it builds on (same suit, one rank
    lower: a suit-stack run) ``build_share`` of the time when one fits, else onto any row."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        fitting = [r for r in ROWS if (top := state.piles[r].top) is not None
                   and top.suit == card.suit and top.rank == card.rank + 1]
        if fitting and rng.below(100) < build_share * 100:
            state.put(rng.choice(fitting), [card])
        else:
            state.put(rng.choice(ROWS), [card])
        return True

    return scatter


def is_suit_run(cards: tuple[Card, ...]) -> bool:
    """Cards that a suit stack could hold: one suit, each one rank below the card under it."""
    return all(b.suit == a.suit and b.rank == a.rank - 1 for a, b in pairwise(cards))


def make_finish(name: str, stack_share: float):  # noqa: ANN201 - a Finish
    """Mark suit stacks as play would have left them: every empty row, and (``stack_share``
    of the time) a row whose cards make a suit-stack run; other rows are rows never emptied."""

    def finish(state: State) -> None:
        rng = Rng(f"{name}/finish")
        stacks = 0
        for number, row in enumerate(ROWS):
            cards = state.piles[row].cards
            if not cards or is_suit_run(cards) and rng.below(100) < stack_share * 100:
                stacks |= 1 << number
        state.counters["stacks"] = stacks

    return finish


# two suit stacks with cards (t1, t7), two empty ones (t9, t10), rows that never emptied
STACK_OFFERED = f"""
phase play stacks={1 | 1 << 6 | 1 << 8 | 1 << 9}
f1: AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH
f2: AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD
f3: AC 2C 3C
f4: AS 2S 3S
t1: 5S
t2: KC 6S
t3: QC 4S
t4: 7S 5C
t5: JC 6C
t6: TC 4C
t7: 9C 8C 7C
t8: KS QS JS TS 9S 8S
"""

# kings and aces of one suit on the outer ends of rows (t1 KC, t2 AC): no wrap between them
NO_WRAP = f"""
phase play stacks={sum(1 << n for n in range(5, 10))}
f1: AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH
f2: AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD
t1: 5C 4C 3C 2C KC
t2: 9S AC
t3: QC JC TC 9C 8C 7C 6C
t4: KS QS JS TS
t5: 2S 3S 4S 5S 6S 7S 8S AS
"""


def build(kit: Kit) -> None:
    ids = rulings("FT3", "FT4", "FT5", "FT2")
    for index, (pulls, share, stack_share) in enumerate(
            ((6, 0.5, 0.8), (12, 0.6, 0.7), (18, 0.5, 0.6), (26, 0.4, 0.5), (34, 0.4, 0.5), (44, 0.3, 0.4))):
        name = f"near-won-{index + 1}"
        near_won(kit, name, won_state(kit, Rng(f"fortress-won-{index}")), make_scatter(share), pulls,
                 finish=make_finish(name, stack_share), rulings=ids, attempts=14, max_nodes=8000,
                 description=f"{pulls} cards off the foundations onto rows and suit stacks (FT3-FT5); "
                 "the trace plays a winning line found by search")
    near_won(kit, "near-won-stripped", won_state(kit, Rng("fortress-stripped")), make_scatter(0.5), 4,
             finish=make_finish("near-won-stripped", 0.5), rulings=rulings("FT3"), strip=1, attempts=20,
             max_nodes=8000, description="FT3: one foundation emptied completely, its ace on a row: the "
             "ace must start an empty foundation; the trace plays a winning line")
    near_won(kit, "rows-only", won_state(kit, Rng("fortress-rows")), make_scatter(0.2), 20,
             finish=make_finish("rows-only", 0.0), rulings=rulings("FT4", "FT5", "G9"), attempts=14,
             max_nodes=8000, description="FT4: rows with cards that never emptied build up or down in "
             "suit, no wrap between king and ace (G9); the empty rows are suit stacks and take any (FT5)")
    near_won(kit, "public-near-won", won_state(kit, Rng("public")), make_scatter(0.5), 8,
             finish=make_finish("public-near-won", 0.5), rulings=rulings("FT4", "FT5"), public=True)

    mined = {
        "first-row-emptied": (lambda s: sum(1 for r in ROWS if len(s.piles[r]) <= 1) >= 1,
                              rulings("FT5", "FT6"),
                              "FT5: a row about to be emptied becomes a suit stack; it then takes any "
                              "available card"),
    }
    for name, (predicate, ids_, description) in mined.items():
        state = mine(kit, predicate, steps=300, action_bias=0.0)
        if state is None:
            raise AssertionError(f"fortress: no seeded playout reaches {name}")
        scripted(kit, name, state, [], rulings=ids_, description=description, then=30)
    scripted(kit, "stack-offered", kit.position(STACK_OFFERED),
             ["t2>t1", "t3>t1", "t1>f4", "t6>t7", "t5>t7", "t6>t9"],
             rulings=rulings("FT5", "FT4", "G13"), then=40,
             description="FT5: a suit stack with cards (t1: 5S, t7: 9C 8C 7C) takes a card of its suit one "
             "rank lower (4S), never one higher (6S), which a row would take (FT4); empty suit stacks "
             "t9, t10 take any card; its top card plays on like an outer card")
    scripted(kit, "no-wrap", kit.position(NO_WRAP), ["t2>t1", "t1>t2", "t5>t1", "t2>f3", "t1>t6"],
             rulings=rulings("G9", "FT4"), then=40,
             description="G9, FT4: no wrap: the ace of clubs does not go onto the king of clubs, nor the "
             "king onto the ace; the ace goes to a foundation, the king into an empty suit stack")
    # the deal of seed 1: wrong moves refused, then a row built on
    state = engine.new_game(kit.variation, 1)
    scripted(kit, "deal-wrong-moves", state, ["t1>t2", "t3>t1", "t2>f1", "t10>t3"],
             rulings=rulings("FT4", "FT2", "FT3", "G11"),
             description="FT4: rows build in suit one rank up or down only: 9H onto 7S and 3S onto 9H "
             "are refused, 7S to an empty foundation too (FT3: aces only); 2S onto 3S is taken", then=20)
