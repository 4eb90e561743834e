"""Eleven scenarios (rulings EL1..EL4, G10, G11, G13).

Deals and long playouts (generic) cover the deal (EL1) and ordinary play.
Here: constructed positions for the pairing rule (EL2, EL3: every pair adding
up to 11, pairs adding up to 10 or 12, picture cards that never pair, an ace
with a picture card, trios that are not J+Q+K, three number cards adding up to
11, the reversed spelling, the discard pile's top), for the refill (EL2: slots
filled lowest number first, after a pair and after a trio, a stock that runs
out in the middle of a refill), for the win (EL4: an exhausted stock with
cards left is not won) and near-won positions that end in a win.

Every position is one that play can reach: while the stock has cards, all
eleven slots hold one (the refill is an effect, G11).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card, parse_card
from solitaire.state import State

from ..build import Kit
from ..builder import Rng, search_win
from .common import scripted
from .seed001 import rulings

SLOTS = 11
PAIRS = ((1, 10), (2, 9), (3, 8), (4, 7), (5, 6))
PICTURES = (11, 12, 13)

DEAL_RULINGS = rulings("EL1", "G3")  # the rulings of the deal, named by the generic deal traces


def position(kit: Kit, slots: dict[int, str], stock: Sequence[str] = (), top: str = "") -> State:
    """A position: ``slots`` maps slots 1..11 to cards, ``stock`` lists the stock from its
    top card down; every other card is on the discard pile, ``top`` (if given) on top."""
    placed = [parse_card(c) for c in slots.values()] + [parse_card(c) for c in stock]
    if len(set(placed)) != len(placed):
        raise ValueError("an Eleven position repeats a card")
    if stock and len(slots) < SLOTS:
        raise ValueError("an Eleven position with a stock has every slot filled")
    rest = sorted((card for card in ONE_PACK.pack() if card not in placed), key=lambda c: (c.rank, c.suit))
    if top:
        rest.remove(parse_card(top))
        rest.append(parse_card(top))
    lines = [f"t{index}: {card}" for index, card in sorted(slots.items())]
    lines.append("d: " + " ".join(str(c) for c in rest))
    lines.append("s: " + " ".join(str(c).lower() for c in reversed(stock)))
    return kit.position("\n".join(lines))


def random_groups(rng: Rng, cards: int) -> list[Card]:
    """About ``cards`` cards made of whole removals (pairs adding up to 11, J+Q+K trios), shuffled."""
    pack = ONE_PACK.pack()
    rng.shuffle(pack)
    kept: list[Card] = []
    while len(kept) < cards:
        if rng.chance(0.25):
            wanted: tuple[int, ...] = PICTURES
        else:
            wanted = rng.choice(PAIRS)
        group = []
        for rank in wanted:
            found = next((c for c in pack if c.rank == rank and c not in kept and c not in group), None)
            if found is None:
                break
            group.append(found)
        if len(group) == len(wanted):
            kept += group
    rng.shuffle(kept)
    return kept


def near_won(kit: Kit, name: str, cards: int, description: str, public: bool = False) -> None:
    """A random near-won position that search can win; the trace plays the winning line."""
    for attempt in range(60):
        rng = Rng(f"{name}/{attempt}")
        kept = random_groups(rng, cards)
        if len(kept) > SLOTS:
            slots = {i: str(c) for i, c in enumerate(kept[:SLOTS], 1)}
            stock = [str(c) for c in kept[SLOTS:]]
        else:
            places = rng.sample(list(range(1, SLOTS + 1)), len(kept))
            slots, stock = {p: str(c) for p, c in zip(places, kept, strict=True)}, []
        state = position(kit, slots, stock)
        line = search_win(kit.variation, state, max_nodes=6000)
        if line:
            scripted(kit, name, state, line, rulings=rulings("EL2", "EL3", "EL4", "G10", "G11"),
                     description=description, public=public, expect_legal=True)
            return
    raise AssertionError(f"eleven: no winnable position for {name}")


def build(kit: Kit) -> None:
    every_pair = dict(enumerate("AC 2D 3H 4S 5C TD 9H 8S 7C 6D JH".split(), 1))
    scripted(kit, "every-pair", position(kit, every_pair, "QH KH 5D 6S 5H 5S QC 2C 9D".split()),
             ["t1+t6", "t1+t2", "t2+t7", "t3+t8", "t4+t9", "t5+t10", "t2+t3", "t3+t8", "t1+t11",
              "t6+t11", "t7+t2", "t2+t7", "t1+t6+t11"],
             rulings=rulings("EL2", "EL3", "G10", "G11"), then=10,
             description="EL2: A+T, 2+9, 3+8, 4+7, 5+6 each pair, suits ignored; each removal refills "
             "its two slots, the lower-numbered first (QH to t1, KH to t6); the stock runs out "
             "at the fifth pair, so t10 stays empty; 5+5 does not pair, nor Q+J or K+J; the reversed "
             "spelling t7+t2 is refused, t2+t7 goes; J+Q+K goes; then a seeded playout")

    pictures = dict(enumerate("JC QD KH AS JD 8C TH KC 2S QS 5H".split(), 1))
    scripted(kit, "pictures-never-pair", position(kit, pictures, "3C 4D 8H 7S 6C".split()),
             ["t1+t4", "t1+t2", "t2+t3", "t3+t8", "t1+t5", "t1+t5+t10", "t1+t2+t5", "t4+t6+t9",
              "t4+t5+t6", "t2+t3+t1", "t1+t2+t3", "t4+t7"],
             rulings=rulings("EL2", "EL3", "G10", "G11"), then=10,
             description="EL3: a jack with an ace (valued 10 and 1) does not pair, nor J+Q, Q+K, K+K or "
             "J+J; J+J+Q and J+Q+J are no trio; three number cards adding up to 11 (A+8+2) are no "
             "removal; a trio written out of order is refused; J+Q+K (t1+t2+t3) goes and refills "
             "three slots from the stock in number order; then a seeded playout")

    far_trio = dict(enumerate("JS 4C 7D 9D QC 8C 3S 6H 2H 5D KS".split(), 1))
    scripted(kit, "trio-far-apart", position(kit, far_trio, "AD TC".split()),
             ["t1+t5+t11", "t2+t3", "t4+t9"],
             rulings=rulings("EL2", "EL3", "G10", "G11"), then=8,
             description="EL2, G10: J+Q+K from t1, t5 and t11 go to d in that order (jack lowest); the "
             "stock's two cards refill t1 (AD) and t5 (TC), t11 stays empty; 4+7 pairs, and the "
             "stock is now empty, so t2 and t3 stay empty too; then play on")

    short = dict(enumerate("TS 6C 8D 3D 7H KD 4H AH QH 5S 9S".split(), 1))
    scripted(kit, "stock-runs-out", position(kit, short, ["2C"]),
             ["t1+t8", "t2+t10", "t3+t4", "t5+t7", "t4+t11", "t1+t11", "t6+t9"],
             rulings=rulings("EL2", "EL4", "G11", "G13"),
             description="EL2: a stock of one card: T+A empties t1 and t8, only t1 (the lower) takes "
             "the 2C, t8 stays empty; later removals refill nothing; K and Q are left without a "
             "jack: the game is lost, not won")

    discard_top = dict(enumerate("5C 9H 4C 8C 6H 2H TC 3C JC QC KC".split(), 1))
    state = position(kit, discard_top, "7C 6C AC".split(), top="KD")
    scripted(kit, "discard-pile-out-of-play", state,
             ["d+t9+t10", "d+t1", "t1+t5", "t9+t10+t11"],
             rulings=rulings("EL2", "G4", "G10"), then=10,
             description="EL2: cards on the discard pile are out of play: its top card (KD) never "
             "makes a trio with slot cards (d+t9+t10 refused); 5C+6H pairs, J+Q+K of the slots goes; "
             "then play on")

    ended = {3: "KD", 7: "QH"}
    scripted(kit, "exhausted-not-won", position(kit, ended),
             ["t3+t7", "t7+t3"], rulings=rulings("EL3", "EL4"),
             description="EL4: the stock is empty, a king and a queen are left: not won, and no "
             "removal is possible (no jack)")

    last = {2: "JH", 6: "KS", 9: "QD"}
    scripted(kit, "last-trio-wins", position(kit, last), ["t2+t9", "t2+t6+t9"],
             rulings=rulings("EL3", "EL4", "G10"),
             description="EL4: the last three cards are J+Q+K: a pair of them is refused, the trio "
             "wins the game")

    near_won(kit, "near-won-1", 6, "EL2-EL4: six cards left in the slots; the trace plays the win")
    near_won(kit, "near-won-2", 14, "EL2-EL4: eleven slots full and a short stock; the trace plays "
             "a winning line found by search")
    near_won(kit, "near-won-3", 20, "EL2-EL4: eleven slots full, nine stock cards; the trace plays "
             "a winning line found by search")
    near_won(kit, "near-won-4", 28, "EL2-EL4: eleven slots full, a long stock; the trace plays a "
             "winning line found by search")
    near_won(kit, "near-won-5", 34, "EL2-EL4: eleven slots full, a long stock; the trace plays a "
             "winning line found by search")
    near_won(kit, "near-won-6", 40, "EL2-EL4: eleven slots full, most of the pack in the stock; the "
             "trace plays a winning line found by search")
    near_won(kit, "public-near-won", 12, "EL2-EL4: eleven slots and a stock card or two; the trace "
             "plays a winning line", public=True)
