"""Cotillion scenarios (rulings CT1..CT5, G3, G4, G5, G11).

Deals and long playouts (generic) cover the deal (CT1, G3, G4). Here:
near-won positions that end in a win, cards on the waste and in the stock,
with the redeal left or used (CT2..CT5); constructed turning points: the ace
then the king on a five, nothing on a finished king or queen, a card of the
wrong suit or kind, two matching foundations (CT2); a redeal with an empty
waste (G5); a deal whose fives and sixes all come first or all come last (CT1).
"""

from __future__ import annotations

from solitaire.cards import ACE, JACK, KING, QUEEN, SUITS, Card, parse_card
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import PLAYOUT, Rng, playout
from .common import deck_with, near_won, scripted, turn_up_stock
from .seed001 import rulings

FIVES = tuple(f"f{i}" for i in range(1, 9))
SIXES = tuple(f"f{i}" for i in range(9, 17))
FIVE_STACK = (5, 4, 3, 2, ACE, KING)
SIX_STACK = (6, 7, 8, 9, 10, JACK, QUEEN)
DEAL_RULINGS = rulings("CT1", "G3", "G4")


def won_state(kit: Kit, rng: Rng, redeals: int = 1) -> State:
    """Every card home: full five- and six-stacks, each suit twice of each kind, in random order."""
    lines = [f"phase play redeals={redeals}"]
    for piles, ranks in ((FIVES, FIVE_STACK), (SIXES, SIX_STACK)):
        suits = list(SUITS) * 2
        rng.shuffle(suits)
        for pile, suit in zip(piles, suits, strict=True):
            lines.append(f"{pile}: " + " ".join(str(Card(rank, suit)) for rank in ranks))
    return kit.position("\n".join(lines))


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A card pulled off a foundation goes onto the waste or (face down) into the stock."""
    if rng.below(10) < 5:
        state.put("w", [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def to_waste(state: State, card: Card, rng: Rng) -> bool:
    """A scatter that leaves the stock empty."""
    state.put("w", [card])
    return True


def pulled(kit: Kit, name: str, stock: str, waste: str, redeals: int = 1) -> State:
    """The won state with foundation tops moved, each card from the first foundation it
    tops: ``stock`` lists the stock (drawn first first), ``waste`` the waste (top last)."""
    state = won_state(kit, Rng(name), redeals)
    drawn = [parse_card(text) for text in stock.split()]
    discarded = [parse_card(text) for text in waste.split()]
    for card in drawn + discarded:
        for foundation in FIVES + SIXES:
            if state.piles[foundation].top == card and len(state.piles[foundation]) > 1:
                state.take(foundation)
                break
        else:
            raise AssertionError(f"{name}: {card} is no foundation top")
    state.put("w", discarded)
    state.set_pile("s", Pile(tuple(reversed(drawn)), len(drawn)))
    turn_up_stock(state)
    return state


def topped(state: State, piles: tuple[str, ...], card: str) -> str:
    """The first of ``piles`` whose top card is ``card``."""
    wanted = parse_card(card)
    return next(pile for pile in piles if state.piles[pile].top == wanted)


def build(kit: Kit) -> None:
    near = rulings("CT2", "CT3", "CT5", "G4", "G11")
    for index, (pulls, redeals) in enumerate(((5, 1), (10, 1), (18, 1), (28, 1), (12, 0), (20, 0))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"ct-won-{index}"), redeals), scatter,
                 pulls, finish=turn_up_stock, rulings=near, attempts=16, max_nodes=6000,
                 description=f"{pulls} cards off the foundations onto the waste and the stock, {redeals} "
                 "redeal(s) left; the trace plays a winning line found by search")
    near_won(kit, "waste-only", won_state(kit, Rng("ct-waste-only")), to_waste, 14,
             rulings=rulings("CT4", "G5"), attempts=14, max_nodes=6000,
             description="CT4: the stock is empty, every card on the waste: redeal, then play them")
    near_won(kit, "public-near-won", won_state(kit, Rng("public")), scatter, 6, finish=turn_up_stock,
             rulings=rulings("CT2", "CT5"), public=True)

    # CT2: down to the ace, then the king; nothing on a finished pile; suits and kinds
    state = pulled(kit, "ct-ends", "KS QH KD", "AS QD")
    spades, diamonds = topped(state, FIVES, "2S"), topped(state, FIVES, "AD")
    queens, hearts = topped(state, SIXES, "JD"), topped(state, SIXES, "JH")
    moves = [f"s>{spades}", f"w>{queens}", f"w>{spades}", f"s>{spades}", f"s>{FIVES[0]}", f"s>{hearts}",
             "s>w", f"w>{queens}", f"w>{hearts}", f"w>{diamonds}"]
    scripted(kit, "ends-and-kinds", state, moves, rulings=rulings("CT2", "G4"), then=14,
             description="CT2: a king waits for its ace; the ace then the king end a five-stack; a queen "
                         "ends a six-stack; nothing goes on a king or a queen; suit and kind matter")
    # G5: a redeal with an empty waste is legal once, and uses the redeal up
    state = pulled(kit, "ct-empty", "", "", redeals=1)
    scripted(kit, "redeal-empty-waste", state, ["redeal", "redeal"], rulings=rulings("G5", "CT4"),
             description="G5: the stock and the waste empty, the redeal left: redeal is legal once")
    # CT1: all the bases first, or all last
    bases = [Card(rank, suit) for rank in (5, 6) for suit in SUITS for _ in range(2)]
    for name, seed, front in (("deal-bases-first", 51, bases), ("deal-sixes-first", 52, bases[8:])):
        builder = kit.trace(name, cards=deck_with(kit.variation, seed, front), rulings=rulings("CT1", "G3"),
                            density=PLAYOUT, description=f"CT1: {name.removeprefix('deal-')}: the bases "
                            "are taken out in deck order, the stock keeps the others in deck order")
        playout(builder, 20)
        kit.add(builder)
