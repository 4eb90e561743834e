"""Metternikh (Doublets) scenarios (rulings MK1..MK7, G3, G4, G5, G11).

Deals and long playouts (generic) cover the deal (MK1, G3, G4). Here:
near-won positions that end in a win, cards on the horseshoe, on the waste
and in the stock, with the redeal left or used (MK2..MK7), each from a
different base value so that every step of the doubling cycle, the ones past
13 too, is taken; the refill effect from the waste top, and from the drawn
card when the waste is empty (MK5); a horseshoe top that would fit another
pile, an empty pile that takes nothing by a move (MK4, MK5); the drawn card
and the waste top built on the horseshoe (MK4); a redeal with an empty waste
and a lost end (G5, MK6).
"""

from __future__ import annotations

from solitaire import engine
from solitaire.cards import SUITS, Card, parse_card
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted, turn_up_stock
from .seed001 import rulings

HORSESHOE = tuple(f"t{i}" for i in range(1, 8))
DEAL_RULINGS = rulings("MK1", "G1", "G3", "G4")


def double(value: int) -> int:
    return 2 * value - 13 if 2 * value > 13 else 2 * value


def won_state(kit: Kit, rng: Rng, base: int, redeals: int = 1) -> State:
    """All 48 cards on f1 from a card of value ``base``, doubling, suits at random."""
    suits = {value: rng.sample(list(SUITS), 4) for value in range(1, 13)}
    cards, value = [], base
    for _ in range(48):
        cards.append(Card(value, suits[value].pop()))
        value = double(value)
    return kit.position(f"phase play redeals={redeals}\nf1: " + " ".join(map(str, cards)))


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A pulled card fills the first empty horseshoe pile, else lands on a random pile,
    the waste or the stock (face down): a settled position."""
    empty = [pile for pile in HORSESHOE if not state.piles[pile].cards]
    roll = rng.below(10)
    if empty:
        state.put(empty[0], [card])
    elif roll < 3:
        state.put(rng.choice(HORSESHOE), [card])
    elif roll < 6:
        state.put("w", [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def pulled(kit: Kit, name: str, base: int, piles: dict[str, str], stock: str, waste: str,
           redeals: int = 1) -> State:
    """The won state with its top cards moved: ``piles`` maps a horseshoe pile to its cards
    (bottom first), ``stock`` lists the stock (drawn first first), ``waste`` (top last).
    The cards named must be exactly the top cards of f1, in any order."""
    state = won_state(kit, Rng(name), base, redeals)
    named = {pile: [parse_card(t) for t in text.split()] for pile, text in piles.items()}
    drawn = [parse_card(t) for t in stock.split()]
    discarded = [parse_card(t) for t in waste.split()]
    moved = [c for cards in named.values() for c in cards] + drawn + discarded
    home = list(state.piles["f1"].cards)
    count = len(moved)
    if sorted(home[-count:]) != sorted(moved):
        raise AssertionError(f"{name}: {moved} are not f1's top {count} cards {home[-count:]}")
    state.set_pile("f1", Pile(home[:-count]))
    for pile, cards in named.items():
        state.put(pile, cards)
    state.put("w", discarded)
    state.set_pile("s", Pile(tuple(reversed(drawn)), len(drawn)))
    turn_up_stock(state)
    return state


def tops(kit: Kit, base: int, name: str, count: int) -> list[str]:
    """The top ``count`` cards of the won state from ``base`` (the last placed last)."""
    return [str(c) for c in won_state(kit, Rng(name), base).piles["f1"].cards[-count:]]


def build(kit: Kit) -> None:
    near = rulings("MK2", "MK3", "MK4", "MK5", "MK7")
    for index, (base, pulls, redeals) in enumerate(((1, 6, 1), (3, 10, 1), (7, 15, 1), (11, 20, 1),
                                                    (9, 12, 0), (5, 8, 0))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"mk-won-{index}"), base, redeals),
                 scatter, pulls, finish=turn_up_stock, rulings=near, attempts=16, max_nodes=6000,
                 description=f"base value {base}, {pulls} cards off f1 onto the horseshoe, the waste and "
                 f"the stock, {redeals} redeal(s) left; the trace plays a winning line found by search")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 2), scatter, 8, finish=turn_up_stock,
             rulings=rulings("MK2", "MK3"), public=True)

    # MK5: refill from the waste top first, then from the drawn card
    name = "mk-refill"
    a, b, c, d, e, f, g, h, i, j = tops(kit, 4, name, 10)
    state = pulled(kit, name, 4, {"t1": a, "t2": c, "t3": d, "t4": e, "t5": f, "t6": g, "t7": h},
                   f"{i} {j}", b)
    scripted(kit, "refill-waste-then-drawn", state, ["t1>f1", "t1>f1", "t2>f1"],
             rulings=rulings("MK5", "MK3", "G11"), then=12,
             description="MK5: the emptied t1 takes the waste top; emptied again with the waste empty, "
             "it takes the drawn card, and so does t2")
    # MK4: horseshoe tops never go onto another pile; the drawn card and the waste top may
    name = "mk-build"
    cards = tops(kit, 6, name, 10)
    state = pulled(kit, name, 6, {"t1": cards[0], "t2": cards[1], "t3": cards[3], "t4": cards[2],
                                  "t5": cards[5], "t6": cards[6], "t7": cards[8]},
                   f"{cards[4]}", f"{cards[9]} {cards[7]}")
    scripted(kit, "horseshoe-builds", state, ["t2>t1", "s>t3", "w>t6", "t1>f1", "t2>f1", "t4>f1", "t3>f1"],
             rulings=rulings("MK4", "MK2", "MK3"), then=12,
             description="MK4: a horseshoe top never goes onto another horseshoe pile; the drawn card "
             "and the waste top go onto a pile whose value they double")
    # G5, MK6, MK5: the stock and the waste run out; an empty pile takes nothing by a move
    name = "mk-stuck"
    cards = tops(kit, 8, name, 5)
    state = pulled(kit, name, 8, {"t1": cards[0], "t2": cards[2], "t3": cards[1], "t4": cards[3],
                                  "t5": cards[4]}, "", "")
    scripted(kit, "empty-waste-redeal", state,
             ["redeal", "redeal", "t5>t6", "t2>f1", "t1>f1", "t3>t1", "t3>f1"],
             rulings=rulings("G5", "MK6", "MK5", "MK4"), then=10,
             description="G5: with the stock and the waste empty the redeal is still legal once; empty "
             "horseshoe piles take nothing by a move (MK5)")
    # G4: the drawn card fits f1 and may be discarded all the same; mined from playouts
    drawn = mine(kit, lambda s: any(m.kind == "move" and m.source == "s" and m.target == "f1"
                                    for m in engine.legal_moves(kit.variation, s)), steps=80)
    if drawn is None:
        raise AssertionError("metternikh: no seeded playout draws a card that fits f1")
    scripted(kit, "drawn-fits", drawn, ["s>w", "w>f1"], rulings=rulings("G4", "MK3"), then=16,
             description="G4: the drawn card fits f1; it may be discarded and then played from the waste")
    second = mine(kit, lambda s: s.counters["redeals"] == 0 and len(s.piles["s"]) < 20, steps=400,
                  action_bias=0.6)
    if second is None:
        raise AssertionError("metternikh: no seeded playout reaches the second pass")
    scripted(kit, "second-pass", second, [], rulings=rulings("MK6", "G5"), then=40,
             description="MK6: the second pass, after the one redeal; no more redeals")
