"""Rainbow (seed 000) scenarios (rulings RB1..RB6, G3..G9, G11).

Deals and long playouts are generic and cover the deal (RB1, G3). Here:
near-won positions that end in a win, each foundation on its own base rank
(so most wrap K-A), with cards on the open stack, the auxiliary stacks and the
stock, the redeal still left or used up (RB2..RB4, G8); the stock exhausted
with cards on the stacks, won only through the shuffled redeal (RB5, G6); the
redeal used up with cards left (RB6); the open stack emptied (RB3); redeals
from seeded playouts, with the derived seed and a fixed ``shuffle_seed``, with
every auxiliary stack empty, and a second redeal tried (RB5, G5, G6);
positions mined from seeded playouts: an auxiliary top or the drawn card onto
the open stack, the drawn card onto an empty auxiliary stack, an ace on top of
the open stack (no wrap, G9), a foundation emptied (G13), with illegal tries (stack to stack, open stack
to a stack, foundation back).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import Move
from solitaire.piles import Pile
from solitaire.state import OptionValue, State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted, turn_up_stock
from .seed001 import rulings

FOUNDATIONS = tuple(f"f{i}" for i in range(1, 9))
STACKS = tuple(f"t{i}" for i in range(1, 4))

DEAL_RULINGS = rulings("RB1", "G3", "G6")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng, redeals: int = 1,
              options: Mapping[str, OptionValue] | None = None) -> State:
    """Every card on the foundations, each 13 cards up from its own random base (K-A wrap), suits
    spread at random; the redeal left or used up."""
    by_rank: dict[int, list[Card]] = {}
    for rank in range(ACE, KING + 1):
        suits = list(SUITS) * 2
        rng.shuffle(suits)
        by_rank[rank] = [Card(rank, suit) for suit in suits]
    lines = [f"phase play redeals={redeals} shuffle_seed={1 + rng.below(1 << 30)} shuffles={1 - redeals}"]
    for index, foundation in enumerate(FOUNDATIONS):
        base = rng.below(13) + 1
        cards = [by_rank[(base - 1 + step) % KING + 1][index] for step in range(13)]
        lines.append(f"{foundation}: " + " ".join(map(str, cards)))
    return kit.position("\n".join(lines), dict(options or {}))


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
    """A scatter that leaves the stock empty: mostly onto the auxiliary stacks."""
    state.put("r" if rng.below(10) < 3 else rng.choice(STACKS), [card])
    return True


def buried(state: State, card: Card, rng: Rng) -> bool:
    """A scatter that slides each pulled card under ``t1``: a foundation's higher cards, pulled
    first, end above its lower ones, so ``t1`` blocks and only the redeal frees its cards."""
    state.put_under("t1", [card], face_up=True)
    return True


def _legal(kit: Kit, state: State, test: Callable[[Move], bool]) -> Move | None:
    return next((m for m in engine.legal_moves(kit.variation, state) if test(m)), None)


def build(kit: Kit) -> None:
    ids = rulings("RB2", "RB3", "RB4", "G8")
    for index, pulls in enumerate((4, 9, 15, 22, 30)):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"rainbow-won-{index}")), scatter,
                 pulls, finish=turn_up_stock, rulings=ids, attempts=16, max_nodes=6000,
                 description=f"{pulls} cards off the foundations (each on its own base rank, wrapping) "
                 "onto the open stack, the auxiliary stacks and the stock; the trace plays a winning line")
    for index, pulls in enumerate((6, 14)):
        near_won(kit, f"near-won-no-redeal-{index + 1}", won_state(kit, Rng(f"rainbow-used-{index}"), 0),
                 scatter, pulls, finish=turn_up_stock, rulings=rulings("RB2", "RB4", "RB5"), attempts=16,
                 max_nodes=6000, description=f"RB5: the redeal used up; {pulls} cards off the foundations; "
                 "the trace plays a winning line")
    near_won(kit, "stack-emptied", won_state(kit, Rng("rainbow-no-stack")), no_stack, 10,
             finish=turn_up_stock, rulings=rulings("RB3", "RB4"), attempts=16, max_nodes=6000,
             description="RB3: the open stack is empty and takes nothing; the rest is won from the "
             "auxiliary stacks and the stock")
    for index, pulls in enumerate((6, 9, 12)):
        near_won(kit, f"redeal-to-win-{index + 1}", won_state(kit, Rng(f"rainbow-redeal-{index}")), buried,
                 pulls, rulings=rulings("RB5", "G5", "G6"), attempts=16, max_nodes=6000,
                 description="RB5: the stock is empty, cards on the auxiliary stacks: the redeal shuffles "
                 "them (G6) into a new stock; the trace plays a winning line")
    near_won(kit, "stock-exhausted", won_state(kit, Rng("rainbow-exhausted"), 0), to_stacks, 12,
             rulings=rulings("RB6", "RB5"), attempts=16, max_nodes=6000,
             description="RB6: the stock is exhausted and the redeal used up, cards left on the stacks: "
             "not won until they are on the foundations")
    emptied = won_state(kit, Rng("rainbow-empty-foundation"))
    rng = Rng("rainbow-empty-foundation-scatter")
    while emptied.piles["f8"].cards:
        card = emptied.piles["f8"].top
        assert card is not None
        emptied.take("f8")
        scatter(emptied, card, rng)
    turn_up_stock(emptied)
    base = next(p for p in ("r", "t1", "t2", "t3", "s") if emptied.piles[p].cards)
    scripted(kit, "empty-foundation", emptied, [f"{base}>f8"], rulings=rulings("G13", "RB2", "G11"), then=24,
             description="G13, RB2: a foundation emptied (never met in play: every one starts with a "
             "base card) takes nothing, not even a card one rank above anything")
    near_won(kit, "public-near-won", won_state(kit, Rng("public")), scatter, 6, finish=turn_up_stock,
             rulings=ids, public=True)
    near_won(kit, "public-redeal", won_state(kit, Rng("public-redeal")), buried, 8,
             rulings=rulings("RB5", "G6"), public=True, attempts=16, max_nodes=6000,
             description="RB5: the stock is empty and t1 blocks: the redeal shuffles the auxiliary stacks "
             "into a new stock; the trace plays a winning line")

    # RB5, G5, G6: the redeal from seeded playouts
    redeal = mine(kit, lambda s: not s.piles["s"].cards and sum(len(s.piles[t]) for t in STACKS) > 6,
                  steps=300)
    if redeal is None:
        raise AssertionError("rainbow: no seeded playout reaches the redeal")
    scripted(kit, "redeal", redeal, ["redeal", "redeal"], rulings=rulings("RB5", "G5", "G6"), then=40,
             description="RB5: the auxiliary stacks, t1 first, each bottom to top, are shuffled into the "
             "new stock, the first card on top; a second redeal is no move")
    fixed = mine(kit, lambda s: not s.piles["s"].cards and sum(len(s.piles[t]) for t in STACKS) > 6,
                 options={"shuffle_seed": 12345}, steps=300)
    if fixed is None:
        raise AssertionError("rainbow: no playout with a fixed shuffle seed reaches the redeal")
    scripted(kit, "fixed-shuffle-seed", fixed, ["redeal"], rulings=rulings("G6", "RB5"), then=30,
             description="G6: option shuffle_seed fixes the seed of the shuffle")
    empty = redeal.copy()
    for stack in STACKS:
        empty.set_pile("r", Pile(empty.piles["r"].cards + empty.piles[stack].cards,
                                 len(empty.piles["r"].cards) + len(empty.piles[stack].cards)))
        empty.set_pile(stack, Pile((), 0))
    empty.set_pile("r", Pile(empty.piles["r"].cards, 0))
    scripted(kit, "redeal-empty-stacks", empty, ["redeal", "redeal", "r>t1"], rulings=rulings("G5", "RB5"),
             then=8, description="G5 (tightened): with the stock and every auxiliary stack empty the "
             "redeal is still legal and uses up the one redeal")

    def first(source: str, target: str) -> Callable[[State], Move | None]:
        return lambda s: _legal(kit, s, lambda m: m.kind == "move" and (m.source or "").startswith(source)
                                and (m.target or "").startswith(target))

    mined: dict[str, tuple[Callable[[State], bool], Callable[[State], list[Move | str | None]],
                           list[str], str]]
    mined = {
        "stack-top-onto-open": (
            lambda s: first("t", "r")(s) is not None,
            lambda s: [first("t", "r")(s), "t1>t2", "t2>t3", "r>t1", "redeal"], rulings("RB3", "RB4"),
            "RB3: an auxiliary top goes onto the open stack one rank lower, suit ignored; never onto "
            "another auxiliary stack; the open stack's top never onto an auxiliary stack; no redeal "
            "while the stock has cards"),
        "drawn-onto-open": (
            lambda s: first("s", "r")(s) is not None,
            lambda s: [first("s", "r")(s)], rulings("RB3", "G4"),
            "RB3: the drawn card goes onto the open stack one rank lower, suit ignored"),
        "drawn-to-empty-stack": (
            lambda s: any(not s.piles[t].cards for t in STACKS) and any(s.piles[t].cards for t in STACKS),
            lambda s: [f"{next(t for t in STACKS if s.piles[t].cards)}>"
                       f"{next(t for t in STACKS if not s.piles[t].cards)}",
                       f"s>{next(t for t in STACKS if not s.piles[t].cards)}"], rulings("RB4", "G4"),
            "RB4: an empty auxiliary stack takes the drawn card and nothing from another stack"),
        "open-top-to-foundation": (
            lambda s: first("r", "f")(s) is not None,
            lambda s: [first("r", "f")(s), "f1>t1", "f2>r"], rulings("RB3", "RB2", "G7"),
            "RB3: the open stack's top card goes to a foundation; foundation cards never come back"),
        "ace-on-open": (
            lambda s: s.piles["r"].top is not None and s.piles["r"].top.rank == ACE,
            lambda s: ["s>r", "t1>r", "t2>r", "t3>r"], rulings("G9", "RB3", "G7"),
            "G9: an ace on top of the open stack takes nothing (no wrap)"),
        "drawn-fits-foundation": (
            lambda s: first("s", "f")(s) is not None and len(s.piles["s"]) < 60,
            lambda s: ["s>t3"], rulings("G4", "RB4", "G11"),
            "G4: the drawn card fits a foundation; it may go onto an auxiliary stack all the same"),
        "king-to-ace": (
            lambda s: any((top := s.piles[f].top) is not None and top.rank == KING for f in FOUNDATIONS)
            and len(s.piles["s"]) < 64,
            lambda s: [], rulings("RB2", "G8"),
            "RB2: a foundation topped by a king takes an ace next (K-A wrap)"),
    }
    for name, (predicate, moves, ids, description) in mined.items():
        state = mine(kit, predicate, steps=120)
        if state is None:
            raise AssertionError(f"rainbow: no seeded playout reaches {name}")
        scripted(kit, name, state, [m for m in moves(state) if m is not None], rulings=ids,
                 description=description, then=16)
