"""The solver's stock beam alone, with its first pass as wide as asked: are a deal's wins in wider passes?

    .venv/bin/python bench/beam_alone.py indian 512 180000 13 21 32 33

Runs :func:`solitaire.solver_beam._beam_pass` on each deal (default options) from ``WIDTH``
states a draw, then passes ``BEAM_GROWTH`` times as wide, as the solver's beam does, until a
pass wins, a pass drops no state (then the deal is lost) or ``CAP`` expansions are spent. One
line per deal: the deal, the outcome (won, lost, undecided), the expansions, the width of the
pass it ended in and the CPU seconds. The solver gives its beam half of the budget and starts at
``BEAM_FIRST_WIDTH``; this script says how wide a pass a deal needs
(docs/winnability.md, "Wider passes, probed"). Expansions are deterministic; the seconds are
not.
"""

from __future__ import annotations

import argparse
import sys
import time

from solitaire import catalog
from solitaire.engine import new_game
from solitaire.solver import UNDECIDED, promise_of, state_key
from solitaire.solver_beam import BEAM_GROWTH, _beam_pass, draw_test


def beam_alone(name: str, seed: int, width: int, cap: int) -> tuple[str, int, int]:
    """The outcome, the expansions spent and the width of the last pass, for deal ``seed``."""
    variation = catalog.load(name)
    start = new_game(variation, seed, {})
    key = state_key(variation)
    promise = promise_of(variation)
    draws = draw_test(variation)
    spent = 0
    while spent < cap:
        one_pass = _beam_pass(variation, start, key, width, promise, draws)
        try:
            while spent < cap:
                next(one_pass)
                spent += 1
        except StopIteration as finished:
            if finished.value is not None:  # a win, or a pass that dropped nothing: lost
                return finished.value[0], spent, width
            width *= BEAM_GROWTH
    return UNDECIDED, spent, width


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variation", help="a variation of the catalog, e.g. indian")
    parser.add_argument("width", type=int, help="states kept at each draw in the first pass")
    parser.add_argument("cap", type=int, help="expansions at most per deal")
    parser.add_argument("deals", type=int, nargs="+", help="deal numbers")
    args = parser.parse_args(argv)
    if args.width < 1 or args.cap < 1:
        parser.error("width and cap must be at least 1")
    if args.variation not in catalog.available():
        parser.error(f"no variation {args.variation!r} (solitaire variations lists them)")
    for seed in args.deals:
        started = time.process_time()
        outcome, spent, width = beam_alone(args.variation, seed, args.width, args.cap)
        print(seed, outcome, spent, width, round(time.process_time() - started, 1), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
