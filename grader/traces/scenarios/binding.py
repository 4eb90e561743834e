"""Binding scenarios (rulings BD1..BD8, G3, G5, G7, G8, G9, G11, G13).

Deals and long playouts are generic and cover the deal (BD1, BD2, G3, G7)
and, from every deal, the first selection (BD3). Here: near-won positions
that end in a win, for bases of every kind (so the foundations wrap K-A),
with cards on the auxiliary stacks, the open stack, the closed stack and the
stock, and each number of redeals left (BD4..BD8); the stock exhausted with
no redeal left; the whole selection scripted from a deal, with every
competing move tried while a pick is owed (BD3); the second selection with a
first-deal card uncovered by a pick; an empty foundation refused once the
picks are made; builds on the open stack (one rank lower, no wrap, G9); a
full foundation; the closed stack's top leaving (G7); a short last deal and
each redeal, one of them with empty auxiliary stacks (BD2, BD7, G5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import Move
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted
from .seed001 import rulings

FOUNDATIONS = tuple(f"f{i}" for i in range(1, 9))
STACKS = tuple(f"t{i}" for i in range(1, 6))

DEAL_RULINGS = rulings("BD1", "BD2", "BD3", "G3", "G7")  # the rulings of the deal, named by the deal traces


def won_state(kit: Kit, rng: Rng, bases: list[int], redeals: int) -> State:
    """Every card on the foundations: foundation i holds 13 cards up from ``bases[i]``
    (K-A wrap), suits spread at random; ``redeals`` left, no pick owed."""
    columns: list[list[Card]] = [[] for _ in FOUNDATIONS]
    for rank in range(ACE, KING + 1):
        suits = list(SUITS) * 2
        rng.shuffle(suits)
        for column, suit in zip(columns, suits, strict=True):
            column.append(Card(rank, suit))
    lines = [f"phase play picks=0 redeals={redeals}"]
    for foundation, column, base in zip(FOUNDATIONS, columns, bases, strict=True):
        run = column[base - 1:] + column[:base - 1]  # base, base+1, ..., K, A, ..., base-1
        lines.append(f"{foundation}: " + " ".join(map(str, run)))
    return kit.position("\n".join(lines))


def close(state: State) -> None:
    """Lay the closed stack face down but its top card (G7) and the stock face down."""
    for name in ("r2", "s"):
        pile = state.piles[name]
        state.set_pile(name, Pile(pile.cards, len(pile.cards)))
    state.turn_up("r2")


def scatter_to(*targets: str) -> Callable[[State, Card, Rng], bool]:
    """A scatter that puts a pulled card on one of ``targets`` (``s``: under the stock's top)."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        target = rng.choice(targets)
        if target == "s":
            stock = state.piles["s"]
            state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
        else:
            state.put(target, [card])
        return True

    return scatter


EVERYWHERE = scatter_to("r1", "r1", "r2", "s", *STACKS)


def _legal(kit: Kit, state: State, test: Callable[[Move], bool]) -> Move | None:
    return next((m for m in engine.legal_moves(kit.variation, state) if test(m)), None)


def _move(kit: Kit, source: str, target: str) -> Callable[[State], Move | None]:
    return lambda s: _legal(kit, s, lambda m: m.kind == "move" and m.source.startswith(source)
                            and m.target.startswith(target))


def build(kit: Kit) -> None:
    ids = rulings("BD4", "BD5", "BD6", "BD7", "BD8", "G8")
    cases = (([1] * 8, 6, 2), ([13, 1, 5, 9, 2, 7, 12, 4], 10, 1), ([3, 3, 8, 11, 13, 6, 2, 10], 16, 0),
             ([7, 8, 9, 10, 11, 12, 13, 1], 24, 2), ([5, 12, 12, 2, 9, 4, 6, 13], 30, 1))
    for index, (bases, pulls, redeals) in enumerate(cases):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"binding-won-{index}"), bases, redeals),
                 EVERYWHERE, pulls, finish=close, rulings=ids, attempts=16, max_nodes=6000,
                 description=f"bases {bases}, {redeals} redeals left: {pulls} cards off the foundations onto "
                 "the stacks and the stock; the trace plays a winning line found by search")
    near_won(kit, "stock-only", won_state(kit, Rng("binding-stock"), [2, 4, 6, 8, 10, 12, 1, 13], 2),
             scatter_to("s"), 12, finish=close, rulings=rulings("BD2", "BD7", "BD8", "G3", "G4"), attempts=16,
             max_nodes=6000, description="BD2, BD7: the last cards lie in the stock only: deal them, "
             "redeal the auxiliary stacks as they were dealt, and win")
    near_won(kit, "stacks-emptied", won_state(kit, Rng("binding-stacks"), [9, 9, 1, 1, 5, 5, 13, 13], 0),
             scatter_to(*STACKS), 10, finish=close, rulings=rulings("BD5", "BD6", "G13"), attempts=16,
             max_nodes=6000, description="BD5, G13: the open and the closed stack are empty and take "
             "nothing; the rest is won from the auxiliary stacks")
    near_won(kit, "public-near-won", won_state(kit, Rng("binding-public"), [4, 11, 2, 7, 13, 1, 9, 6], 1),
             EVERYWHERE, 8, finish=close, rulings=ids, public=True)

    selection(kit)
    mined_positions(kit)


def selection(kit: Kit) -> None:
    """BD3 scripted from deal 7: the three selections, every competing move tried meanwhile."""
    state = engine.new_game(kit.variation, 7)
    tries = ["deal", "r1>f1", "r2>f1", "r1>f2", "r2>f2", "t1>r1", "t2>r1", "t3>r1", "t4>r1", "t5>r1",
             "t1>f1", "t2>f1", "t3>f1", "t4>f1", "t5>f1", "t1>t2", "redeal"]
    first = tries + ["t1>f2", *tries, "t3>f5", *tries, "t5>f8", "t2>f3", "t4>f4", "r1>f6", "r2>f6"]
    builder = scripted(kit, "selection-first", state, first, rulings=rulings("BD3", "BD2", "G11"),
                       description="BD3: after the first deal three picks are owed; meanwhile no deal, no "
                       "move from the open or the closed stack, no build, no move onto f1; once they are "
                       "made no other card starts a foundation")
    after = builder.state
    second = ["deal", "t1>f3", "t1>f4", *tries[:10], "t2>f4", "t2>f6", "r1>f7", "t4>f7", "deal",
              *tries[:10], "t5>f7", "t4>f7", *tries]
    scripted(kit, "selection-second", after, second, rulings=rulings("BD3", "BD2"), then=30,
             description="BD3: the second deal owes three picks (a pick may uncover a first-deal card, "
             "which is then on top of its stack), the third deal one; then play goes on")


def mined_positions(kit: Kit) -> None:
    """Positions of seeded playouts, each with a few moves legal or not."""
    def owed(n: int, stock: int) -> Callable[[State], bool]:
        return lambda s: s.counters["picks"] == n and len(s.piles["s"]) == stock

    def r1_build(s: State) -> Move | None:
        return _move(kit, "t", "r1")(s)

    def wrong_r1(s: State) -> list[str]:
        """Auxiliary tops that do not fit r1: same rank, one higher, and an ace-king wrap."""
        top = s.piles["r1"].top
        found = []
        for stack in STACKS:
            card = s.piles[stack].top
            if top is not None and card is not None and card.rank != top.rank - 1:
                found.append(f"{stack}>r1")
        return found

    def full_foundation(s: State) -> str | None:
        for foundation in FOUNDATIONS:
            pile = s.piles[foundation]
            if len(pile) == 13:
                for source in ("r1", "r2", *STACKS):
                    card = s.piles[source].top
                    if card is not None and card.rank == pile.cards[0].rank:
                        return f"{source}>{foundation}"
        return None

    mined: dict[str, tuple[Callable[[State], bool], Callable[[State], Sequence[Move | str | None]],
                           list[str], str]] = {
        "empty-foundation-after-picks": (
            lambda s: s.counters["picks"] == 0 and len(s.piles["s"]) == 68,
            lambda s: [f"{t}>{f}" for t in STACKS for f in FOUNDATIONS if not s.piles[f] and s.piles[t]][:6]
            + ["r1>f8", "r2>f8", "deal"], rulings("BD3", "G11"),
            "BD3: once the picks are made no other card starts a foundation; the next deal is legal"),
        "third-deal-one-pick": (
            owed(1, 58),
            lambda s: ["deal", "r1>f1", _move(kit, "t", "f")(s), "deal"], rulings("BD3", "BD2"),
            "BD3: after the third deal one pick is owed; then all eight foundations are started"),
        "open-stack-build": (
            lambda s: r1_build(s) is not None,
            lambda s: [r1_build(s), "r1>t1", "r2>r1", "t1>r2", "r1>r2"], rulings("BD6", "G9"),
            "BD6: an auxiliary top goes onto the open stack one rank lower, suit ignored; nothing goes from "
            "the open stack to an auxiliary stack, nothing onto the closed stack"),
        "open-stack-misfit": (
            lambda s: s.counters["picks"] == 0 and len(wrong_r1(s)) >= 3,
            lambda s: [*wrong_r1(s), "t1>t2", "t2>t1", "f1>t1"], rulings("BD6", "G9"),
            "BD6, G9: an auxiliary top that is not one rank lower stays off the open stack (no wrap); "
            "no stack-to-stack move; foundation cards never come back"),
        "closed-stack-top": (
            lambda s: _move(kit, "r2", "f")(s) is not None and len(s.piles["r2"]) > 1,
            lambda s: [_move(kit, "r2", "f")(s), "r2>t1"], rulings("BD5", "G7"),
            "BD5, G7: the closed stack's top goes to a foundation and the card under it turns face up"),
        "full-foundation": (
            lambda s: full_foundation(s) is not None,
            lambda s: [full_foundation(s)], rulings("BD4", "G8"),
            "BD4: a foundation of 13 cards takes nothing more, not even the card that would wrap on"),
        "short-last-deal": (
            lambda s: len(s.piles["s"]) == 3 and s.counters["picks"] == 0,
            lambda s: ["deal", "deal", "redeal"], rulings("BD2", "BD7", "G4"),
            "BD2: the last deal of the first pass has three cards, t1 first; then the stock is empty"),
        "redeal": (
            lambda s: not s.piles["s"] and s.counters["redeals"] == 2 and s.counters["picks"] == 0,
            lambda s: ["deal", "redeal", "deal", "t1>f1"], rulings("BD7", "G5"),
            "BD7, G5: the stock is empty: the auxiliary stacks are gathered, t1 first, each bottom to top, "
            "as the new stock; play goes on with deal"),
        "last-pass-over": (
            lambda s: not s.piles["s"] and s.counters["redeals"] == 0,
            lambda s: ["redeal", "deal", "t1>r1"], rulings("BD7", "BD8", "G5"),
            "BD7: the third pass is over: no redeal, no deal; the game is not won"),
    }
    for name, (predicate, moves, ids, description) in mined.items():
        state = mine(kit, predicate, steps=400, action_bias=0.5)
        if state is None:
            raise AssertionError(f"binding: no seeded playout reaches {name}")
        scripted(kit, name, state, [m for m in moves(state) if m is not None], rulings=ids,
                 description=description, then=16)
    empty_redeal(kit)
    later_pass(kit)


def later_pass(kit: Kit) -> None:
    """BD7: no selection after the first pass, even when the stock has 68 or 63 cards, the sizes
    at which the first pass owes picks."""
    cards = engine.shuffled_deck(kit.variation, 11)
    bases, rest = cards[:8], cards[8:]
    for redeals in (1, 0):
        lines = [f"phase play picks=0 redeals={redeals}"]
        lines += [f"{f}: {card}" for f, card in zip(FOUNDATIONS, bases, strict=True)]
        lines += ["s: " + " ".join(str(c).lower() for c in rest[:68]),
                  "r1: " + " ".join(map(str, rest[68:88])),
                  "r2: " + " ".join(str(c).lower() for c in rest[88:95]) + " " + str(rest[95])]
        state = kit.position("\n".join(lines))
        scripted(kit, f"no-selection-pass-{3 - redeals}", state, ["deal", "deal", "t1>f1", "deal"],
                 rulings=rulings("BD7", "BD3", "BD2"), then=40,
                 description=f"BD7: pass {3 - redeals}, a stock of 68 cards: the deals owe no pick; "
                 "empty auxiliary stacks are filled by deal only")


def empty_redeal(kit: Kit) -> None:
    """G5: a redeal with every auxiliary stack empty still uses up a redeal."""
    state = won_state(kit, Rng("binding-empty-redeal"), [6, 6, 6, 6, 6, 6, 6, 6], 2)
    card = state.piles["f3"].top
    assert card is not None
    state.take("f3")
    state.put("r1", [card])
    scripted(kit, "redeal-empty-stacks", state, ["deal", "redeal", "deal", "redeal", "redeal", "r1>f3"],
             rulings=rulings("G5", "BD7", "BD8"),
             description="G5: with the stock and every auxiliary stack empty, redeal is legal while "
             "redeals remain, and uses one up; the open stack's last card wins")
