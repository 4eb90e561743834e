"""Color Star scenarios (rulings CS1..CS5, G3, G4, G7, G8, G10, G11, G13).

Deals and long playouts are generic and cover the deal (CS1, G3, G7). Here:
near-won positions that end in a win, for several base ranks (an ace, a king
and middle ranks, so the foundations wrap K-A), with cards on the closed main
stack, the auxiliary stacks and the stock (CS2..CS4); a foundation emptied
completely, so a base-rank card must start it (G8); the main stack emptied
(it takes nothing, CS4); the stock exhausted with cards left (CS5); positions
mined from seeded playouts: the main stack's top to a foundation and the
closed card under it turning up (G7), the drawn card onto an empty auxiliary
stack, a base card drawn, a card of the wrong colour offered to a foundation
(CS2, G10), with illegal tries (stack to stack, main stack to a stack,
anything onto the main stack, foundation back).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solitaire import engine
from solitaire.cards import ACE, KING, Card
from solitaire.moves import Move
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted, turn_up_stock
from .seed001 import rulings

FOUNDATIONS = tuple(f"f{i}" for i in range(1, 9))
STACKS = tuple(f"t{i}" for i in range(1, 11))

DEAL_RULINGS = rulings("CS1", "G3", "G7", "G8")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng, base: int) -> State:
    """Every card on the foundations, each 13 cards from ``base`` up (K-A wrap) in alternating
    colours, four foundations starting red and four black, suits spread at random."""
    starts = [True] * 4 + [False] * 4  # True: the base card is red
    rng.shuffle(starts)
    columns: list[list[Card]] = [[] for _ in FOUNDATIONS]
    for step in range(13):
        rank = (base - 1 + step) % KING + 1
        reds, blacks = list("HHDD"), list("SSCC")
        rng.shuffle(reds)
        rng.shuffle(blacks)
        for column, red in zip(columns, starts, strict=True):
            column.append(Card(rank, (reds if red == (step % 2 == 0) else blacks).pop()))
    return kit.position("\n".join(f"{f}: " + " ".join(map(str, cards))
                                  for f, cards in zip(FOUNDATIONS, columns, strict=True)))


def close(state: State) -> None:
    """Lay the main stack face down but its top card (G7), the stock likewise (the drawn card)."""
    stack = state.piles["r"]
    state.set_pile("r", Pile(stack.cards, len(stack.cards)))
    state.turn_up("r")
    turn_up_stock(state)


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A pulled card goes onto the main stack, an auxiliary stack, or under the stock's top."""
    roll = rng.below(10)
    if roll < 4:
        state.put("r", [card])
    elif roll < 8:
        state.put(rng.choice(STACKS), [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def no_stack(state: State, card: Card, rng: Rng) -> bool:
    """A scatter that leaves the main stack empty."""
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
    ids = rulings("CS2", "CS3", "CS4", "G10")
    for index, (pulls, base) in enumerate(((4, 7), (9, ACE), (15, KING), (22, 3), (30, 10))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"color-won-{index}"), base), scatter,
                 pulls, finish=close, rulings=ids, attempts=16, max_nodes=6000,
                 description=f"base rank {base}: {pulls} cards off the foundations onto the main stack, the "
                 "auxiliary stacks and the stock; the trace plays a winning line found by search")
    for index, base in enumerate((5, KING)):
        rng = Rng(f"color-stripped-{index}")
        state = emptied(won_state(kit, rng, base), FOUNDATIONS[3 + index], rng)
        near_won(kit, f"near-won-stripped-{index + 1}", state, scatter, 3, finish=close,
                 rulings=rulings("G8", "CS2"), attempts=20, max_nodes=6000,
                 description=f"G8: a foundation emptied completely (base rank {base}): a card of the base "
                 "rank, of either colour and from any source, must start it again")
    near_won(kit, "stack-emptied", won_state(kit, Rng("color-no-stack"), 8), no_stack, 10,
             finish=close, rulings=rulings("CS3", "CS4", "G13"), attempts=16, max_nodes=6000,
             description="CS4, G13: the main stack is empty and takes nothing; the rest is won from the "
             "auxiliary stacks and the stock")
    near_won(kit, "stock-exhausted", won_state(kit, Rng("color-exhausted"), 4), to_stacks, 12,
             finish=close, rulings=rulings("CS5", "CS4"), attempts=16, max_nodes=6000,
             description="CS5: the stock is exhausted with cards left on the stacks: not won until they "
             "are on the foundations; no redeal")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 9), scatter, 6, finish=close,
             rulings=ids, public=True)

    def first(source: str, target: str) -> Callable[[State], Move | None]:
        return lambda s: _legal(kit, s, lambda m: m.kind == "move" and (m.source or "").startswith(source)
                                and (m.target or "").startswith(target))

    def base_rank(state: State) -> int:
        return state.piles["f1"].cards[0].rank

    def wrong_colour(state: State) -> str | None:
        """A move of an available card of the right rank but the wrong colour onto a foundation."""
        for source in ("s", "r") + STACKS:
            card = state.piles[source].top
            if card is None or not state.piles[source].top_is_face_up:
                continue
            for foundation in FOUNDATIONS:
                top = state.piles[foundation].top
                if top is not None and card.rank == top.rank % KING + 1 and card.is_red == top.is_red:
                    return f"{source}>{foundation}"
        return None

    mined: dict[str, tuple[Callable[[State], bool], Callable[[State], Sequence[Move | str | None]],
                           list[str], str]]
    mined = {
        "main-top-to-foundation": (
            lambda s: first("r", "f")(s) is not None,
            lambda s: [first("r", "f")(s), "r>t1", "t1>r", "s>r"], rulings("CS4", "CS2", "G7"),
            "CS4, G7: the main stack's top card goes to a foundation and the closed card under it turns "
            "up; the main stack's top never goes onto an auxiliary stack, nothing goes onto the main stack"),
        "drawn-to-empty-stack": (
            lambda s: any(not s.piles[t].cards for t in STACKS) and any(s.piles[t].cards for t in STACKS),
            lambda s: [f"{next(t for t in STACKS if s.piles[t].cards)}>"
                       f"{next(t for t in STACKS if not s.piles[t].cards)}",
                       f"s>{next(t for t in STACKS if not s.piles[t].cards)}"], rulings("CS3", "G4"),
            "CS3: an empty auxiliary stack takes the drawn card and nothing from another stack"),
        "stack-to-stack": (
            lambda s: sum(1 for t in STACKS if s.piles[t].cards) >= 2,
            lambda s: [f"{a}>{b}" for a in STACKS[:3] for b in STACKS[:3] if a != b] + ["s>t2"],
            rulings("CS4", "CS3"),
            "CS4: \"you cannot play cards between stacks\": no auxiliary top onto another stack"),
        "stack-top-to-foundation": (
            lambda s: first("t", "f")(s) is not None,
            lambda s: [first("t", "f")(s)], rulings("CS4", "CS2"),
            "CS4: an auxiliary top goes to a foundation"),
        "base-card-drawn": (
            lambda s: s.piles["s"].top is not None and s.piles["s"].top.rank == base_rank(s),
            lambda s: [first("s", "f")(s), "f1>t1"], rulings("G8", "G11"),
            "G8, G11: a drawn card of the base rank waits for the player, then starts a foundation; "
            "foundation cards never come back"),
        "wrong-colour": (
            lambda s: wrong_colour(s) is not None,
            lambda s: [wrong_colour(s)], rulings("CS2", "G10"),
            "CS2, G10: the next rank of the same colour does not go onto a foundation"),
        "drawn-fits-foundation": (
            lambda s: first("s", "f")(s) is not None and len(s.piles["s"]) < 80,
            lambda s: ["s>t5"], rulings("G4", "CS3"),
            "G4: the drawn card fits a foundation; it may go onto an auxiliary stack all the same"),
    }
    for name, (predicate, moves, ids_, description) in mined.items():
        found = mine(kit, predicate, steps=120)
        if found is None:
            raise AssertionError(f"color_star: no seeded playout reaches {name}")
        scripted(kit, name, found, [m for m in moves(found) if m is not None], rulings=ids_,
                 description=description, then=16)
