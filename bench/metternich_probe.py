"""Which of Metternich's rulings make it hard to win? The solver on the reference and on probes.

    .venv/bin/python bench/metternich_probe.py --deals 50 ruled no_m5 spaces spaces_m5 redeals redeals_m5

Each probe is the reference (``reference/metternich.py``) with one or two rulings changed, as a
subclass here: a measurement of how much each ruling weighs, not a rule of the game (nothing in
the product uses these classes; the rulings stay those of RULINGS.md):

* ``ruled``: the reference, as the course rules it.
* ``no_m5``: columns are never disabled (M5's second half); spaces are still never filled.
* ``spaces``: never disabled, and a space takes any run (M5 dropped).
* ``spaces_m5``: a space takes any run; while a column is empty, the columns right of the
  leftmost empty one are disabled (M5 with spaces that may be filled).
* ``redeals``: never disabled, and five redeals instead of one (M6).
* ``redeals_m5``: five redeals, M5 as ruled.

The probes that change M5 answer False to the ``hopeless`` hint (its argument leans on M5) and 0
to ``solver_priority`` (it leans on spaces staying empty); the redeal probes keep the other
hints. One line per probe: how many deals it won, lost and left undecided, and the CPU seconds.
Node counts are deterministic; the seconds are not.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference.metternich import Metternich  # noqa: E402
from solitaire.cards import Card  # noqa: E402
from solitaire.engine import new_game  # noqa: E402
from solitaire.moves import Move  # noqa: E402
from solitaire.piles import TABLEAU  # noqa: E402
from solitaire.solver import solve  # noqa: E402
from solitaire.state import State  # noqa: E402

PROBE_REDEALS = 5


class NoDisabling(Metternich):
    """Columns are never disabled; spaces stay empty."""

    def _disabled_columns(self, state: State) -> tuple[str, ...]:
        return ()

    def _first_disabled(self, state: State) -> int:
        return len(self.piles(TABLEAU))

    def hopeless(self, state: State) -> bool:
        return False


class FilledSpacesM5(Metternich):
    """A space takes any run from a column that is not disabled (or the stock or waste), and while
    a column is empty the columns right of the leftmost empty one are disabled (the seed text's
    words, with spaces that may be filled)."""

    def space_accepts(self, state: State, pile: str, cards: tuple, source: str) -> bool:
        disabled = self._disabled_columns(state)
        return pile not in disabled and source not in disabled

    def solver_priority(self, state: State, move: Move) -> int:
        return 0

    def hopeless(self, state: State) -> bool:
        return False


class FilledSpaces(NoDisabling, FilledSpacesM5):
    """Never disabled, and a space takes any run."""


class MoreRedealsM5(Metternich):
    """Five redeals, M5 as ruled."""

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        super().deal(state, cards)
        state.counters["redeals"] = PROBE_REDEALS

    def hopeless(self, state: State) -> bool:  # its waste argument assumes the one redeal
        return False


class MoreRedeals(NoDisabling, MoreRedealsM5):
    """Never disabled, five redeals."""


PROBES = {"ruled": Metternich, "no_m5": NoDisabling, "spaces": FilledSpaces, "spaces_m5": FilledSpacesM5,
          "redeals": MoreRedeals, "redeals_m5": MoreRedealsM5}


def probe(name: str, first: int, deals: int, budget: int) -> tuple[dict[str, int], float]:
    """Outcome counts of deals ``first``.. under probe ``name``, and the CPU seconds."""
    variation = PROBES[name]()
    counts = {"won": 0, "lost": 0, "undecided": 0}
    started = time.process_time()
    for seed in range(first, first + deals):
        counts[solve(variation, new_game(variation, seed), budget=budget).outcome] += 1
    return counts, time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("probes", nargs="+", help=f"any of {', '.join(PROBES)}")
    parser.add_argument("--first", type=int, default=1, help="the first deal (default 1)")
    parser.add_argument("--deals", type=int, default=20, help="how many deals (default 20)")
    parser.add_argument("--budget", type=int, default=2000, help="states expanded a deal (default 2000)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.probes if name not in PROBES]
    if unknown:
        parser.error(f"no probe {unknown[0]!r} (known: {', '.join(PROBES)})")
    for name in args.probes:
        counts, seconds = probe(name, args.first, args.deals, args.budget)
        print(f"{name}: deals {args.first}..{args.first + args.deals - 1} at {args.budget:,}: "
              f"{counts['won']} won, {counts['lost']} lost, {counts['undecided']} undecided "
              f"({seconds:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
