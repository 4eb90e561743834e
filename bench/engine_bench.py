"""Engine speed per variation: apply+undo and legal-move generation per second.

    .venv/bin/python bench/engine_bench.py                 # every variation, 1 s per measurement
    .venv/bin/python bench/engine_bench.py --seconds 3 scorpion
    .venv/bin/python bench/engine_bench.py --profile metternich   # cProfile of apply+undo

Positions come from random playouts of seeded deals (deals 1.., move choices
from the engine's own PRNG, a playout ends when stuck or after --length
moves). For each position one legal move is chosen. Then, timed:

* ``apply+undo/s``: ``engine.apply_unchecked`` of the chosen move, and undo by
  keeping the previous state (as :class:`solitaire.game.Game` does);
* ``checked/s``: ``engine.apply`` (legality check, then apply);
* ``legal/s``: ``engine.legal_moves`` generations per second.

Rates are per second of this process's CPU time (``time.process_time``), so
that other work on a shared machine disturbs them less; on an idle machine
they equal wall-clock rates. A script, not a test: the numbers depend on the machine. The goal is at
least 100k apply+undo per second per variation.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from solitaire import catalog, engine  # noqa: E402
from solitaire.moves import Move  # noqa: E402
from solitaire.rng import SplitMix64  # noqa: E402
from solitaire.state import State  # noqa: E402
from solitaire.variation import Variation  # noqa: E402

GOAL = 100_000


def positions(variation: Variation, count: int, length: int) -> list[tuple[State, Move]]:
    """``count`` (state, legal move) pairs from random playouts of deals 1, 2, ..."""
    rng = SplitMix64(2024)
    found: list[tuple[State, Move]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = engine.new_game(variation, seed)
        for _ in range(length):
            moves = engine.legal_moves(variation, state)
            if not moves:
                break
            move = moves[rng.below(len(moves))]
            found.append((state, move))
            state = engine.apply_unchecked(variation, state, move)
        if seed > 50 * count:
            raise RuntimeError(f"{variation.name}: too few positions with a legal move")
    return found[:count]


def rate(operation: Callable[[], int], seconds: float) -> float:
    """Operations per CPU second: repeat ``operation`` (which returns how many it did) for
    ``seconds`` of this process's CPU time (other processes on a shared machine do not count)."""
    done = 0
    start = time.process_time()
    while True:
        done += operation()
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed


def measure(variation: Variation, seconds: float, pairs: list[tuple[State, Move]]) -> dict[str, float]:
    apply_unchecked, apply, legal_moves = engine.apply_unchecked, engine.apply, engine.legal_moves

    def apply_and_undo() -> int:
        for state, move in pairs:
            previous = state  # undo = restore the kept previous state
            state = apply_unchecked(variation, state, move)
            state = previous
        return len(pairs)

    def checked() -> int:
        for state, move in pairs:
            apply(variation, state, move)
        return len(pairs)

    def generate() -> int:
        for state, _ in pairs:
            legal_moves(variation, state)
        return len(pairs)

    return {
        "apply+undo/s": rate(apply_and_undo, seconds),
        "checked/s": rate(checked, seconds),
        "legal/s": rate(generate, seconds),
    }


def profile(variation: Variation, pairs: list[tuple[State, Move]], rounds: int = 20) -> None:
    """Print where the time of apply+undo and of legal-move generation goes."""
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(rounds):
        for state, move in pairs:
            engine.apply_unchecked(variation, state, move)
    profiler.disable()
    print(f"\ncProfile of apply_unchecked, {variation.name}, {rounds * len(pairs)} moves:")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
    profiler = cProfile.Profile()
    profiler.enable()
    for state, _ in pairs:
        engine.legal_moves(variation, state)
    profiler.disable()
    print(f"cProfile of legal_moves, {variation.name}, {len(pairs)} generations:")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("variations", nargs="*", metavar="VARIATION", help="default: every variation")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1)")
    parser.add_argument("--positions", type=int, default=500, help="positions per variation (default 500)")
    parser.add_argument("--length", type=int, default=60, help="longest playout (default 60 moves)")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of apply+undo")
    args = parser.parse_args(argv)
    names = args.variations or catalog.available()
    header = f"{'variation':<18}{'apply+undo/s':>14}{'checked/s':>12}{'legal/s':>10}{'moves/pos':>11}  goal"
    print(header)
    print("-" * len(header))
    for name in names:
        variation = catalog.load(name)
        pairs = positions(variation, args.positions, args.length)
        figures = measure(variation, args.seconds, pairs)
        branching = sum(len(engine.legal_moves(variation, s)) for s, _ in pairs) / len(pairs)
        verdict = "ok" if figures["apply+undo/s"] >= GOAL else "MISSED"
        print(
            f"{name:<18}{figures['apply+undo/s']:>14,.0f}{figures['checked/s']:>12,.0f}"
            f"{figures['legal/s']:>10,.0f}{branching:>11.1f}  {verdict}"
        )
        if args.profile:
            profile(variation, pairs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
