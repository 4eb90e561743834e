"""Four Queens scenarios (rulings FQ1..FQ6, G3, G4, G5, G11).

Deals and long playouts (generic, both values of ``strict_phases``) cover the
deal (FQ1, G3, G4) and phase 1 (FQ2). Here: near-won positions in phase 3 that
end in a win, cards on the waste and in the stock, with two, one or no redeals
left (FQ4, FQ5, FQ6); the same without strict phases, with queen, five and six
slots emptied, so queens meet kings and jacks, and stacks are built beside empty
slots (FQ4 option); constructed turning points of the strict phases: a five
before the fourth queen, a card that fits a stack before the last base
(FQ2..FQ4); a drawn queen that cannot be discarded (FQ2, G11); a lost end with
the redeals used up (G5); positions mined from seeded playouts in each phase.
"""

from __future__ import annotations

from collections.abc import Mapping

from solitaire.cards import ACE, JACK, KING, QUEEN, SUITS, Card
from solitaire.piles import Pile
from solitaire.state import OptionValue, State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted, turn_up_stock
from .seed001 import rulings

QUEENS = ("f1", "f2", "f3", "f4")
FIVES = ("f5", "f6", "f7", "f8")
SIXES = ("f9", "f10", "f11", "f12")
FIVE_STACK = (5, 4, 3, 2, ACE, KING)
SIX_STACK = (6, 7, 8, 9, 10, JACK)
DEAL_RULINGS = rulings("FQ1", "G3", "G4")
OPEN = {"strict_phases": False}


def won_state(kit: Kit, rng: Rng, options: Mapping[str, OptionValue] | None = None,
              redeals: int = 2) -> State:
    """Every card placed: a queen on each queen slot, full five- and six-stacks, suits shuffled."""
    lines = [f"phase play redeals={redeals}"]
    for slots, ranks in ((QUEENS, (QUEEN,)), (FIVES, FIVE_STACK), (SIXES, SIX_STACK)):
        suits = list(SUITS)
        rng.shuffle(suits)
        for slot, suit in zip(slots, suits, strict=True):
            lines.append(f"{slot}: " + " ".join(str(Card(rank, suit)) for rank in ranks))
    return kit.position("\n".join(lines), options)


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A card pulled off a slot goes onto the waste or (face down) into the stock."""
    if rng.below(10) < 5:
        state.put("w", [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def to_waste(state: State, card: Card, rng: Rng) -> bool:
    """A scatter that leaves the stock empty: every pulled card goes onto the waste."""
    state.put("w", [card])
    return True


def emptied(state: State, slots: tuple[str, ...], rng: Rng) -> State:
    """``state`` with ``slots`` emptied completely, their cards scattered (stock top face up)."""
    for slot in slots:
        while state.piles[slot].cards:
            card = state.piles[slot].top
            state.take(slot)
            scatter(state, card, rng)  # type: ignore[arg-type]
    turn_up_stock(state)
    return state


def arranged(kit: Kit, placed: dict[str, list[Card]], stock_top: list[Card],
             options: Mapping[str, OptionValue], redeals: int = 2) -> State:
    """A position: ``placed`` on the slots, ``stock_top`` the next stock cards (drawn first
    first), every other card in the stock below them in pack order."""
    used = {card for cards in placed.values() for card in cards} | set(stock_top)
    rest = [c for c in kit.variation.deck.pack() if c not in used]
    stock = rest + list(reversed(stock_top))
    lines = [f"phase play redeals={redeals}", "s: " + " ".join(str(c).lower() for c in stock[:-1])
             + f" {stock[-1]}"]
    lines += [f"{slot}: " + " ".join(map(str, cards)) for slot, cards in placed.items()]
    return kit.position("\n".join(lines), options)


def build(kit: Kit) -> None:
    near = rulings("FQ4", "FQ5", "FQ6", "G4")
    for index, pulls in enumerate((4, 10, 18, 28)):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"fq-won-{index}")), scatter, pulls,
                 finish=turn_up_stock, rulings=near, attempts=14, max_nodes=6000,
                 description=f"phase 3: {pulls} cards off the stacks onto the waste and the stock (FQ4); "
                 "the trace plays a winning line found by search")
    for index, (pulls, redeals) in enumerate(((12, 1), (8, 0), (20, 0))):
        last = won_state(kit, Rng(f"fq-last-{index}"), redeals=redeals)
        near_won(kit, f"last-passes-{index + 1}", last, scatter, pulls, finish=turn_up_stock,
                 rulings=rulings("FQ5", "G5", "FQ4"), attempts=20,
                 max_nodes=6000, description=f"FQ5, G5: {redeals} redeal(s) left, {pulls} cards on the "
                 "waste and in the stock; the trace plays a winning line")
    for index, (slots, pulls) in enumerate(((QUEENS[:2], 8), (QUEENS + FIVES[:1], 10), (SIXES[:2], 6),
                                            (QUEENS[1:2] + FIVES[2:3] + SIXES[1:2], 14))):
        rng = Rng(f"fq-open-{index}")
        state = emptied(won_state(kit, rng, OPEN), slots, rng)
        near_won(kit, f"open-{index + 1}", state, scatter, pulls, finish=turn_up_stock,
                 rulings=rulings("FQ4", "FQ2", "FQ3"), attempts=14, max_nodes=6000,
                 description=f"FQ4 with strict_phases=false: {', '.join(slots)} emptied, {pulls} more cards "
                 "off; stacks build beside empty slots, a queen never goes on a king or a jack")
    near_won(kit, "public-near-won", won_state(kit, Rng("public")), scatter, 6, finish=turn_up_stock,
             rulings=rulings("FQ4", "FQ6"), public=True)

    # FQ2, FQ3 (strict): the fourth queen opens the five- and six-slots
    queens = {slot: [Card(QUEEN, suit)] for slot, suit in zip(QUEENS[:3], "CDH", strict=True)}
    state = arranged(kit, queens, [Card(5, "D"), Card(QUEEN, "S"), Card(6, "C")], {})
    scripted(kit, "fourth-queen", state, ["s>f5", "s>w", "s>w", "s>f4", "s>f9", "w>f6"],
             rulings=rulings("FQ2", "FQ3", "G11"), then=12,
             description="FQ3 (strict): a five waits for the fourth queen; a drawn queen cannot be "
             "discarded (FQ2); once placed, the six and the five from the waste take their slots")
    # FQ4 (strict): building waits for the last base
    placed = {slot: [Card(QUEEN, suit)] for slot, suit in zip(QUEENS, SUITS, strict=True)}
    placed |= {slot: [Card(5, suit)] for slot, suit in zip(FIVES, "HSCD", strict=True)}
    placed |= {slot: [Card(6, suit)] for slot, suit in zip(SIXES[:3], "DCS", strict=True)}
    state = arranged(kit, placed, [Card(4, "H"), Card(7, "D"), Card(6, "H"), Card(7, "H")], {})
    scripted(kit, "last-base", state, ["s>f5", "s>w", "s>f9", "s>w", "s>f12", "w>f9", "w>f5", "s>f12"],
             rulings=rulings("FQ4", "FQ3"), then=12,
             description="FQ4 (strict): a four and a seven fit their stacks but wait for the last six; "
             "once it is placed, they come from the waste")
    # FQ4 off: every slot open from the start, a stack built as soon as its base is placed
    opening = [Card(5, "S"), Card(4, "S"), Card(6, "H"), Card(QUEEN, "D"), Card(7, "H")]
    state = arranged(kit, {}, opening, OPEN)
    scripted(kit, "open-start", state, ["s>f7", "s>f7", "s>f11", "s>w", "s>f2", "s>f11"],
             rulings=rulings("FQ4", "FQ2"), then=12,
             description="FQ4 with strict_phases=false: a five, its four, a six are placed before any "
             "queen; a drawn queen still cannot be discarded (FQ2)")

    # FQ4 off, FQ6: the last queen comes after the stacks are full: it goes on no king or jack
    last_queen = won_state(kit, Rng("fq-queen-last"), OPEN)
    last_queen.put("s", last_queen.take("f4"))
    scripted(kit, "queen-last", last_queen, ["s>f9", "s>f5", "s>w", "s>f4"],
             rulings=rulings("FQ6", "FQ4", "FQ2"),
             description="FQ6 with strict_phases=false: every stack is full but a queen is still in the "
             "stock: not won; the queen goes neither on a jack nor on a king, and cannot be discarded")
    near_won(kit, "waste-only", won_state(kit, Rng("fq-waste"), redeals=1), to_waste, 14,
             rulings=rulings("G5", "FQ5"), attempts=14, max_nodes=6000,
             description="G5: the stock is exhausted with 14 cards on the waste and a redeal left: the "
             "waste is turned over, unshuffled, as the new stock")

    # G5: a lost end: the redeals used, the stock empty, the waste top fits nowhere
    lost = won_state(kit, Rng("fq-lost"), redeals=0)
    jack, ten = lost.take("f9"), lost.take("f9")
    lost.put("w", ten + jack)
    scripted(kit, "stuck", lost, ["redeal", "w>f9", "s>w"], rulings=rulings("G5", "FQ4", "FQ6"),
             description="G5: the stock is empty and both redeals are used: the jack on the waste does "
             "not follow a nine (FQ4); nothing is legal; not won (FQ6)")

    mined = {
        "queen-drawn": (lambda s: _drawn(s, QUEEN) and any(not s.piles[q].cards for q in QUEENS), {},
                        rulings("FQ2", "G11"), "FQ2: a queen is drawn: it must be placed, s>w is illegal"),
        "five-too-early": (lambda s: (_drawn(s, 5) or _drawn(s, 6))
                           and any(not s.piles[q].cards for q in QUEENS), {}, rulings("FQ2", "FQ3"),
                           "FQ2 (strict): a five or six is drawn before the "
                           "fourth queen: no slot takes it"),
        "phase-two": (lambda s: all(s.piles[q].cards for q in QUEENS) and not all(
            s.piles[f].cards for f in FIVES + SIXES) and len(s.piles["w"]) > 3, {}, rulings("FQ3", "FQ4"),
            "FQ3: queens placed, bases still missing: cards that fit a stack wait"),
        "second-pass": (lambda s: s.counters.get("redeals") == 1 and len(s.piles["s"]) > 10, {},
                        rulings("G5", "FQ5"), "G5: the second pass, one redeal left"),
        "open-early-build": (lambda s: any(len(s.piles[f]) > 1 for f in FIVES + SIXES) and not all(
            s.piles[q].cards for q in QUEENS), OPEN, rulings("FQ4"),
            "FQ4 with strict_phases=false: a stack is built while queen slots are still empty"),
    }
    for name, (predicate, options, ids, description) in mined.items():
        found = mine(kit, predicate, options=options, steps=200)
        if found is None:
            raise AssertionError(f"four_queens: no seeded playout reaches {name}")
        scripted(kit, name, found, [], rulings=ids, description=description, then=16)


def _drawn(state: State, rank: int) -> bool:
    """Whether the drawn card (the face-up top of the stock) has ``rank``."""
    top = state.piles["s"].top
    return top is not None and state.piles["s"].top_is_face_up and top.rank == rank
