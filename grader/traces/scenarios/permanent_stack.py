"""Permanent Stack scenarios (rulings PS1..PS5, G4, G5, G7, G11).

Deals and long playouts are generic and cover the deal (PS1, G3, G7). Here:
near-won positions that end in a win, with cards on the stack, the waste and
the stock and each number of redeals left (PS2..PS5); positions mined from
seeded playouts where the stack's last card leaves and the stack is refilled
from the stock or, the stock being empty, from the waste (PS4); where a closed
card of the stack turns up (G7); where the waste top or the drawn card builds
on the stack (PS3); an ace on top of the stack (no wrap); each redeal, and the
stock empty with no redeal left (PS5, G5); illegal tries (stack to waste,
foundation to stack, a card one rank higher onto the stack).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted, turn_up_stock
from .seed001 import rulings

FOUNDATIONS = tuple(f"f{i}" for i in range(1, 9))
DISCARD, REDEAL = card_move("s", "w"), action("redeal")

DEAL_RULINGS = rulings("PS1", "G3", "G7")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng, redeals: int) -> State:
    """Every card on the foundations, each an ace-to-king run of one suit, with ``redeals`` left."""
    suits = list(SUITS) * 2
    rng.shuffle(suits)
    lines = [f"phase play redeals={redeals}"]
    for foundation, suit in zip(FOUNDATIONS, suits, strict=True):
        lines.append(f"{foundation}: " + " ".join(str(Card(rank, suit)) for rank in range(ACE, KING + 1)))
    return kit.position("\n".join(lines))


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A pulled card goes onto the stack (mostly), the waste, or under the stock's top."""
    roll = rng.below(10)
    if roll < 5 or state.is_empty("r"):
        state.put("r", [card])
    elif roll < 7:
        state.put("w", [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def _legal(kit: Kit, state: State, test: Callable[[Move], bool]) -> Move | None:
    return next((m for m in engine.legal_moves(kit.variation, state) if test(m)), None)


def _stack_leaves(kit: Kit, state: State, stock_empty: bool) -> bool:
    """The stack's last card may go to a foundation; the stock is (not) empty, a refill waits."""
    return (len(state.piles["r"]) == 1 and state.is_empty("s") == stock_empty
            and (not stock_empty or not state.is_empty("w"))
            and _legal(kit, state, lambda m: m.kind == "move" and m.source == "r") is not None)


def king_drawn(state: State) -> State:
    """The same position with a king of the stock swapped onto its top (the drawn card)."""
    state = state.copy()
    cards = list(state.piles["s"].cards)
    king = max(i for i, card in enumerate(cards) if card.rank == KING)
    cards[king], cards[-1] = cards[-1], cards[king]
    state.set_pile("s", Pile(tuple(cards), len(cards) - 1))
    return state


def build(kit: Kit) -> None:
    for index, (pulls, redeals) in enumerate(((4, 0), (9, 2), (15, 1), (24, 0), (32, 2))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"permanent-won-{index}"), redeals),
                 scatter, pulls, finish=turn_up_stock, neutral=DISCARD,
                 rulings=rulings("PS2", "PS3", "PS5"), attempts=16, max_nodes=6000,
                 description=f"{pulls} cards off the foundations onto the stack, the waste and the stock, "
                 f"{redeals} redeals left; the trace plays a winning line found by search")
    near_won(kit, "near-won-stripped", won_state(kit, Rng("permanent-stripped"), 1), scatter, 3,
             finish=turn_up_stock, neutral=DISCARD, rulings=rulings("PS2"), strip=1, attempts=20,
             max_nodes=6000, description="PS2: a foundation emptied completely: an ace must start it again")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 1), scatter, 6, finish=turn_up_stock,
             neutral=DISCARD, rulings=rulings("PS2", "PS3"), public=True)

    # G5 (tightened): the stock and the waste are empty, the rest on the stack; a redeal is still legal
    state = won_state(kit, Rng("permanent-empty-waste"), 1)
    for foundation in FOUNDATIONS[:3]:
        state.put("r", state.take(foundation))
    scripted(kit, "redeal-empty-waste", state, [REDEAL, DISCARD], rulings=rulings("G5", "PS5"), then=8,
             description="G5 (tightened): stock and waste empty, a redeal left: the redeal is legal all "
             "the same and uses up a pass")

    def first(kind: str, source: str, target: str = "") -> Callable[[State], Move | None]:
        return lambda s: _legal(kit, s, lambda m: m.kind == kind and m.source == source
                                and (not target or (m.target or "").startswith(target)))

    mined: dict[str, tuple[Callable[[State], bool], Callable[[State], Sequence[Move | str | None]], int,
                           list[str], str]]
    mined = {
        "refill-from-stock": (
            lambda s: _stack_leaves(kit, s, False),
            lambda s: [first("move", "r", "f")(s)], 250, rulings("PS4", "G4"),
            "PS4: the stack's last card goes to a foundation; the stack takes the stock's top card at "
            "once, face up, and the next stock card turns up"),
        "refill-from-waste": (
            lambda s: _stack_leaves(kit, s, True),
            lambda s: [first("move", "r", "f")(s)], 900, rulings("PS4"),
            "PS4: the stock is empty; the stack's last card goes to a foundation and the stack takes "
            "the waste's top card at once"),
        "closed-card-turns-up": (
            lambda s: s.piles["r"].down > 0 and len(s.piles["r"]) - s.piles["r"].down == 1
            and first("move", "r", "f")(s) is not None,
            lambda s: [first("move", "r", "f")(s)], 250, rulings("G7", "PS3"),
            "G7: the stack's top card goes to a foundation; the closed card under it turns face up"),
        "waste-onto-stack": (
            lambda s: first("move", "w", "r")(s) is not None,
            lambda s: [first("move", "w", "r")(s), "r>w", "r>s"], 400, rulings("PS3"),
            "PS3: the waste top goes onto the stack, one rank lower, suit ignored; the stack's top "
            "goes nowhere but a foundation"),
        "drawn-onto-stack": (
            lambda s: first("move", "s", "r")(s) is not None,
            lambda s: [first("move", "s", "r")(s)], 250, rulings("PS3", "G4"),
            "PS3: the drawn card goes onto the stack, one rank lower, suit ignored"),
        "ace-on-stack": (
            lambda s: s.piles["r"].top is not None and s.piles["r"].top.rank == ACE
            and any(card.rank == KING for card in s.piles["s"].cards),
            lambda s: ["s>r", "w>r"], 400, rulings("PS3", "G9"),
            "PS3, G9: an ace on top of the stack takes nothing, a drawn king neither (no wrap)"),
        "ace-drawn": (
            lambda s: s.piles["s"].top is not None and s.piles["s"].top.rank == ACE,
            lambda s: ["s>w"], 250, rulings("G11", "PS2", "G4"),
            "G11: a drawn ace waits for the player; it may go to the waste like any drawn card"),
        "foundation-to-stack": (
            lambda s: any(s.piles[f].cards for f in FOUNDATIONS) and s.piles["r"].top is not None,
            lambda s: [f"{next(f for f in FOUNDATIONS if s.piles[f].cards)}>r", "r>f1"], 250,
            rulings("PS3"), "cards never come back from a foundation"),
        "first-redeal": (
            lambda s: s.is_empty("s") and s.counters.get("redeals") == 2,
            lambda s: [REDEAL], 900, rulings("PS5", "G5"),
            "PS5, G5: the stock is empty: a redeal turns the waste over unshuffled, the first card "
            "discarded drawn first"),
        "last-redeal": (
            lambda s: s.is_empty("s") and s.counters.get("redeals") == 1,
            lambda s: [REDEAL], 2000, rulings("PS5", "G5"),
            "PS5: the second and last redeal"),
        "no-redeal-left": (
            lambda s: s.is_empty("s") and s.counters.get("redeals") == 0,
            lambda s: [REDEAL, DISCARD], 3000, rulings("PS5", "G5"),
            "PS5: three passes are used up: no redeal, no s>w"),
    }
    for name, (predicate, moves, steps, ids, description) in mined.items():
        found = mine(kit, predicate, steps=steps, action_bias=0.5)
        if found is None:
            raise AssertionError(f"permanent_stack: no seeded playout reaches {name}")
        if name == "ace-on-stack":
            found = king_drawn(found)
        scripted(kit, name, found, [m for m in moves(found) if m is not None], rulings=ids,
                 description=description, then=16)
