"""Open Stack scenarios (rulings OS1..OS5, G3, G4, G8, G9, G11).

Deals and long playouts are generic and cover the deal (OS1, G3). Here:
near-won positions that end in a win, for several base ranks (an ace, so no
wrap; a king and middle ranks, so the foundations wrap K-A), with cards on the
open stack, the auxiliary stacks and the stock (OS2..OS4); a foundation
emptied completely, so a base-rank card must start it (G8); the open stack
emptied (it takes nothing, OS3); the stock exhausted with cards left (OS5);
positions mined from seeded playouts: an auxiliary top or the drawn card onto
the open stack, the drawn card onto an empty auxiliary stack, a base card on
the open stack, an ace on top of the open stack (no wrap, G9), with illegal
tries (stack to stack, open stack to a stack, foundation back).
"""

from __future__ import annotations

from collections.abc import Callable

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import Move
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted, turn_up_stock
from .seed001 import rulings

FOUNDATIONS = tuple(f"f{i}" for i in range(1, 9))
STACKS = tuple(f"t{i}" for i in range(1, 6))

DEAL_RULINGS = rulings("OS1", "G3", "G7", "G8")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng, base: int) -> State:
    """Every card on the foundations, each 13 cards from ``base`` up (K-A wrap), suits spread at random."""
    columns: list[list[Card]] = [[] for _ in FOUNDATIONS]
    for step in range(13):
        rank = (base - 1 + step) % KING + 1
        suits = list(SUITS) * 2
        rng.shuffle(suits)
        for column, suit in zip(columns, suits, strict=True):
            column.append(Card(rank, suit))
    return kit.position("\n".join(f"{f}: " + " ".join(map(str, cards))
                                  for f, cards in zip(FOUNDATIONS, columns, strict=True)))


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A pulled card goes onto the open stack (mostly), an auxiliary stack, or under the stock's top."""
    roll = rng.below(10)
    if roll < 5:
        state.put("r", [card])
    elif roll < 8:
        state.put(rng.choice(STACKS), [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def no_stack(state: State, card: Card, rng: Rng) -> bool:
    """A scatter that leaves the open stack empty."""
    if rng.below(10) < 6:
        state.put(rng.choice(STACKS), [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def to_stacks(state: State, card: Card, rng: Rng) -> bool:
    """A scatter that leaves the stock empty."""
    state.put(rng.choice(("r",) + STACKS), [card])
    return True


def emptied(state: State, foundation: str, rng: Rng) -> State:
    """``state`` with every card of ``foundation`` scattered, its base card too."""
    state = state.copy()
    while state.piles[foundation].cards:
        card = state.piles[foundation].top
        assert card is not None
        state.take(foundation)
        scatter(state, card, rng)
    return state


def _legal(kit: Kit, state: State, test: Callable[[Move], bool]) -> Move | None:
    return next((m for m in engine.legal_moves(kit.variation, state) if test(m)), None)


def build(kit: Kit) -> None:
    ids = rulings("OS2", "OS3", "OS4")
    for index, (pulls, base) in enumerate(((4, 7), (9, ACE), (15, KING), (22, 3), (30, 10))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"open-won-{index}"), base), scatter,
                 pulls, finish=turn_up_stock, rulings=ids, attempts=16, max_nodes=6000,
                 description=f"base rank {base}: {pulls} cards off the foundations onto the open stack, the "
                 "auxiliary stacks and the stock; the trace plays a winning line found by search")
    for index, base in enumerate((5, KING)):
        rng = Rng(f"open-stripped-{index}")
        state = emptied(won_state(kit, rng, base), FOUNDATIONS[3 + index], rng)
        near_won(kit, f"near-won-stripped-{index + 1}", state, scatter, 3, finish=turn_up_stock,
                 rulings=rulings("G8", "OS2"), attempts=20, max_nodes=6000,
                 description=f"G8: a foundation emptied completely (base rank {base}): a card of the base "
                 "rank, from any source, must start it again")
    near_won(kit, "stack-emptied", won_state(kit, Rng("open-no-stack"), 8), no_stack, 10,
             finish=turn_up_stock, rulings=rulings("OS3", "OS4"), attempts=16, max_nodes=6000,
             description="OS3: the open stack is empty and takes nothing; the rest is won from the "
             "auxiliary stacks and the stock")
    near_won(kit, "stock-exhausted", won_state(kit, Rng("open-exhausted"), 4), to_stacks, 12,
             rulings=rulings("OS5", "OS3"), attempts=16, max_nodes=6000,
             description="OS5: the stock is exhausted with cards left on the stacks: not won until they "
             "are on the foundations; no redeal")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 9), scatter, 6, finish=turn_up_stock,
             rulings=ids, public=True)

    def first(source: str, target: str) -> Callable[[State], Move | None]:
        return lambda s: _legal(kit, s, lambda m: m.kind == "move" and (m.source or "").startswith(source)
                                and (m.target or "").startswith(target))

    def base_rank(state: State) -> int:
        return state.piles["f1"].cards[0].rank

    mined: dict[str, tuple[Callable[[State], bool], Callable[[State], list[Move | str | None]],
                           list[str], str]]
    mined = {
        "stack-top-onto-open": (
            lambda s: first("t", "r")(s) is not None,
            lambda s: [first("t", "r")(s), "t1>t2", "r>t1"], rulings("OS3", "OS4", "G7"),
            "OS3: an auxiliary top goes onto the open stack one rank lower, suit ignored; never onto "
            "another auxiliary stack; the open stack's top never onto an auxiliary stack"),
        "drawn-onto-open": (
            lambda s: first("s", "r")(s) is not None,
            lambda s: [first("s", "r")(s)], rulings("OS3", "G4"),
            "OS3: the drawn card goes onto the open stack one rank lower, suit ignored"),
        "drawn-to-empty-stack": (
            lambda s: any(not s.piles[t].cards for t in STACKS) and any(s.piles[t].cards for t in STACKS),
            lambda s: [f"{next(t for t in STACKS if s.piles[t].cards)}>"
                       f"{next(t for t in STACKS if not s.piles[t].cards)}",
                       f"s>{next(t for t in STACKS if not s.piles[t].cards)}"], rulings("OS4", "G4"),
            "OS4: an empty auxiliary stack takes the drawn card and nothing from another stack"),
        "open-top-to-foundation": (
            lambda s: first("r", "f")(s) is not None,
            lambda s: [first("r", "f")(s)], rulings("OS3", "OS2"),
            "OS3: the open stack's top card goes to a foundation"),
        "base-card-from-open": (
            lambda s: s.piles["r"].top is not None and s.piles["r"].top.rank == base_rank(s)
            and first("r", "f")(s) is not None,
            lambda s: [first("r", "f")(s)], rulings("G8", "OS2"),
            "G8: a card of the base rank on the open stack starts a foundation"),
        "base-card-drawn": (
            lambda s: s.piles["s"].top is not None and s.piles["s"].top.rank == base_rank(s),
            lambda s: [first("s", "f")(s), "f1>t1"], rulings("G8", "G11"),
            "G8, G11: a drawn card of the base rank waits for the player, then starts a foundation; "
            "foundation cards never come back"),
        "ace-on-open": (
            lambda s: s.piles["r"].top is not None and s.piles["r"].top.rank == ACE,
            lambda s: ["s>r", "t1>r", "t2>r"], rulings("G9", "OS3"),
            "G9: an ace on top of the open stack takes nothing (no wrap)"),
        "drawn-fits-foundation": (
            lambda s: first("s", "f")(s) is not None and len(s.piles["s"]) < 70,
            lambda s: ["s>t5"], rulings("G4", "OS4"),
            "G4: the drawn card fits a foundation; it may go onto an auxiliary stack all the same"),
    }
    for name, (predicate, moves, ids, description) in mined.items():
        found = mine(kit, predicate, steps=120)
        if found is None:
            raise AssertionError(f"open_stack: no seeded playout reaches {name}")
        scripted(kit, name, found, [m for m in moves(found) if m is not None], rulings=ids,
                 description=description, then=16)
