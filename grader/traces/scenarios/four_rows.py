"""Four Rows scenarios (rulings FW1..FW3, G1, G10, G13).

Deals and long playouts (generic) cover the deal (FW1) and ordinary play.
Here: constructed positions for the pairing rule (FW2: equal ranks of either
colour, in columns far apart and of different heights, different ranks, the
reversed spelling, the discard pile's top card of a rank still in play), for
availability (a card freed in an upper row pairs at once, before the lowest
row is cleared), for emptied columns (FW2, G13: they take nothing), for the
win (FW3: a position with no pair left is lost, not won) and near-won
positions that end in a win.
"""

from __future__ import annotations

from collections import Counter

from solitaire.cards import STRIPPED_32, Card, parse_card
from solitaire.state import State

from ..build import Kit
from ..builder import Rng, search_win
from .common import scripted
from .seed001 import rulings

COLUMNS = 8

DEAL_RULINGS = rulings("FW1", "G1")  # the rulings of the deal, named by the generic deal traces


def position(kit: Kit, columns: dict[int, str], top: str = "") -> State:
    """A position: ``columns`` maps columns 1..8 to their cards, bottom first; every other
    card is on the discard pile in pairs of equal rank, ``top`` (if given) on top."""
    placed = [parse_card(c) for text in columns.values() for c in text.split()]
    rest = [card for card in STRIPPED_32.pack() if card not in placed]
    if len(set(placed)) != len(placed) or any(n % 2 for n in Counter(c.rank for c in rest).values()):
        raise ValueError("a Four Rows position repeats a card or leaves an odd rank on d")
    rest.sort(key=lambda card: (card.rank, card.suit))
    if top:
        card = parse_card(top)
        partner = next(c for c in rest if c.rank == card.rank and c != card)
        rest = [c for c in rest if c not in (card, partner)] + [partner, card]
    lines = [f"t{index}: {text}" for index, text in sorted(columns.items())]
    lines.append("d: " + " ".join(str(c) for c in rest))
    return kit.position("\n".join(lines))


def random_columns(rng: Rng, cards: int) -> dict[int, str]:
    """Whole ranks (pairs or all four) kept in play, spread at random over the columns,
    at most four cards to a column."""
    ranks = list(STRIPPED_32.ranks)
    rng.shuffle(ranks)
    kept: list[Card] = []
    for rank in ranks:
        if len(kept) >= cards:
            break
        suits = list("CDHS")
        rng.shuffle(suits)
        take = 2 if cards - len(kept) == 2 or rng.chance(0.5) else 4
        kept += [Card(rank, suit) for suit in suits[:take]]
    rng.shuffle(kept)
    columns: dict[int, list[str]] = {}
    for card in kept:
        free = [i for i in range(1, COLUMNS + 1) if len(columns.get(i, [])) < 4]
        columns.setdefault(rng.choice(free), []).append(str(card))
    return {i: " ".join(cards_) for i, cards_ in columns.items()}


def near_won(kit: Kit, name: str, cards: int, description: str, public: bool = False) -> None:
    """A random near-won position that search can win; the trace plays the winning line."""
    for attempt in range(60):
        rng = Rng(f"{name}/{attempt}")
        state = position(kit, random_columns(rng, cards))
        line = search_win(kit.variation, state, max_nodes=6000)
        if line:
            scripted(kit, name, state, line, rulings=rulings("FW1", "FW2", "FW3", "G10"),
                     description=description, public=public, expect_legal=True)
            return
    raise AssertionError(f"four_rows: no winnable position for {name}")


def build(kit: Kit) -> None:
    pairs = {1: "KS 8H", 2: "7D 8D", 3: "JH AC", 4: "9H QD KH", 5: "AS TD JS", 6: "KD 7H 8S",
             7: "QH TH 9C", 8: "KC 8C"}
    scripted(kit, "pairs-and-order", position(kit, pairs),
             ["t1+t2", "t1+t8", "t6+t8", "t6+t2", "t2+t6", "t1+t4", "t3+t5", "t6+t8", "t3>t4", "t3>d",
              "t4+t7"],
             rulings=rulings("FW1", "FW2", "G10"), then=12,
             description="FW2, G10: 8H (t1) and 8D (t2), two reds, pair; 8S and 8C too; 7D and 7H pair "
             "written t2+t6, never t6+t2; KS (t1) pairs with KH (t4) and KD with KC, whatever the "
             "columns' heights; different ranks do not pair; no card moves onto another or to d "
             "alone; then a seeded playout")

    freed = {1: "9S 8C", 2: "8D QC", 3: "9C JH", 4: "QH JD", 5: "KC 7C", 6: "7S AH", 7: "KS AD",
             8: "9D 9H"}
    scripted(kit, "freed-card-pairs-at-once", position(kit, freed),
             ["t2+t4", "t3+t4", "t2+t4", "t1+t2", "t5+t6", "t6+t7", "t5+t6", "t5+t7", "t1+t8",
              "t3+t8"],
             rulings=rulings("FW1", "FW2", "FW3", "G10"),
             description="FW1, FW2: a card freed in an upper row is available at once, whatever the "
             "lowest row still holds: JH+JD frees QH, which pairs with QC (t2+t4) while t5..t8 are "
             "untouched; the cards above become available one by one up each column; the game is won")

    discard = {1: "JS JC 9D", 2: "9H", 3: "KH", 4: "KD"}
    scripted(kit, "discard-pile-out-of-play", position(kit, discard, top="9C"),
             ["d+t1", "d+t2", "t3+t4", "t1+t2", "t1+t2", "t1+t3"],
             rulings=rulings("FW2", "FW3", "G13"),
             description="FW2: the discard pile's top card (9C) is out of play: it never pairs with "
             "a column's nine (d+t1, d+t2 refused); the nines and kings of the columns pair; then "
             "JC lies on JS in one column: no pair is left, the game is lost, not won")

    empty = {1: "TC", 3: "TS 7C", 5: "7D", 8: "AH AS"}
    scripted(kit, "empty-columns-stay-empty", position(kit, empty),
             ["t3>t2", "t1>t2", "t8>t7", "t3+t5", "t1+t3", "t8>t2", "t8>t3", "t8+t8"],
             rulings=rulings("FW2", "FW3", "G13"), then=4,
             description="FW2, G13: an empty column takes nothing (t3>t2, t1>t2, t8>t7 refused); "
             "7C+7D and TC+TS pair and empty t1, t3 and t5, which take nothing either; AH AS lie in "
             "one column and never pair (t8+t8 names it twice): the game is lost")

    near_won(kit, "near-won-1", 6, "FW2, FW3: six cards left; the trace plays the win")
    near_won(kit, "near-won-2", 12, "FW2, FW3: twelve cards left; the trace plays a winning line "
             "found by search")
    near_won(kit, "near-won-3", 18, "FW2, FW3: eighteen cards left; the trace plays a winning "
             "line found by search")
    near_won(kit, "near-won-4", 24, "FW2, FW3: twenty-four cards left; the trace plays a winning "
             "line found by search")
    near_won(kit, "public-near-won", 10, "FW2, FW3: ten cards left; the trace plays a winning line",
             public=True)
