"""Demon scenarios (rulings DM1..DM8, G5, G6, G7, G8, G11, G12).

Deals and long playouts (generic, every combination of ``foundation_suit``
and ``last_two``) cover the deal (DM1), draws of three (DM6) and redeals
(DM7). Here: near-won positions that end in a win, suit-free and in suit,
with runs on the tableau, cards in the waste, the stock and the reserve
(DM2, DM3, DM5); foundations emptied completely beside a finished one, so
base-rank cards must start them and a finished foundation takes no more (DM2,
G8); a turn of exactly two cards and what the lower card (``w2``) may do,
with each value of ``last_two`` (DM6); redeals that shuffle, with an empty
waste, with ``w2`` still apart, with a fixed ``shuffle_seed``, and the last
redeal used up (DM7, G5, G6); spaces with and without a reserve (DM4); runs
that wrap from ace to king more than once (DM3).
"""

from __future__ import annotations

from typing import Any

from solitaire import engine
from solitaire.cards import SUITS, Card
from solitaire.moves import card_move
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import SCENARIO, Rng, search_win
from .common import mine, near_won, pull_from_foundations, scripted
from .seed001 import rulings

PILES = tuple(f"t{i}" for i in range(1, 5))
FOUNDATIONS = tuple(f"f{i}" for i in range(1, 5))
NEUTRAL = card_move("t1", "f1")  # no w2 effect: settled() checks the refills alone
IN_SUIT = {"foundation_suit": True}
TOP_ONLY = {"last_two": "top"}

DEAL_RULINGS = rulings("DM1", "G3", "G7")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng, options: dict[str, Any], redeals: int = 2) -> State:
    """Every card on the foundations from a random base rank, wrapping; in suit or suits mixed."""
    base = rng.below(13) + 1
    ranks = [(base - 1 + i) % 13 + 1 for i in range(13)]
    suits = list(SUITS)
    rng.shuffle(suits)
    columns: list[list[Card]] = [[] for _ in FOUNDATIONS]
    for rank in ranks:
        if not options.get("foundation_suit"):
            rng.shuffle(suits)
        for column, suit in zip(columns, suits, strict=True):
            column.append(Card(rank, suit))
    seed = 1 + rng.below(1 << 30)
    lines = [f"phase play redeals={redeals} shuffle_seed={seed} shuffles={5 - redeals}"]
    lines += [f"{f}: " + " ".join(map(str, cards)) for f, cards in zip(FOUNDATIONS, columns, strict=True)]
    return kit.position("\n".join(lines), options)


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A pulled card goes onto a tableau card one rank above (runs form), any tableau pile,
    the waste, the stock (face down) or the reserve."""
    fitting = [p for p in PILES if (top := state.piles[p].top) is not None and top.rank == card.rank % 13 + 1]
    roll = rng.below(20)
    if fitting and roll < 9:
        state.put(rng.choice(fitting), [card])
    elif roll < 12:
        state.put(rng.choice(PILES), [card])
    elif roll < 15:
        state.put("w", [card])
    elif roll < 18:
        state.put("s", [card], face_up=False)
    else:
        state.put("r", [card], face_up=False)
    return True


def _to_pile(state: State, card: Card, rng: Rng) -> bool:
    """A pulled card goes onto any tableau pile."""
    state.put(rng.choice(PILES), [card])
    return True


def finish(state: State) -> None:
    """Settle the position: spaces filled from the reserve, its top face up, the stock face down."""
    for pile in PILES:
        if not state.piles[pile].cards and state.piles["r"].cards:
            state.put(pile, state.take("r"))
    reserve = state.piles["r"]
    state.set_pile("r", Pile(reserve.cards, max(0, len(reserve.cards) - 1)))
    stock = state.piles["s"]
    state.set_pile("s", Pile(stock.cards, len(stock.cards)))


def emptied_near_won(kit: Kit, name: str, won: State, empty: int, pulls: int, ids: list[str],
                     description: str) -> None:
    """Like ``near_won``, but ``empty`` foundations other than ``f1`` lose every card, their
    base cards too (``f1`` keeps the base card that fixes the base rank)."""
    for attempt in range(12):
        rng = Rng(f"{name}/{attempt}")
        state = won.copy()
        for foundation in rng.sample(list(FOUNDATIONS[1:]), empty):
            pull_from_foundations(state, rng, 13, [foundation], scatter, keep=0)
        pull_from_foundations(state, rng, pulls, FOUNDATIONS, scatter)
        finish(state)
        engine.check_state(kit.variation, state)
        line = search_win(kit.variation, state, max_nodes=6000)
        if not line:
            continue
        builder = kit.trace(name, state=state, density=SCENARIO, rulings=ids, description=description)
        for move in line:
            builder.play(move)
        kit.add(builder)
        return
    raise AssertionError(f"demon: no winnable {name} position")


def _both(state: State) -> State:
    """``state`` with option ``last_two`` = "both" (to find what w2 could do)."""
    both = state.copy()
    both.options = dict(state.options, last_two="both")
    return both


def _w2_moves(kit: Kit, state: State) -> list[str]:
    """The legal moves of the lower card after turning the last two stock cards (option both)."""
    after = engine.apply_unchecked(kit.variation, _both(state), card_move("s", "w"))
    return [str(m) for m in engine.legal_moves(kit.variation, after) if m.kind == "move" and m.source == "w2"]


def _waste_first(kit: Kit, state: State) -> list[str]:
    """s>w (two cards), a legal move of the waste top, then each move w2 had (now illegal)."""
    after = engine.apply_unchecked(kit.variation, _both(state), card_move("s", "w"))
    moves = [m for m in engine.legal_moves(kit.variation, after) if m.kind == "move" and m.source == "w"]
    return ["s>w", str(moves[0]), *_w2_moves(kit, state)[:2]] if moves else []


def build(kit: Kit) -> None:
    for index, pulls in enumerate((5, 9, 14, 20)):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"demon-won-{index}"), {}), scatter, pulls,
                 finish=finish, neutral=NEUTRAL, rulings=rulings("DM2", "DM3", "DM5", "DM6", "DM8"),
                 attempts=14, max_nodes=6000,
                 description=f"{pulls} cards off suit-free foundations onto the tableau (runs), waste, "
                 "stock and reserve; the trace plays a winning line found by search")
    for index, pulls in enumerate((6, 12)):
        near_won(kit, f"in-suit-{index + 1}", won_state(kit, Rng(f"demon-suit-{index}"), IN_SUIT), scatter,
                 pulls, finish=finish, neutral=NEUTRAL, rulings=rulings("DM2"), attempts=14, max_nodes=6000,
                 description="DM2 with foundation_suit=true: foundations build up in suit, wrapping; the "
                 "trace plays a winning line")
    near_won(kit, "top-only-near-won", won_state(kit, Rng("demon-top"), TOP_ONLY, 1), scatter, 10,
             finish=finish, neutral=NEUTRAL, rulings=rulings("DM6", "DM7"), attempts=14, max_nodes=6000,
             description="DM6 with last_two=top: only the waste top is ever available")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), {}), scatter, 6, finish=finish,
             neutral=NEUTRAL, rulings=rulings("DM2", "DM3"), public=True)
    emptied_near_won(kit, "emptied-foundations", won_state(kit, Rng("demon-empty"), {}), 2, 3,
                     rulings("DM2", "G8"), "DM2, G8: two foundations emptied, base cards too; any "
                     "base-rank card starts an empty foundation; a finished foundation takes nothing")
    emptied_near_won(kit, "emptied-in-suit", won_state(kit, Rng("demon-empty-suit"), IN_SUIT), 1, 4,
                     rulings("DM2", "G8"), "DM2 with foundation_suit=true: an emptied foundation "
                     "restarts from a base-rank card of any suit, then builds in that suit")

    # DM6: a turn of exactly two cards; the lower card (w2) under each option
    for options, tag in (({}, ""), (TOP_ONLY, "-top")):
        state = mine(kit, lambda s: len(s.piles["s"]) == 2 and len(_w2_moves(kit, s)) > 1 and bool(
            _waste_first(kit, s)), options=options, steps=300)
        if state is None:
            raise AssertionError("demon: no seeded playout leaves two cards in the stock")
        w2_moves = _w2_moves(kit, state)
        scripted(kit, f"two-card-turn-waste-first{tag}", state, _waste_first(kit, state),
                 rulings=rulings("DM6"), then=8,
                 description="DM6: after a card is played from the waste, w2 is apart no more")
        scripted(kit, f"two-card-turn-redeal{tag}", state, ["s>w", "redeal", "s>w"],
                 rulings=rulings("DM6", "DM7", "G6"), then=10,
                 description="DM7: a redeal while w2 is apart gathers it under the waste's top card, "
                 "shuffles, and the stock is turned again")
        for move in w2_moves[:3]:
            scripted(kit, f"two-card-turn-{move.replace('>', '-').replace(':', '-')}{tag}", state,
                     ["s>w", move], rulings=rulings("DM6"), then=6,
                     description=f"DM6: {move} after a turn of exactly two cards"
                     + (" (last_two=top: not allowed)" if tag else ""))

    # DM7, G5: redeals as they run out; an empty waste redeals too (tightened)
    last = mine(kit, lambda s: not s.piles["s"].cards and s.counters["redeals"] == 1, steps=400)
    if last is None:
        raise AssertionError("demon: no seeded playout reaches the last redeal")
    scripted(kit, "last-redeal", last, ["redeal"], rulings=rulings("DM7", "G5", "G6", "G12"), then=40,
             description="DM7: the last of five redeals shuffles the waste into the stock; after that "
             "pass no redeal is left")
    used = mine(kit, lambda s: not s.piles["s"].cards and s.counters["redeals"] == 0, steps=500)
    if used is None:
        raise AssertionError("demon: no seeded playout uses up the redeals")
    scripted(kit, "redeals-used-up", used, ["redeal"], rulings=rulings("DM7", "G5"), then=12,
             description="DM7: six passes: no redeal is left")
    empty_waste = won_state(kit, Rng("demon-empty-waste"), {}, 2)
    pull_from_foundations(empty_waste, Rng("demon-empty-waste-pull"), 6, FOUNDATIONS, _to_pile)
    scripted(kit, "redeal-empty-waste", empty_waste, ["redeal", "redeal", "redeal", "s>w"],
             rulings=rulings("DM7", "G5"), then=20,
             description="G5 (tightened): with the stock and the waste empty a redeal is still legal "
             "while redeals remain, and uses one up")
    fixed = mine(kit, lambda s: not s.piles["s"].cards and len(s.piles["w"]) > 8,
                 options={"shuffle_seed": 12345}, steps=300)
    if fixed is None:
        raise AssertionError("demon: no playout with a fixed shuffle seed reaches a redeal")
    scripted(kit, "fixed-shuffle-seed", fixed, ["redeal", "s>w"], rulings=rulings("G6", "DM7"), then=20,
             description="G6: option shuffle_seed fixes the seed of the shuffles")

    # DM4: spaces once the reserve is empty take any available card or run
    space = mine(kit, lambda s: not s.piles["r"].cards and any(not s.piles[p].cards for p in PILES),
                 steps=400)
    if space is None:
        raise AssertionError("demon: no seeded playout empties the reserve and a pile")
    scripted(kit, "space-reserve-empty", space, [], rulings=rulings("DM4"), then=20,
             description="DM4: the reserve is empty; a space takes any available card or run")
    refill = mine(kit, lambda s: len(s.piles["r"].cards) > 0 and any(
        m.kind == "move" and m.source in PILES and m.count == len(s.piles[m.source])
        for m in engine.legal_moves(kit.variation, s)), steps=300)
    if refill is None:
        raise AssertionError("demon: no seeded playout empties a pile while the reserve has cards")
    emptying = next(m for m in engine.legal_moves(kit.variation, refill)
                    if m.kind == "move" and m.source in PILES and m.count == len(refill.piles[m.source]))
    scripted(kit, "space-refilled", refill, [emptying], rulings=rulings("DM4", "G7", "G11"), then=12,
             description="DM4, G7: an emptied pile takes the reserve's top card at once; the next "
             "reserve card turns face up")

    # DM3: a run that wraps from ace to king twice moves as a unit
    run = [Card(rank, suit) for rank, suit in zip(
        [3, 2, 1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 13], "CDHSCDHSCDHSCDHSC", strict=True)]
    wrapped = _wrapped_position(kit, run)
    scripted(kit, "wrapping-run", wrapped, ["t1:17>t2", "t2:16>t3"], rulings=rulings("DM3"), then=10,
             description="DM3 (tightened): a run of 17 cards wrapping from ace to king twice moves as "
             "a unit onto a card one rank above its deepest card")


def _wrapped_position(kit: Kit, run: list[Card]) -> State:
    """t1 holds ``run``, t2 a 4 (one above the run's deepest card, a 3), t3 a 3 (for the run
    from its 2 up, once on t2); the other cards in the stock, the waste and ``f1``."""
    rest = [c for c in kit.variation.deck.pack() if c not in run]
    four = next(c for c in rest if c.rank == 4)
    rest.remove(four)
    three = next(c for c in rest if c.rank == 3)
    rest.remove(three)
    base = rest.pop(0)
    text = "\n".join([
        "phase play redeals=1 shuffle_seed=99 shuffles=4",
        "s: " + " ".join(str(c).lower() for c in rest[:20]),
        "w: " + " ".join(map(str, rest[20:])),
        f"f1: {base}",
        "t1: " + " ".join(map(str, run)),
        f"t2: {four}",
        f"t3: {three}",
    ])
    return kit.position(text)
