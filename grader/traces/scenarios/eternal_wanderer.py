"""Eternal Wanderer scenarios (rulings EW1..EW5).

Deals, playouts and a long playout that prefers ``rotate`` (generic) cover the
deal (EW1), plays between rows (EW2) and the first rotation (EW4). Here:
near-won positions built backwards from a won one (one row of all 52 cards,
its ranks climbing A..K four times, so every card lies on a neighbour),
played to the win (EW2, EW5), some with a row already rotated (EW4); rows of
exactly two and one cards, where ``rotate`` is legal and no longer legal
(EW4); a chosen row that refuses cards and other rows that can no longer be
rotated (EW4); dead rows (EW3); kings and aces as neighbours (EW2).
"""

from __future__ import annotations

from solitaire.cards import ACE, KING, ONE_PACK, SUITS, Card, parse_card
from solitaire.moves import card_move
from solitaire.state import State

from ..build import Kit
from ..builder import SCENARIO, Rng
from .common import mine, scripted
from .seed001 import rulings

ROWS = tuple(f"t{i}" for i in range(1, 8))

DEAL_RULINGS = rulings("EW1")  # the rulings of the deal, named by the generic deal traces


def _climbing(rng: Rng) -> list[Card]:
    """A..K four times; each rank's four suits in a random order, one per round."""
    rounds: list[list[Card]] = [[] for _ in range(4)]
    for rank in range(ACE, KING + 1):
        suits = list(SUITS)
        rng.shuffle(suits)
        for round_, suit in zip(rounds, suits, strict=True):
            round_.append(Card(rank, suit))
    return [card for round_ in rounds for card in round_]


def near_won(kit: Kit, name: str, pulls: int, *, home: str = "t1", rotate: bool = False,
             rulings_: list[str], description: str, public: bool = False) -> None:
    """Take ``pulls`` top cards off the won row ``home`` onto other rows; play them back.

    ``rotate``: the other row holding the most cards is the chosen (rotated) row."""
    rng = Rng(name)
    row = _climbing(rng)
    others = [r for r in ROWS if r != home]
    piles: dict[str, list[Card]] = {r: [] for r in ROWS}
    piles[home] = row
    line = []
    for _ in range(pulls):
        target = rng.choice(others)
        piles[target].append(piles[home].pop())
        line.append(card_move(target, home))
    rotated = 0
    if rotate:
        chosen = max(others, key=lambda r: len(piles[r]))
        if len(piles[chosen]) < 2:
            raise AssertionError(f"{name}: no other row holds two cards")
        rotated = int(chosen[1:])
    lines = [f"phase play rotated={rotated}"] + [f"{r}: " + " ".join(map(str, piles[r])) for r in ROWS]
    state = kit.position("\n".join(lines))
    builder = kit.trace(name, state=state, density=SCENARIO, rulings=rulings_, description=description)
    for move in reversed(line):
        if not builder.play(move):
            raise AssertionError(f"{name}: {move} is illegal")
    if not builder.won:
        raise AssertionError(f"{name}: not won at the end")
    kit.add(builder, public=public)


def _position(kit: Kit, rotated: int, fixed: dict[str, str], fill: tuple[str, ...]) -> State:
    """A position: the rows ``fixed`` as written, the rest of the pack spread over ``fill``."""
    given = {r: [parse_card(t) for t in text.split()] for r, text in fixed.items()}
    used = {card for cards in given.values() for card in cards}
    rest = [card for card in sorted(ONE_PACK.pack()) if card not in used]
    share = -(-len(rest) // len(fill))
    for index, row in enumerate(fill):
        given[row] = rest[index * share:(index + 1) * share]
    lines = [f"phase play rotated={rotated}"] + [
        f"{r}: " + " ".join(map(str, given.get(r, []))) for r in ROWS]
    return kit.position("\n".join(lines))


def build(kit: Kit) -> None:
    for index, pulls in enumerate((3, 6, 10, 16)):
        near_won(kit, f"near-won-{index + 1}", pulls, rulings_=rulings("EW2", "EW5"),
                 description=f"{pulls} cards off a won row onto the others; the trace plays them back, "
                 "each onto a neighbour rank (EW2), to the win (EW5)")
    near_won(kit, "near-won-home-t6", 8, home="t6", rulings_=rulings("EW5", "EW2"),
             description="EW5: the whole pack gathers in t6, not t1: any row may be the winning one")
    near_won(kit, "near-won-rotated", 12, rotate=True, rulings_=rulings("EW4", "EW2", "EW5"),
             description="EW4: one row was rotated earlier: it takes no card, but its top card plays "
             "back onto the winning row; EW5: the win")
    near_won(kit, "public-near-won", 5, rulings_=rulings("EW2", "EW3", "EW5"), public=True,
             description="5 cards off a won row onto the others (empty rows stay dead, EW3); the trace "
             "plays them back to the win")
    # hand-made positions: rows of two and one cards, a chosen row, a dead row
    two_and_one = _position(kit, 0, {"t3": "JD QH", "t4": "KS"}, ("t1", "t2"))
    scripted(kit, "rotate-two-cards", two_and_one,
             ["rotate t4", "rotate t3", "rotate t3", "rotate t1", "t3>t4", "t4>t3", "rotate t3", "t3>t5"],
             rulings=rulings("EW4", "EW2", "EW3"), then=20,
             description="EW4: a row of one card cannot be rotated (t4: KS); a row of two can (t3), and "
             "is then the chosen row: t1 can no longer be rotated, t3 takes no card (QH back on JD); "
             "once t3 is down to one card no rotate is legal; QH goes on KS (EW2); the empty t5 is "
             "dead (EW3)")
    chosen = _position(kit, 2, {"t2": "AH 2S 3C 4D 5H 6S 7C", "t4": "KH AS", "t6": "8D", "t7": "KS"},
                       ("t1", "t3", "t5"))
    scripted(kit, "chosen-row", chosen,
             ["t6>t2", "rotate t5", "t4>t7", "rotate t2", "t2>t7", "t2>t4", "rotate t2", "t7>t2"],
             rulings=rulings("EW4", "EW2"), then=30,
             description="EW4: t2 is the chosen row: 8D does not go on its 7C, other rows cannot be "
             "rotated, t2 can, and its top card (AH after the rotation) still plays onto KH (EW2: king "
             "and ace are neighbours; AS goes on KS)")
    # mined: a first rotate in a seeded playout, then rows that may no longer be rotated
    state = mine(kit, lambda s: s.counters.get("rotated", 0) != 0, steps=120, action_bias=0.3)
    if state is None:
        raise AssertionError("eternal_wanderer: no seeded playout rotates a row")
    scripted(kit, "after-first-rotate", state, [], rulings=rulings("EW4"), then=40,
             description="EW4: a row has been chosen; only it may be rotated, and it takes no cards")
    state = mine(kit, lambda s: any(not s.piles[r].cards for r in ROWS), steps=200, action_bias=0.05)
    if state is None:
        raise AssertionError("eternal_wanderer: no seeded playout empties a row")
    scripted(kit, "dead-row", state, [], rulings=rulings("EW3", "EW2"), then=40,
             description="EW3: an emptied row is dead: no card goes into it")
