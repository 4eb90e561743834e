"""Monte Carlo scenarios (rulings MC1..MC5, X1, X3, X9).

Deals and long playouts (generic) cover the deal (MC1) and ordinary play. Here:
constructed positions for the pairing rule (MC2, MC3: every kind of neighbour,
the row ends that do not wrap, equal ranks too far apart, a reversed spelling,
moves that are not pairs), for ``deal`` (MC4: gaps with and without stock, a
stock shorter than the gaps, gaps only at the end, a full grid, neighbours
changed by consolidation), for the win (MC5: an empty grid with stock left is
not won) and near-won positions that end in a win.

The two-letter ruling ids (``MC3``) are named in the descriptions; a trace's
``rulings`` keeps those the trace format admits (:func:`.seed001.rulings`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solitaire.cards import ONE_PACK, Card, parse_card
from solitaire.moves import action
from solitaire.state import State

from ..build import Kit
from ..builder import Rng, search_win
from .common import scripted
from .seed001 import rulings

DEAL = action("deal")
POSITIONS = 25

DEAL_RULINGS = rulings("MC1", "X3")  # the rulings of the deal, named by the generic deal traces


def position(kit: Kit, grid: dict[int, str], stock: Sequence[str] = ()) -> State:
    """A position: ``grid`` maps positions 1..25 to cards, ``stock`` lists the stock from
    its top card down; every other card is on the discard pile, in pairs of equal rank."""
    placed = [parse_card(c) for c in grid.values()] + [parse_card(c) for c in stock]
    rest = [card for card in ONE_PACK.pack() if card not in placed]
    if len(set(placed)) != len(placed) or any(n % 2 for n in Counter(c.rank for c in rest).values()):
        raise ValueError("a Monte Carlo position repeats a card or leaves an odd rank on d")
    rest.sort(key=lambda card: (card.rank, card.suit))
    lines = [f"t{index}: {card}" for index, card in sorted(grid.items())]
    lines.append("d: " + " ".join(str(c) for c in rest))
    lines.append("s: " + " ".join(str(c).lower() for c in reversed(stock)))
    return kit.position("\n".join(lines))


def random_position(rng: Rng, grid_cards: int, stock_cards: int) -> tuple[dict[int, str], list[str]]:
    """Whole ranks (pairs of pairs) kept in play, spread at random over the grid and the stock."""
    ranks = list(range(1, 14))
    rng.shuffle(ranks)
    kept: list[Card] = []
    for rank in ranks:
        if len(kept) >= grid_cards + stock_cards:
            break
        suits = list("CDHS")
        rng.shuffle(suits)
        take = 2 if grid_cards + stock_cards - len(kept) == 2 or rng.chance(0.5) else 4
        kept += [Card(rank, suit) for suit in suits[:take]]
    rng.shuffle(kept)
    on_grid, in_stock = kept[:grid_cards], kept[grid_cards:]
    slots = rng.sample(list(range(1, POSITIONS + 1)), len(on_grid))
    return {slot: str(card) for slot, card in zip(slots, on_grid, strict=True)}, [str(c) for c in in_stock]


def near_won(kit: Kit, name: str, grid_cards: int, stock_cards: int, description: str,
             public: bool = False) -> None:
    """A random near-won position that search can win; the trace plays the winning line."""
    for attempt in range(40):
        rng = Rng(f"{name}/{attempt}")
        grid, stock = random_position(rng, grid_cards, stock_cards)
        state = position(kit, grid, stock)
        line = search_win(kit.variation, state, max_nodes=6000)
        if line:
            scripted(kit, name, state, line, rulings=rulings("MC2", "MC3", "MC4", "MC5", "X9"),
                     description=description, public=public, expect_legal=True)
            return
    raise AssertionError(f"monte_carlo: no winnable position for {name}")


def build(kit: Kit) -> None:
    full = {i: c for i, c in enumerate(
        "7D 9C 4D 8H 8D 5S JD 6D 9S JC 5D KD 3C 2D JH 5H 7H 4H 2C AD 6S KC KH TH TS".split(), 1)}
    scripted(kit, "deal-full-grid", position(kit, full, "JS TD 8S QC 4S 6C 7C AS 5C AH KS 6H QS QH QD 9D "
                                                  "3D 3S AC 4C 2H 8C TC 3H 2S 9H 7S".split()),
             ["deal", "t5+t4", "t5+t6", "t4>t5", "t4>d", "t4+t5", "t10+t15", "t11+t16", "deal"],
             rulings=rulings("MC1", "MC2", "MC3", "MC4", "X1", "X9"), then=30,
             description="MC1-MC4, X9: the grid full: no deal; 8H 8D side by side pair (t4+t5), "
             "the reversed spelling is refused, t5/t6 (a row end) do not pair, no card moves alone; "
             "a gap and the stock: deal consolidates and fills; then a seeded playout")

    # every neighbour of t13 (the middle) holds a seven, as do four far positions
    neighbours = {7: "7C", 8: "7D", 9: "7H", 12: "7S"}
    far = {1: "KC", 3: "KD", 11: "QC", 15: "QD", 23: "QH", 25: "QS", 21: "KH", 5: "KS"}
    grid = {13: "5C", 14: "5D", 17: "5H", 18: "5S", 19: "9C", 2: "9D", **neighbours, **far}
    scripted(kit, "adjacency-middle", position(kit, grid, ["2C", "2D", "9H", "9S"]),
             ["t1+t3", "t11+t15", "t3+t5", "t21+t23", "t23+t25", "t2+t19", "t13+t19",
              "t8+t12", "t7+t9", "t13+t18", "t14+t17", "t1+t5", "t11+t21", "t15+t25", "deal"],
             rulings=rulings("MC2", "MC3", "X9"), then=12,
             description="MC2, MC3: equal ranks two columns or two rows apart do not pair (t1+t3, "
             "t11+t15, t21+t23); diagonal (t8+t12, t14+t17, t13+t18 ...) and straight neighbours do; "
             "cards of different ranks never pair; then deal and play on")

    wrap = {5: "4C", 6: "4D", 10: "JC", 11: "JD", 15: "8C", 16: "8D", 20: "TC", 21: "TD",
            1: "4H", 25: "4S", 4: "JH", 9: "JS", 14: "8H", 19: "8S", 24: "TH", 18: "TS"}
    scripted(kit, "row-ends-do-not-wrap", position(kit, wrap),
             ["t5+t6", "t10+t11", "t15+t16", "t20+t21", "t1+t25", "t1+t5", "t4+t5", "t9+t10",
              "t10+t15", "t14+t15", "t4+t9", "t19+t20", "t20+t24", "t18+t24", "deal", "t1+t2", "t2+t3"],
             rulings=rulings("MC3", "X9"), then=12,
             description="MC3: the end of a row and the start of the next (t5 t6, t10 t11 ...) are not "
             "adjacent, nor t1 and t25; after the cards are paired, deal consolidates")

    # consolidation brings new neighbours: 6C (t10) and 6D (t11) end up at t3 and t4
    moved = {1: "3C", 3: "3D", 10: "6C", 11: "6D", 17: "KC", 22: "KD"}
    scripted(kit, "consolidation-changes-neighbours", position(kit, moved, ["9C", "9D"]),
             ["t10+t11", "t1+t3", "t17+t22", "deal", "t1+t2", "t3+t4", "t5+t6", "deal", "t1+t2"],
             rulings=rulings("MC3", "MC4", "MC5", "X9"),
             description="MC3, MC4: 6C (t10) and 6D (t11), 3C (t1) and 3D (t3) are not adjacent; after "
             "consolidation (t1..t4) they are, while the stock's 9C 9D land on t5 and t6, which are "
             "not; a second deal brings them together and the last pair wins")

    scattered = {2: "AC", 7: "AD", 9: "2C", 13: "2D", 20: "QS", 24: "QH"}
    scripted(kit, "deal-stock-short", position(kit, scattered, ["KS", "KH", "JC", "JD"]),
             ["deal", "t1+t2", "deal", "t1+t2", "t3+t4", "t5+t6", "t9+t10", "t7+t8", "deal"],
             rulings=rulings("MC4", "MC5", "X1", "X9"),
             description="MC4, X1: gaps before cards (and a pair left) and a stock of four: deal slides "
             "six cards to t1..t6 and fills t7..t10 only (the stock runs out); deal again closes the "
             "gap at t1 and t2; no deal once the grid is empty")

    at_end = dict(enumerate("AC 2C 3C 4C 5C 6C 7C 8C".split(), 1))
    scripted(kit, "deal-gaps-only-at-end", position(kit, at_end, ["4D", "AD", "2D", "3D", "5D", "6D", "7D",
                                                                   "8D"]),
             ["deal", "t1+t10", "t4+t9", "deal"], rulings=rulings("MC4", "MC2"), then=20,
             description="MC4: t1..t8 full, t9..t25 empty, stock of eight: deal only fills t9..t16 "
             "(nothing slides); AC (t1) and AD (t10) are far apart, 4C (t4) and 4D (t9) pair; deal, play on")

    no_stock = {3: "9C", 8: "9D", 16: "JH", 25: "JS", 12: "5C", 14: "5D"}
    scripted(kit, "deal-without-stock", position(kit, no_stock),
             ["deal", "t3+t8", "deal", "deal", "t1+t2", "t2+t3", "t3+t4", "deal"],
             rulings=rulings("MC4", "MC5", "X1", "X9"), then=6,
             description="MC4, X1: the stock is empty: deal consolidates (legal while a gap lies before "
             "a card, even with a pair left), then is refused; the game is lost when no pair is left")

    contiguous = {1: "9C", 2: "5D", 3: "9D", 4: "5C"}
    scripted(kit, "stuck-no-deal", position(kit, contiguous), ["deal", "t1+t3", "t2+t4", "t1+t2"],
             rulings=rulings("MC4", "MC3"),
             description="MC4: no gap before a card and an empty stock: deal is refused; 9C 9D and "
             "5D 5C are two columns apart: no pair, the game is lost")

    empty_grid = {12: "KC", 13: "KD"}
    scripted(kit, "grid-empty-stock-left", position(kit, empty_grid, ["QC", "QD"]),
             ["t12+t13", "deal", "t1+t2"], rulings=rulings("MC5", "MC4", "X9"),
             description="MC5: the grid emptied with two cards left in the stock: not won; deal fills "
             "t1 and t2 from the stock, and the last pair wins")

    scripted(kit, "grid-empty-before-deal", position(kit, {}, ["QC", "QD", "4S", "4H"]),
             ["t1+t2", "deal", "t1+t2", "t3+t4", "t2+t3"], rulings=rulings("MC5", "MC4", "X9"),
             description="MC5: the grid is empty and four cards are left in the stock: not won; deal "
             "fills t1..t4, two pairs win")

    near_won(kit, "near-won-1", 6, 0, "MC5: six cards left in the grid; the trace plays the win")
    near_won(kit, "near-won-2", 10, 4, "MC2-MC5: ten cards in the grid, four in the stock; deal on "
             "the way; the trace plays a winning line found by search")
    near_won(kit, "near-won-3", 14, 6, "MC2-MC5: fourteen cards in the grid, six in the stock; the "
             "trace plays a winning line found by search")
    near_won(kit, "near-won-4", 20, 8, "MC2-MC5: twenty cards in the grid, eight in the stock; the "
             "trace plays a winning line found by search")
    near_won(kit, "public-near-won", 8, 2, "MC2-MC5: eight cards in the grid, two in the stock; the "
             "trace plays a winning line", public=True)
