"""Sultan scenarios (rulings SU1..SU6, G3, G4, G5, G11).

Deals and long playouts (generic, both values of ``divan_fill``) cover the
deal (SU1, G3, G4). Here: near-won positions that end in a win, cards in the
divan, on the waste and in the stock, with two, one or no redeals left (SU2,
SU3, SU5, SU6), in both fill modes; constructed deals where the ace of hearts
comes before every king, the two kings of hearts come first, and the second ace
of hearts meets the divan (SU1); the refill effect: several empty slots in
number order, from the waste when the stock is empty while a redeal remains
(SU3, SU4 tightened); player mode: the drawn card and the waste top fill empty
slots, a divan card never does, a slot never takes a second card (SU4); the
Sultan is never a source or a target, nothing goes on a queen (SU2); a redeal
with an empty waste (G5).
"""

from __future__ import annotations

from collections.abc import Mapping

from solitaire import engine
from solitaire.cards import ACE, KING, QUEEN, SUITS, Card, parse_card
from solitaire.piles import Pile
from solitaire.state import OptionValue, State

from ..build import Kit
from ..builder import PLAYOUT, Rng, playout
from .common import deck_with, near_won, scripted, turn_up_stock
from .seed001 import rulings

DIVAN = tuple(f"r{i}" for i in range(1, 7))
PLAYER = {"divan_fill": "player"}
DEAL_RULINGS = rulings("SU1", "G3", "G4")


def won_state(kit: Kit, rng: Rng, options: Mapping[str, OptionValue] | None = None,
              redeals: int = 2) -> State:
    """Every card home: seven kings (both packs, less the Sultan) in a random order
    on f1..f7 with A..Q of their suit, f8 the ace of hearts to the queen, the Sultan on f9."""
    kings = [suit for suit in SUITS for _ in range(2)]
    kings.remove("H")
    rng.shuffle(kings)
    lines = [f"phase play redeals={redeals}"]
    for index, suit in enumerate(kings, start=1):
        run = (KING, *range(ACE, QUEEN + 1))
        lines.append(f"f{index}: " + " ".join(str(Card(rank, suit)) for rank in run))
    lines.append("f8: " + " ".join(str(Card(rank, "H")) for rank in range(ACE, QUEEN + 1)))
    lines.append("f9: KH")
    return kit.position("\n".join(lines), options)


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A card pulled off a foundation fills the first empty divan slot, else goes onto
    the waste or (face down) into the stock: an automatic-mode position, settled."""
    empty = [slot for slot in DIVAN if not state.piles[slot].cards]
    if empty:
        state.put(empty[0], [card])
    elif rng.below(10) < 5:
        state.put("w", [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def player_scatter(state: State, card: Card, rng: Rng) -> bool:
    """Player mode: a pulled card goes into a random empty slot, onto the waste or into the stock."""
    empty = [slot for slot in DIVAN if not state.piles[slot].cards]
    roll = rng.below(10)
    if empty and roll < 3:
        state.put(rng.choice(empty), [card])
    elif roll < 6:
        state.put("w", [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def to_divan_and_waste(state: State, card: Card, rng: Rng) -> bool:
    """The stock left empty: the divan first, then the waste."""
    empty = [slot for slot in DIVAN if not state.piles[slot].cards]
    state.put(empty[0] if empty else "w", [card])
    return True


def pulled(kit: Kit, name: str, divan: dict[str, str], stock: str, waste: str,
           options: Mapping[str, OptionValue] | None = None, redeals: int = 2) -> State:
    """The won state with foundation top cards moved, each card taken from the first
    foundation it tops: ``divan`` maps a slot to its card; ``stock`` lists the stock
    (drawn first first), ``waste`` the waste (top last)."""
    state = won_state(kit, Rng(name), options, redeals)
    slots = {slot: parse_card(text) for slot, text in divan.items()}
    drawn = [parse_card(text) for text in stock.split()]
    discarded = [parse_card(text) for text in waste.split()]
    placed = [*slots.values(), *drawn, *discarded]
    for card in placed:
        for foundation in kit.variation.piles("foundation"):
            if state.piles[foundation].top == card and len(state.piles[foundation]) > 1:
                state.take(foundation)
                break
        else:
            raise AssertionError(f"{name}: {card} is no foundation top")
    for slot, card in slots.items():
        state.put(slot, [card])
    state.put("w", discarded)
    state.set_pile("s", Pile(tuple(reversed(drawn)), len(drawn)))
    turn_up_stock(state)
    return state


def home(kit: Kit, state: State, source: str) -> str:
    """The move of ``source``'s top card to a foundation that takes it (the first one)."""
    for move in engine.legal_moves(kit.variation, state):
        if move.kind == "move" and move.source == source and move.target.startswith("f"):
            return str(move)
    raise AssertionError(f"{source}'s card fits no foundation")


def build(kit: Kit) -> None:
    near = rulings("SU2", "SU3", "SU4", "SU6", "G4")
    for index, (pulls, redeals) in enumerate(((5, 2), (10, 2), (16, 1), (24, 2))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"su-won-{index}"), redeals=redeals),
                 scatter, pulls, finish=turn_up_stock, rulings=near, attempts=14, max_nodes=6000,
                 description=f"{pulls} cards off the foundations into the divan, the waste and the stock, "
                 f"{redeals} redeal(s) left; the trace plays a winning line found by search")
    for index, (pulls, redeals) in enumerate(((12, 1), (9, 0), (18, 0))):
        near_won(kit, f"last-passes-{index + 1}", won_state(kit, Rng(f"su-last-{index}"), redeals=redeals),
                 scatter, pulls, finish=turn_up_stock, rulings=rulings("SU5", "G5", "SU4"), attempts=20,
                 max_nodes=6000, description=f"SU5, G5: {redeals} redeal(s) left, {pulls} cards in the "
                 "divan, on the waste and in the stock; the trace plays a winning line")
    for index, pulls in enumerate((6, 12, 20)):
        near_won(kit, f"player-{index + 1}", won_state(kit, Rng(f"su-player-{index}"), PLAYER),
                 player_scatter, pulls, finish=turn_up_stock, rulings=rulings("SU4", "SU3", "SU2"),
                 attempts=14, max_nodes=6000, description=f"SU4 with divan_fill=player: {pulls} cards off "
                 "the foundations, slots left empty; the trace plays a winning line")
    near_won(kit, "waste-only", won_state(kit, Rng("su-waste-only"), redeals=1), to_divan_and_waste, 14,
             rulings=rulings("SU3", "SU4", "G5"), attempts=14, max_nodes=6000,
             description="SU3 (tightened): the stock is empty, a redeal remains; an emptied slot is "
             "refilled from the waste top at once")
    near_won(kit, "public-near-won", won_state(kit, Rng("public")), scatter, 7, finish=turn_up_stock,
             rulings=rulings("SU2", "SU6"), public=True)

    # SU1: special deals
    hearts_ace, hearts_king = Card(ACE, "H"), Card(KING, "H")
    fronts = {
        "deal-ace-first": ([hearts_ace, hearts_ace, Card(2, "H")],
                           "the two aces of hearts come first: the first goes to f8, the second "
                           "to the divan"),
        "deal-kings-of-hearts-first": ([hearts_king, hearts_king, Card(KING, "S"), Card(5, "D")],
                                       "both kings of hearts come first: the first is the Sultan, the "
                                       "second goes to f1"),
        "deal-kings-late": ([Card(r, s) for s in "CD" for r in (2, 3, 4, 5)],
                            "no king in the first eight cards: the divan is the first six cards"),
    }
    for name, (front, what) in fronts.items():
        for options, tag in (({}, ""), (PLAYER, "-player")):
            builder = kit.trace(f"{name}{tag}", cards=deck_with(kit.variation, 41, front), options=options,
                                rulings=rulings("SU1", "G3"), density=PLAYOUT, description=f"SU1: {what}")
            playout(builder, 16)
            kit.add(builder)

    # SU2: nothing on a queen, never the Sultan; SU4: no divan-to-divan move
    state = pulled(kit, "su-queen", {"r1": "QS", "r2": "QH", "r3": "JH"}, "QC", "QD", redeals=0)
    scripted(kit, "queens-and-sultan", state,
             ["r1>f9", "r3>f9", "f9>w", "r1>r2", "r2>f8", "r3>f8", "r2>f8", "w>f1", "s>f9", "f9>r3"],
             rulings=rulings("SU2", "SU4", "SU6"), then=8,
             description="SU2: a queen may not go before its jack, the Sultan takes nothing and never "
             "moves; SU4: a divan card never goes onto another slot")
    # SU4 tightened: several empty slots fill in number order, the stock first, then the waste
    state = pulled(kit, "su-order", {"r3": "QS", "r5": "QC"}, "QD JD", "JS JC QH", redeals=1)
    scripted(kit, "fill-order", state, ["s>w"], rulings=rulings("SU4", "SU3"), then=20,
             description="SU4: a constructed position with four empty slots: after a move they "
             "fill in number order, from the stock while it lasts, then from the waste")
    # SU4 player mode: fills by the player only, from the drawn card or the waste top
    state = pulled(kit, "su-player-fill", {"r2": "QS"}, "QD JD", "QC JC", PLAYER, redeals=1)
    scripted(kit, "player-fill", state,
             ["r2>r1", "s>r1", "s>r1", "w>r1", "w>r3", "r1>r2", "s>w", "s>r2", "redeal", "s>r4"],
             rulings=rulings("SU4", "G5"), then=20,
             description="SU4 with divan_fill=player: the drawn card and the waste top fill empty slots, "
             "one card a slot; a divan card never moves to another slot; nothing fills by itself")
    # G5: a redeal with an empty waste uses up a redeal; then no more redeals
    state = pulled(kit, "su-empty-waste", {"r1": "QS", "r2": "JS"}, "", "", PLAYER, redeals=2)
    scripted(kit, "redeal-empty-waste", state, ["redeal", "redeal", "redeal", home(kit, state, "r2")],
             rulings=rulings("G5", "SU5"), then=6,
             description="G5: with the stock and the waste empty, redeal is still legal while redeals "
             "remain, and uses one up")
    # G11 in automatic mode: the refill happens after a redeal too
    state = pulled(kit, "su-redeal-fill", {"r1": "QS", "r2": "QC", "r3": "JC", "r4": "QD", "r5": "QH",
                                            "r6": "JS"}, "", "JD TD", redeals=2)
    scripted(kit, "redeal-then-play", state, ["redeal", home(kit, state, "r6"), "s>w", "redeal", "redeal"],
             rulings=rulings("SU4", "G5", "G11"), then=10,
             description="SU4: after a redeal the divan is still full; a played divan card is replaced "
             "by the new drawn card")
