"""Indian's solver hints tried on 2026-12-02 (docs/winnability.md, "Indian's estimates, tried
and dropped"): throwaway subclasses of the reference, none of them kept.

    PYTHONPATH=$PWD python bench/indian_estimates.py VARIANT FIRST LAST BUDGET [--probe]

prints one line per deal (seed, outcome, states expanded, CPU s) and a summary. With
``--probe`` a ``hopeless`` that always answers False counts the states expanded: the most
cards on the foundations and at which expansion, and how many had the stock empty or
with fewer than 10 cards (the solver asks ``hopeless`` once per expansion, and once for
the start).

Variants (foundation weight 30, the reference's, unless named otherwise):

* ``base``: the reference as it is; ``w10``, ``w20``, ``w60``: other foundation weights.
* ``cN``: N per card above a lower card of its suit (``blocking_in_sequences``) in each
  column and in the order the stock cards come (the waste bottom to top, then the stock
  top to bottom), as Double Fives' estimate counts.
* ``sN``: N per card above *both* copies of some lower rank of its suit (two packs: above
  one copy it may still go up first, on the other), same sequences; ``s10nc`` without the
  columns.
* ``d8``: 1 per card above 8 that lies on a card a foundation takes next in the waste
  (the generic estimate counts such depths up to 8 only).
* ``eN``: N once the stock is empty (the endgame looks worse than the first pass).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Sequence

from solitaire import catalog
from solitaire.cards import ACE, KING, Card
from solitaire.engine import new_game
from solitaire.piles import FOUNDATION, TABLEAU
from solitaire.solver import solve
from solitaire.solver_dead import blocking_in_sequences
from solitaire.state import State

V = catalog.load("indian")
Base = type(V)
COLUMNS = V.piles(TABLEAU)
FOUNDATIONS = V.piles(FOUNDATION)


def sequences(state: State, columns: bool = True) -> list[Sequence[Card]]:
    """The columns bottom up (if ``columns``) and the stock order: waste bottom up, stock top down."""
    out: list[Sequence[Card]] = [state.piles[c].cards for c in COLUMNS] if columns else []
    out.append(state.piles["w"].cards + state.piles["s"].cards[::-1])
    return out


def above_both_copies(sequences: Iterable[Sequence[Card]]) -> int:
    """Cards lying above both copies of some lower rank of their suit, in each sequence."""
    count = 0
    for cards in sequences:
        seen: dict[Card, int] = {}
        lowest_pair: dict[str, int] = {}
        for card in cards:
            if lowest_pair.get(card.suit, KING + 1) < card.rank:
                count += 1
            seen[card] = seen.get(card, 0) + 1
            if seen[card] == 2:
                lowest_pair[card.suit] = min(lowest_pair.get(card.suit, KING + 1), card.rank)
    return count


def deep_in_waste(state: State, cap: int = 8) -> int:
    """Cards above ``cap`` lying on a waste card that a foundation takes next."""
    wanted = set()
    empty = False
    for name in FOUNDATIONS:
        top = state.piles[name].top
        if top is None:
            empty = True
        elif top.rank < KING:
            wanted.add((top.suit, top.rank + 1))
    waste = state.piles["w"].cards
    return sum(
        max(0, len(waste) - 1 - index - cap)
        for index, card in enumerate(waste)
        if (card.suit, card.rank) in wanted or (empty and card.rank == ACE)
    )


def variant(estimate: Callable[[State], int] | None, weight: int = 30) -> Base:
    class Variant(Base):  # type: ignore[misc, valid-type]
        foundation_weight = weight

    if estimate is not None:
        Variant.solver_estimate = lambda self, state: estimate(state)  # type: ignore[method-assign]
    return Variant()


VARIANTS: dict[str, Callable[[], Base]] = {
    "base": lambda: variant(None),
    "w10": lambda: variant(None, 10),
    "w20": lambda: variant(None, 20),
    "w60": lambda: variant(None, 60),
    **{
        f"c{n}": (lambda n=n: variant(lambda s: n * blocking_in_sequences(sequences(s), ACE)))
        for n in (5, 10, 20)
    },
    **{f"s{n}": (lambda n=n: variant(lambda s: n * above_both_copies(sequences(s)))) for n in (5, 10)},
    "s10nc": lambda: variant(lambda s: 10 * above_both_copies(sequences(s, columns=False))),
    "d8": lambda: variant(deep_in_waste),
    **{f"e{n}": (lambda n=n: variant(lambda s: 0 if s.piles["s"].cards else n)) for n in (60, 150, 600)},
}


def main(argv: list[str]) -> None:
    if len(argv) < 4 or "--help" in argv:
        print(__doc__)
        return
    name, first, last, budget = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    probe = "--probe" in argv
    variation = VARIANTS[name]()
    stats: dict[str, int] = {}
    if probe:

        def hopeless(self: Base, state: State) -> bool:
            up = sum(len(state.piles[f].cards) for f in FOUNDATIONS)
            stock = len(state.piles["s"].cards)
            stats["n"] += 1
            if up > stats["best"]:
                stats["best"], stats["best_at"] = up, stats["n"]
            stats["empty"] += stock == 0
            stats["low"] += 0 < stock < 10
            return False

        type(variation).hopeless = hopeless  # type: ignore[method-assign]
    totals = {"won": 0, "lost": 0, "undecided": 0}
    nodes = 0
    seconds = 0.0
    for seed in range(first, last + 1):
        stats.update(n=0, best=0, best_at=0, empty=0, low=0)
        started = time.process_time()
        result = solve(variation, new_game(variation, seed), budget)
        spent = time.process_time() - started
        totals[result.outcome] += 1
        nodes += result.nodes
        seconds += spent
        extra = (
            f"  best_up={stats['best']}@{stats['best_at']}"
            f" stock_empty={stats['empty']} stock<10={stats['low']}"
            if probe
            else ""
        )
        print(seed, result.outcome, result.nodes, round(spent, 2), extra, flush=True)
    print(
        f"{name} deals {first}..{last} at {budget}: won {totals['won']} lost {totals['lost']} "
        f"undecided {totals['undecided']}, {nodes} nodes, {seconds:.1f} CPU s",
        flush=True,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
