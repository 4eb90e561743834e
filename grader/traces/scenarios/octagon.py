"""Octagon scenarios (rulings OC1..OC7, G4, G5, G7, G9, option ``corner_suit``).

Deals and long playouts (generic, both values of ``corner_suit``) cover the
deal (OC1, G3). Here: near-won positions that end in a win, with cards on the
corners, the waste and the stock and each number of redeals left, with either
value of ``corner_suit`` (OC2, OC3, OC6, OC7); a corner emptied while the stock
holds fewer than five cards (OC5); positions mined from seeded playouts: a
corner emptied and refilled, a foundation top back onto a corner (OC4, and the
ace that may not), corner to corner, the drawn card and the waste top onto a
corner, each redeal and none left (OC6, G5), an empty corner refilled after a
redeal (OC5).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
CORNERS = tuple(f"t{i}" for i in range(1, 5))
DISCARD, REDEAL = card_move("s", "w"), action("redeal")
ANY_SUIT = {"corner_suit": False}

DEAL_RULINGS = rulings("OC1", "G3", "G7")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng, redeals: int, options: dict[str, Any] | None = None) -> State:
    """Every card on the foundations, each an ace-to-king run of one suit, with ``redeals`` left."""
    suits = list(SUITS) * 2
    rng.shuffle(suits)
    lines = [f"phase play redeals={redeals}"]
    for foundation, suit in zip(FOUNDATIONS, suits, strict=True):
        lines.append(f"{foundation}: " + " ".join(str(Card(rank, suit)) for rank in range(ACE, KING + 1)))
    return kit.position("\n".join(lines), options or {})


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A pulled card fills an empty corner first, else goes onto a corner (mostly), the waste or the stock."""
    empty = [corner for corner in CORNERS if state.is_empty(corner)]
    roll = rng.below(10)
    if empty or roll < 5:
        state.put(empty[0] if empty else rng.choice(CORNERS), [card])
    elif roll < 7:
        state.put("w", [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def _legal(kit: Kit, state: State, test: Callable[[Move], bool]) -> Move | None:
    return next((m for m in engine.legal_moves(kit.variation, state) if test(m)), None)


def short_refill(kit: Kit) -> State:
    """Kings off seven foundations: one on each corner, three in the stock; t1's king fits f1."""
    state = won_state(kit, Rng("octagon-short"), 0)
    for foundation, corner in zip(FOUNDATIONS, CORNERS, strict=False):
        state.put(corner, state.take(foundation))
    for foundation in FOUNDATIONS[4:7]:
        state.put("s", state.take(foundation), face_up=False)
    turn_up_stock(state)
    return state


def empty_corner(kit: Kit) -> State:
    """Kings off the foundations: three on t2..t4, five on the waste; t1 and the stock empty."""
    state = won_state(kit, Rng("octagon-empty-corner"), 1)
    for foundation, corner in zip(FOUNDATIONS, CORNERS[1:], strict=False):
        state.put(corner, state.take(foundation))
    for foundation in FOUNDATIONS[3:]:
        state.put("w", state.take(foundation))
    return state


def build(kit: Kit) -> None:
    for index, (pulls, redeals) in enumerate(((4, 0), (9, 2), (15, 1), (24, 0), (32, 2))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"octagon-won-{index}"), redeals),
                 scatter, pulls, finish=turn_up_stock, neutral=DISCARD,
                 rulings=rulings("OC2", "OC3", "OC6", "OC7"), attempts=16, max_nodes=6000,
                 description=f"{pulls} cards off the foundations onto the corners, the waste and the stock, "
                 f"{redeals} redeals left; the trace plays a winning line found by search")
    for index, pulls in enumerate((8, 20)):
        near_won(kit, f"any-suit-{index + 1}", won_state(kit, Rng(f"octagon-any-{index}"), 1, ANY_SUIT),
                 scatter, pulls, finish=turn_up_stock, neutral=DISCARD, rulings=rulings("OC3", "OC2"),
                 attempts=16, max_nodes=6000,
                 description=f"OC3 with corner_suit=false: corners build down regardless of suit; {pulls} "
                 "cards off the foundations; the trace plays a winning line")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 1), scatter, 6, finish=turn_up_stock,
             neutral=DISCARD, rulings=rulings("OC2", "OC3"), public=True)
    scripted(kit, "refill-short", short_refill(kit), ["t1>f1"], rulings=rulings("OC5"), then=10,
             description="OC5: a corner is emptied while the stock holds three cards: it takes all three, "
             "closed")

    def first(source: str, target: str) -> Callable[[State], Move | None]:
        return lambda s: _legal(kit, s, lambda m: m.kind == "move" and (m.source or "").startswith(source)
                                and (m.target or "").startswith(target))

    def lone_ace(state: State) -> str:
        return next((f for f in FOUNDATIONS if len(state.piles[f]) == 1), "f1")

    Mined = tuple[Callable[[State], bool], Callable[[State], list[Move | str | None]], int, list[str], str]
    mined: dict[str, Mined] = {
        "corner-refilled": (
            lambda s: len(s.piles["s"]) >= 5 and any(
                # t=t binds this corner; mypy cannot infer such a lambda (python/mypy#15459)
                len(s.piles[t]) == 1
                and _legal(kit, s, lambda m, t=t: m.kind == "move" and m.source == t)  # type: ignore[misc]
                for t in CORNERS),
            lambda s: [next(m for t in CORNERS if len(s.piles[t]) == 1
                            for m in engine.legal_moves(kit.variation, s)
                            if m.kind == "move" and m.source == t)], 400, rulings("OC5", "G7"),
            "OC5: a corner's last card leaves; the corner takes the next five stock cards at once, closed"),
        "closed-card-turns-up": (
            lambda s: any(s.piles[t].down > 0 and len(s.piles[t]) - s.piles[t].down == 1
                          and first(t, "")(s) is not None for t in CORNERS),
            lambda s: [next(first(t, "")(s) for t in CORNERS if s.piles[t].down > 0
                            and len(s.piles[t]) - s.piles[t].down == 1 and first(t, "")(s) is not None)],
            250, rulings("G7", "OC3"), "G7: a corner's top card leaves; the closed card under it turns up"),
        "foundation-to-corner": (
            lambda s: first("f", "t")(s) is not None,
            lambda s: [first("f", "t")(s), f"{lone_ace(s)}>t1", "f1>f2"], 600, rulings("OC4"),
            "OC4: a foundation's top card goes back onto a corner; never the ace, never to another "
            "foundation"),
        "corner-to-corner": (
            lambda s: first("t", "t")(s) is not None,
            lambda s: [first("t", "t")(s)], 400, rulings("OC3", "G9"),
            "OC3: a corner's top card goes onto another corner, one rank lower"),
        "waste-to-corner": (
            lambda s: first("w", "t")(s) is not None,
            lambda s: [first("w", "t")(s)], 400, rulings("OC3", "G4"),
            "OC3: the waste top goes onto a corner, one rank lower"),
        "drawn-to-corner": (
            lambda s: first("s", "t")(s) is not None,
            lambda s: [first("s", "t")(s), "t1>s", "w>s"], 400, rulings("OC3", "G4"),
            "OC3: the drawn card goes onto a corner, one rank lower; nothing goes to the stock"),
        "first-redeal": (
            lambda s: s.is_empty("s") and s.counters.get("redeals") == 2,
            lambda s: [REDEAL], 900, rulings("OC6", "G5"),
            "OC6, G5: the stock is empty: a redeal turns the waste over unshuffled"),
        "last-redeal": (
            lambda s: s.is_empty("s") and s.counters.get("redeals") == 1,
            lambda s: [REDEAL], 2000, rulings("OC6", "G5"), "OC6: the second and last redeal"),
        "no-redeal-left": (
            lambda s: s.is_empty("s") and s.counters.get("redeals") == 0,
            lambda s: [REDEAL, DISCARD], 3000, rulings("OC6", "G5"),
            "OC6: three passes are used up: no redeal, no s>w"),
    }
    for name, (predicate, moves, steps, ids, description) in mined.items():
        state = mine(kit, predicate, steps=steps, action_bias=0.5)
        if state is None:
            raise AssertionError(f"octagon: no seeded playout reaches {name}")
        scripted(kit, name, state, [m for m in moves(state) if m is not None], rulings=ids,
                 description=description, then=16)
    state = mine(kit, lambda s: _legal(kit, s, lambda m: m.kind == "move" and m.target in CORNERS
                                       and s.piles[m.source].cards[-1].suit
                                       != s.piles[m.target].cards[-1].suit)
                 is not None, options=ANY_SUIT, steps=600, action_bias=0.5)
    if state is None:
        raise AssertionError("octagon: no seeded playout reaches any-suit-corner")
    scripted(kit, "any-suit-corner", state, [], rulings=rulings("OC3"), then=16,
             description="OC3 with corner_suit=false: a card of another suit onto a corner")
    scripted(kit, "empty-corner-redeal", empty_corner(kit), [REDEAL], rulings=rulings("OC5", "OC6"), then=10,
             description="OC5: an empty corner while the stock is empty stays empty; the redeal's effect "
             "refills it from the new stock")
