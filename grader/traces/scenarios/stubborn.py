"""Stubborn scenarios (rulings SB1..SB7, G3, G4, G7, G8, G9, G11).

Deals and long playouts are generic and cover the deal (SB1, G3, G7). Here:
the opening with illegal tries before it (SB2); near-won positions that end in
a win, for several base ranks (an ace, a king, middle ranks: the foundations
wrap K-A), with cards on the closed stack, the auxiliary stacks, the waste and
the stock (SB3, SB4); a foundation emptied completely (G8); the stack and the
stock both empty, so a space takes any available card or run (SB5); a short
stock refilling the stack with fewer than 15 cards (SB6); positions mined from
seeded playouts: the stack's last card leaving (refill from the stock, SB6), an
auxiliary stack emptied and refilled from the stack (SB5), a run moved between
auxiliary stacks (SB4), an ace on an auxiliary top (no wrap, G9), the drawn
card discarded though playable (G4), with illegal tries (onto ``r``, a run to a
foundation, foundation back).
"""

from __future__ import annotations

from collections.abc import Callable

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted
from .seed001 import rulings

FOUNDATIONS = tuple(f"f{i}" for i in range(1, 9))
STACKS = ("t1", "t2", "t3")
DISCARD = card_move("s", "w")

DEAL_RULINGS = rulings("SB1", "G3", "G7")  # the rulings of the deal, named by the generic deal traces


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


def settle(kit: Kit) -> Callable[[State], None]:
    """Close the stack and the stock (face down but the top card, G7, G4), then apply the
    refill effects (SB5, SB6) so the position has none pending."""

    def finish(state: State) -> None:
        for name in ("r", "s"):
            pile = state.piles[name]
            state.set_pile(name, Pile(pile.cards, len(pile.cards)))
        kit.variation.after_move(state, DISCARD)

    return finish


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A pulled card goes onto the stack, an auxiliary stack, the waste or under the stock's top."""
    roll = rng.below(10)
    if roll < 3:
        state.put("r", [card])
    elif roll < 6:
        state.put(rng.choice(STACKS), [card])
    elif roll < 8:
        state.put("w", [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def no_stack(state: State, card: Card, rng: Rng) -> bool:
    """A scatter that leaves the stack and the stock empty: spaces are open (SB5)."""
    if rng.below(10) < 5:
        state.put(rng.choice(STACKS), [card])
    else:
        state.put("w", [card])
    return True


def short_stock(state: State, card: Card, rng: Rng) -> bool:
    """A scatter that leaves the stack one card and puts the rest in the stock or the waste."""
    if state.is_empty("r"):
        state.put("r", [card])
    elif rng.below(10) < 6:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    else:
        state.put(rng.choice(("w",) + STACKS), [card])
    return True


def _legal(kit: Kit, state: State, test: Callable[[Move], bool]) -> Move | None:
    return next((m for m in engine.legal_moves(kit.variation, state) if test(m)), None)


def build(kit: Kit) -> None:
    finish = settle(kit)
    # the opening: nothing but an auxiliary card to f1; then the stack refills the space
    opening = engine.new_game(kit.variation, 11, {})
    scripted(kit, "opening", opening, ["s>w", "s>t1", "r>t1", "r>f1", "t1>t2", "t1>f2", "s>f1", "t2>f1",
                                       "t1>f1"],
             rulings=rulings("SB2", "SB5", "G8", "G11"), then=20,
             description="SB2, G11: before the opening only an auxiliary card to f1 is legal (no s>w, no "
             "other source, no other foundation); it fixes the base rank and the stack's top fills the "
             "space at once (SB5)")
    ids = rulings("SB3", "SB4", "SB5")
    for index, (pulls, base) in enumerate(((4, 7), (9, ACE), (15, KING), (22, 3), (30, 10))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"stubborn-won-{index}"), base), scatter,
                 pulls, finish=finish, rulings=ids, attempts=16, max_nodes=6000,
                 description=f"base rank {base}: {pulls} cards off the foundations onto the stack, the "
                 "auxiliary stacks, the waste and the stock; the trace plays a winning line found by search")
    near_won(kit, "near-won-stripped", won_state(kit, Rng("stubborn-stripped"), 5), scatter, 3,
             finish=finish, strip=1, rulings=rulings("G8", "SB3"), attempts=20, max_nodes=6000,
             description="G8: a foundation emptied completely: a card of the base rank, from any "
             "source, must start it again")
    near_won(kit, "spaces-open", won_state(kit, Rng("stubborn-spaces"), 8), no_stack, 14,
             finish=finish, rulings=rulings("SB5", "SB7"), attempts=20, max_nodes=6000,
             description="SB5: the stack and the stock are empty: a space takes any available card or "
             "run (the waste top, an auxiliary run)")
    near_won(kit, "short-refill", won_state(kit, Rng("stubborn-short"), 12), short_stock, 12,
             finish=finish, rulings=rulings("SB6", "SB5"), attempts=20, max_nodes=6000,
             description="SB6: the stack's last card leaves with fewer than 15 cards in the stock: the "
             "stack takes them all, closed")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 9), scatter, 6, finish=finish,
             rulings=ids, public=True)

    def first(test: Callable[[Move], bool]) -> Callable[[State], Move | None]:
        return lambda s: _legal(kit, s, test)

    def moving(source: str, target: str) -> Callable[[Move], bool]:
        return lambda m: m.kind == "move" and (m.source or "").startswith(source) \
            and (m.target or "").startswith(target)

    def run_move(m: Move) -> bool:
        return m.kind == "move" and (m.source or "").startswith("t") and ":" in str(m)

    mined: dict[str, tuple[Callable[[State], bool], Callable[[State], list[Move | str | None]],
                           list[str], str]]
    mined = {
        "stack-refill": (
            lambda s: len(s.piles["r"]) == 1 and first(moving("r", ""))(s) is not None,
            lambda s: [first(moving("r", ""))(s)], rulings("SB6", "G7"),
            "SB6: the stack's last card leaves; the stack takes the next 15 stock cards at once, "
            "closed, the first of them at the bottom"),
        "space-refilled": (
            lambda s: any(len(s.piles[t]) == 1 for t in STACKS)
            and first(lambda m: moving("t", "f")(m) and len(s.piles[m.source or ""]) == 1)(s) is not None,
            lambda s: [first(lambda m: moving("t", "f")(m) and len(s.piles[m.source or ""]) == 1)(s)],
            rulings("SB5", "G7"),
            "SB5: an auxiliary stack emptied by a move takes the stack's top card at once; the closed "
            "card under it turns up"),
        "run-between-stacks": (
            lambda s: first(run_move)(s) is not None,
            lambda s: [first(run_move)(s)], rulings("SB4"),
            "SB4: a run going down regardless of suit moves between auxiliary stacks as a unit"),
        "stack-top-onto-auxiliary": (
            lambda s: first(moving("r", "t"))(s) is not None,
            lambda s: [first(moving("r", "t"))(s), "t1>r", "w>r", "s>r"], rulings("SB4", "G9"),
            "SB4: the stack's top goes onto an auxiliary top one rank higher, suit ignored; nothing "
            "goes onto the stack"),
        "waste-onto-auxiliary": (
            lambda s: first(moving("w", "t"))(s) is not None,
            lambda s: [first(moving("w", "t"))(s), "f1>t1", "f2>w"], rulings("SB4", "SB3"),
            "SB4: the waste top goes onto an auxiliary top; foundation cards never come back"),
        "ace-on-auxiliary": (
            lambda s: any((top := s.piles[t].top) is not None and top.rank == ACE for t in STACKS),
            lambda s: [f"{src}>{t}" for t in STACKS
                       if (top := s.piles[t].top) is not None and top.rank == ACE
                       for src in ("s", "w", "r")], rulings("G9", "SB4"),
            "G9: an ace on top of an auxiliary stack takes nothing (no wrap)"),
        "drawn-fits-discarded": (
            lambda s: first(moving("s", ""))(s) is not None and len(s.piles["s"]) < 70,
            lambda s: ["s>w"], rulings("G4", "SB7"),
            "G4: the drawn card fits somewhere; it may be discarded to the waste all the same"),
        "run-to-foundation": (
            lambda s: any(len(s.piles[t]) >= 2 for t in STACKS),
            lambda s: [f"{t}:2>{f}" for t in STACKS if len(s.piles[t]) >= 2 for f in FOUNDATIONS[:2]],
            rulings("SB3"),
            "SB3: a foundation takes one card at a time, never a run"),
    }
    for name, (predicate, moves, ids_, description) in mined.items():
        state = mine(kit, predicate, steps=200)
        if state is None:
            raise AssertionError(f"stubborn: no seeded playout reaches {name}")
        scripted(kit, name, state, [m for m in moves(state) if m is not None], rulings=ids_,
                 description=description, then=16)
