"""Solver speed per variation: states expanded per second on fixed deals with a fixed budget.

    .venv/bin/python bench/solver_bench.py                       # every variation, deals 1..10, 3000 nodes
    .venv/bin/python bench/solver_bench.py --deals 20 --budget 5000 indian bismarck
    .venv/bin/python bench/solver_bench.py scorpion:moves=any_faceup
    .venv/bin/python bench/solver_bench.py --profile metternich  # cProfile of the same solves

Each row solves deals ``first``..``first+deals-1`` of one variation (and
options: ``name:option=value,option=value``) with :func:`solitaire.solver.solve`
and reports the states expanded (nodes), the CPU seconds of this process
(``time.process_time``, so that other work on a shared machine disturbs the
figures less), nodes per CPU second, the outcomes, and the share of the time
spent in legal-move generation (``engine.legal_moves``, the rule methods) and
in the variation's ``safe_move``. A script, not a test: the numbers depend on
the machine.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from solitaire import catalog, solver  # noqa: E402
from solitaire.engine import new_game  # noqa: E402
from solitaire.state import OptionValue  # noqa: E402

DEFAULT_ROWS = (
    "scorpion", "scorpion:moves=any_faceup", "bismarck", "double_fives", "napoleons_square", "indian",
    "metternich",
)


class Stopwatch:
    """CPU seconds spent inside one function, installed by wrapping it."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.seconds = 0.0

    def __call__(self, *args: Any) -> Any:
        started = time.process_time()
        try:
            return self.function(*args)
        finally:
            self.seconds += time.process_time() - started


def parse_row(text: str) -> tuple[str, dict[str, str]]:
    name, _, settings = text.partition(":")
    options = dict(item.split("=", 1) for item in settings.split(",") if item)
    return name, options


def bench_row(text: str, deals: int, first: int, budget: int) -> dict[str, Any]:
    name, settings = parse_row(text)
    variation = catalog.load(name)
    options: dict[str, OptionValue] = variation.resolve_options(dict(settings))
    generation = Stopwatch(solver.legal_moves)
    safe = Stopwatch(variation.safe_move)
    solver.legal_moves = generation  # type: ignore[assignment]
    variation.safe_move = safe  # type: ignore[method-assign]
    outcomes: Counter[str] = Counter()
    nodes = 0
    started = time.process_time()
    try:
        for seed in range(first, first + deals):
            result = solver.solve(variation, new_game(variation, seed, options), budget)
            outcomes[result.outcome] += 1
            nodes += result.nodes
    finally:
        solver.legal_moves = generation.function  # type: ignore[assignment]
        del variation.safe_move
    seconds = time.process_time() - started
    return {
        "row": text, "nodes": nodes, "seconds": seconds, "outcomes": outcomes,
        "generation": generation.seconds / seconds if seconds else 0.0,
        "safe": safe.seconds / seconds if seconds else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("rows", nargs="*", default=list(DEFAULT_ROWS), metavar="VARIATION[:OPTION=VALUE,...]")
    parser.add_argument("--deals", type=int, default=10, help="deals per row (default 10)")
    parser.add_argument("--first", type=int, default=1, help="first deal number (default 1)")
    parser.add_argument("--budget", type=int, default=3000, help="node budget per deal (default 3000)")
    parser.add_argument("--profile", metavar="ROW", help="profile one row with cProfile instead")
    args = parser.parse_args(argv)

    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(bench_row, args.profile, args.deals, args.first, args.budget)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        return 0

    print(f"# {platform.python_implementation()} {platform.python_version()}, deals {args.first}.."
          f"{args.first + args.deals - 1}, budget {args.budget} nodes per deal")
    print("| variation | nodes | CPU s | nodes/s | won | lost | undecided | legal moves | safe_move |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for text in args.rows:
        row = bench_row(text, args.deals, args.first, args.budget)
        rate = row["nodes"] / row["seconds"] if row["seconds"] else 0.0
        counts = row["outcomes"]
        print(
            f"| {row['row']} | {row['nodes']} | {row['seconds']:.1f} | {rate:,.0f} | {counts['won']} | "
            f"{counts['lost']} | {counts['undecided']} | {row['generation']:.0%} | {row['safe']:.0%} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
