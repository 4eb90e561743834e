"""Four Roads scenarios (rulings FR1..FR5, G1, G6, G12).

Deals and long playouts (generic, both values of ``redeals``) cover the deal
(FR1) and random play with redeals (FR3, FR4). Here: near-won positions made
by un-playing moves from a won grid, so a winning line is known, with the
redeals left, used up, and with ``redeals=1`` (FR3, FR5); the king of a full
row one cell too far right (not won until it moves back, FR5); rows ordered
in the wrong suit (not won; a redeal gathers them, FR4, FR5); redeals that
keep runs of several lengths, a complete row, a redeal with every card in its
run, redeals used up, a fixed ``shuffle_seed`` (FR4, G6); positions mined
from seeded playouts: a gap in column 1 (the six follows the ace), a gap
right of a king, a gap right of a gap, with illegal tries (a card onto a card,
a move to the aces' column, an ace moved) (FR3).
"""

from __future__ import annotations

from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, scripted
from .seed001 import rulings

ROWS = 4
COLUMNS = 9
CELLS = tuple(f"t{i}" for i in range(1, ROWS * COLUMNS + 1))
RANKS = tuple(range(6, KING + 1))

DEAL_RULINGS = rulings("FR1", "G1", "G6")  # the rulings of the deal, named by the generic deal traces


def left_of(cell: int) -> str:
    """The pile just left of cell number ``cell`` (1..36): the row's ace for column 1."""
    row, column = divmod(cell - 1, COLUMNS)
    return f"f{row + 1}" if column == 0 else f"t{cell - 1}"


def follows(before: Card | None, card: Card) -> bool:
    if before is None or before.suit != card.suit:
        return False
    return card.rank == (6 if before.rank == ACE else before.rank + 1)


def won_state(kit: Kit, rng: Rng, redeals: int = 2, options: dict | None = None) -> State:
    """Every row its ace, then 6..K of the ace's suit in cells 1..8, cell 9 a gap; suits in a random order."""
    suits = list(SUITS)
    rng.shuffle(suits)
    lines = [f"phase play redeals={redeals} shuffle_seed={1 + rng.below(1 << 30)} "
             f"shuffles={int((options or {}).get('redeals', 2)) - redeals}"]
    for row, suit in enumerate(suits):
        lines.append(f"f{row + 1}: A{suit}")
        for column, rank in enumerate(RANKS):
            lines.append(f"t{row * COLUMNS + column + 1}: {Card(rank, suit)}")
    return kit.position("\n".join(lines), options)


def unplay(state: State, rng: Rng, count: int) -> list[str]:
    """Take back ``count`` random moves from ``state`` (in place): a card that follows the card on its
    left goes back to a random gap (fewer when none is left). Returns the forward line, which replays
    to ``state`` as it was."""
    line: list[str] = []
    for _ in range(count):
        movable = [i for i in range(1, len(CELLS) + 1) if (card := state.piles[f"t{i}"].top) is not None
                   and follows(state.piles[left_of(i)].top, card)]
        gaps = [i for i in range(1, len(CELLS) + 1) if not state.piles[f"t{i}"].cards]
        if not movable:
            break
        cell, gap = rng.choice(movable), rng.choice(gaps)
        state.put(f"t{gap}", state.take(f"t{cell}"))
        line.append(f"t{gap}>t{cell}")
    return line[::-1]


def near_won(kit: Kit, name: str, state: State, rng: Rng, count: int, ids: list[str], description: str,
             public: bool = False) -> None:
    line = unplay(state, rng, count)
    scripted(kit, name, state, line, rulings=ids, description=description, public=public, expect_legal=True)


def build(kit: Kit) -> None:
    ids = rulings("FR2", "FR3", "FR5")
    for index, count in enumerate((3, 6, 10, 16, 24)):
        rng = Rng(f"four-roads-won-{index}")
        near_won(kit, f"near-won-{index + 1}", won_state(kit, rng), rng, count, ids,
                 f"{count} moves taken back from a won grid (FR3); the trace plays them forward to the win")
    rng = Rng("four-roads-used")
    near_won(kit, "near-won-no-redeal", won_state(kit, rng, 0), rng, 12, rulings("FR3", "FR4", "FR5"),
             "FR4: the redeals used up; 12 moves from a win, played forward")
    rng = Rng("four-roads-one")
    near_won(kit, "near-won-redeals-1", won_state(kit, rng, 1, {"redeals": 1}), rng, 8,
             rulings("FR3", "FR4"), "FR4 with redeals=1: one redeal left; 8 moves from a win")
    rng = Rng("public")
    near_won(kit, "public-near-won", won_state(kit, rng), rng, 5, ids, "", public=True)

    # FR5: the king of a full row one cell too far right; rows ordered in the wrong suit
    king = won_state(kit, Rng("four-roads-king"))
    king.put("t9", king.take("t8"))
    scripted(kit, "king-too-far", king, ["t9>t8"], rulings=rulings("FR5", "FR3"), expect_legal=True,
             description="FR5: row 1 holds 6..Q and its king in cell 9: not won until the king moves "
             "back to cell 8")
    wrong = won_state(kit, Rng("four-roads-wrong"))
    rows = [[wrong.take(f"t{r * COLUMNS + c + 1}")[0] for c in range(COLUMNS - 1)] for r in range(ROWS)]
    rows = rows[1:] + rows[:1]
    for r, cards in enumerate(rows):
        for c, card in enumerate(cards):
            wrong.put(f"t{r * COLUMNS + c + 1}", [card])
    wrong.put("t9", wrong.take("t8"))
    scripted(kit, "wrong-suit-rows", wrong, ["t9>t8", "redeal"], rulings=rulings("FR5", "FR4", "FR2"),
             then=20, description="FR5, FR2: every row ordered 6..K (once row 1's king moves back), but in "
             "another row's suit: not won; a redeal "
             "keeps no run (a run is of the row's own suit) and gathers all 32 cards")

    # FR4, G6: redeals keeping runs of several lengths
    for index, count in enumerate((4, 9, 15)):
        rng = Rng(f"four-roads-redeal-{index}")
        state = won_state(kit, rng)
        unplay(state, rng, count)
        scripted(kit, f"redeal-runs-{index + 1}", state, ["redeal", "redeal", "redeal"],
                 rulings=rulings("FR4", "G6", "G12"), then=24,
                 description=f"FR4: {count} moves from a win, redeal twice: each row keeps its run from "
                 "column 1, the rest is shuffled and laid out after one gap; a third redeal is no move")
    full = won_state(kit, Rng("four-roads-full"))
    unplay(full, Rng("four-roads-full"), 1)
    scripted(kit, "redeal-complete-row", full, ["redeal"], rulings=rulings("FR4"), then=12,
             description="FR4: rows already complete keep all eight cards, the gap after them in cell 9")
    done = won_state(kit, Rng("four-roads-done"))
    king_done = done.copy()
    king_done.put("t18", king_done.take("t17"))
    scripted(kit, "redeal-one-card", king_done, ["redeal", "t18>t17"], rulings=rulings("FR4", "G6"),
             description="FR4: only one card is off its run; the redeal gathers it alone, lays it right "
             "after its row's gap, and uses up a redeal and a shuffle")
    scripted(kit, "redeal-option-1", engine_deal(kit, 3, {"redeals": 1}), ["redeal", "redeal"],
             rulings=rulings("FR4"), then=20,
             description="FR4 with redeals=1: one redeal, the second is no move")
    fixed = engine_deal(kit, 5, {"shuffle_seed": 4242})
    scripted(kit, "fixed-shuffle-seed", fixed, ["redeal"], rulings=rulings("G6", "FR4"), then=20,
             description="G6: option shuffle_seed fixes the seed of the shuffles")

    # FR3: gaps in column 1, right of a king, right of a gap (mined from seeded playouts)
    mined = {
        "column-one-gap": (lambda s: any(not s.piles[f"t{r * COLUMNS + 1}"].cards for r in range(ROWS)),
                           "FR3: a gap in column 1 takes the six of the row's ace's suit"),
        "gap-after-king": (lambda s: any(not s.piles[f"t{i}"].cards and (top := s.piles[left_of(i)].top)
                                         is not None and top.rank == KING for i in range(1, 37)),
                           "FR3: nothing goes right of a king"),
        "gap-after-gap": (lambda s: any(not s.piles[f"t{i}"].cards and left_of(i).startswith("t")
                                        and not s.piles[left_of(i)].cards for i in range(1, 37)),
                          "FR3: a gap right of another gap takes nothing"),
    }
    for name, (predicate, description) in mined.items():
        found = mine(kit, predicate, steps=120)
        if found is None:
            raise AssertionError(f"four_roads: no seeded playout reaches {name}")
        filled = next(c for c in CELLS if found.piles[c].cards)
        other = next(c for c in reversed(CELLS) if found.piles[c].cards)
        scripted(kit, name, found, [f"{filled}>{other}", f"{filled}>f1", "f1>t1", "f2>" + next(
            c for c in CELLS if not found.piles[c].cards)], rulings=rulings("FR3"), then=16,
            description=description + "; a card never goes onto a card, nothing goes to or comes from "
            "the aces' column")


def engine_deal(kit: Kit, seed: int, options: dict) -> State:
    from solitaire import engine

    return engine.new_game(kit.variation, seed, options)
