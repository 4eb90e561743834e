"""Solve deals FIRST..LAST of a variation one at a time and print a line per deal.

    .venv/bin/python bench/per_deal.py VARIATION FIRST LAST BUDGET

Each line: the deal number, the outcome (won, lost, undecided), the states expanded and the
CPU seconds. It calls the function `solitaire winnability` runs for each deal
(`solitaire.winnability.solve_deal`), so the counts add up to that command's; what it adds is
which deals were undecided, and a line as soon as each deal is done. Default options only.
"""

from __future__ import annotations

import sys
import time

from solitaire.winnability import solve_deal


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    name, first, last, budget = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    for seed in range(first, last + 1):
        started = time.process_time()
        _, outcome, nodes, _ = solve_deal((name, {}, seed, budget))
        print(seed, outcome, nodes, round(time.process_time() - started, 2), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
