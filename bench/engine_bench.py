"""Engine speed per variation: apply+undo and legal-move generation per second.

    .venv/bin/python bench/engine_bench.py                 # every variation, 1 s per measurement
    .venv/bin/python bench/engine_bench.py --seconds 3 scorpion
    .venv/bin/python bench/engine_bench.py --profile metternich   # cProfile of apply+undo
    .venv/bin/python bench/engine_bench.py --against-chess scorpion   # vs python-chess (bench extra)

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

``--against-chess`` (issue 16) measures instead, interleaved with python-chess
(``pip install 'solitaire-lab[bench]'``) on positions of random chess games
(seeded playouts from the start position, built before timing), the same way
for both: legal-move generations per CPU second (ours ``engine.legal_moves``,
chess ``list(board.legal_moves)``), and search nodes per CPU second (ours:
generate, then ``engine.apply_unchecked`` of every legal move; chess:
generate, then ``push`` and ``pop`` of every legal move). ``--json`` prints one
JSON object per variation instead of the table (bench/movegen_compare.py reads it).

The checkout measured is the one ``solitaire`` is imported from: ``PYTHONPATH``
when it is set, else this script's own checkout.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not os.environ.get("PYTHONPATH") and str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from solitaire import catalog, engine  # noqa: E402
from solitaire.moves import Move  # noqa: E402
from solitaire.rng import SplitMix64  # noqa: E402
from solitaire.state import State  # noqa: E402
from solitaire.variation import Variation  # noqa: E402

GOAL = 100_000
CHESS_MISSING = (
    "python-chess is not installed: pip install 'chess>=1.10' (or the extra: pip install -e '.[bench]')"
)


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


def chess_positions(count: int, length: int) -> list[object]:
    """``count`` chess boards from random games (seeded playouts from the start position,
    every position with a legal move kept, a playout ends at the game's end or after ``length`` plies)."""
    import chess

    rng = random.Random(2024)
    boards: list[object] = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(length):
            moves = list(board.legal_moves)
            if not moves:
                break
            boards.append(board.copy(stack=False))
            board.push(rng.choice(moves))
    return boards[:count]


def chess_operations(boards: list) -> dict[str, Callable[[], int]]:  # type: ignore[type-arg]
    """python-chess's generation and search node over ``boards``, shaped like :func:`our_operations`."""

    def generate() -> int:
        for board in boards:
            list(board.legal_moves)
        return len(boards)

    def node() -> int:
        for board in boards:
            for move in list(board.legal_moves):
                board.push(move)
                board.pop()
        return len(boards)

    return {"legal/s": generate, "node/s": node}


def our_operations(variation: Variation, pairs: list[tuple[State, Move]]) -> dict[str, Callable[[], int]]:
    """Our generation and search node (generate, then apply every legal move) over ``pairs``."""
    legal_moves, apply_unchecked = engine.legal_moves, engine.apply_unchecked
    states = [state for state, _ in pairs]

    def generate() -> int:
        for state in states:
            legal_moves(variation, state)
        return len(states)

    def node() -> int:
        for state in states:
            for move in legal_moves(variation, state):
                apply_unchecked(variation, state, move)
        return len(states)

    return {"legal/s": generate, "node/s": node}


def interleaved(
    ours: dict[str, Callable[[], int]], theirs: dict[str, Callable[[], int]], seconds: float, rounds: int = 4
) -> dict[str, float]:
    """Per operation, our rate and chess's, measured alternately in ``rounds`` slices of
    ``seconds / rounds`` CPU seconds each, so that a change in the machine's load hits both."""
    done = {f"{side} {key}": [0.0, 0.0] for key in ours for side in ("ours", "chess")}
    for _ in range(rounds):
        for key in ours:
            for side, operations in (("ours", ours), ("chess", theirs)):
                count, elapsed = 0, 0.0
                start = time.process_time()
                while elapsed < seconds / rounds:
                    count += operations[key]()
                    elapsed = time.process_time() - start
                done[f"{side} {key}"][0] += count
                done[f"{side} {key}"][1] += elapsed
    return {name: count / elapsed for name, (count, elapsed) in done.items()}


def against_chess(names: list[str], args: argparse.Namespace) -> int:
    """The table of issue 16: our generation and search node against python-chess's."""
    try:
        import chess  # noqa: F401
    except ImportError:
        print(CHESS_MISSING, file=sys.stderr)
        return 2
    boards = chess_positions(args.positions, args.length)
    theirs = chess_operations(boards)
    if not args.json:
        print("| variation | legal-move generations/s | vs python-chess | search node (generate + apply every"
              " move)/s | vs python-chess | chess gen/s | chess node/s | moves/pos |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        variation = catalog.load(name)
        pairs = positions(variation, args.positions, args.length)
        branching = sum(len(engine.legal_moves(variation, s)) for s, _ in pairs) / len(pairs)
        rates = interleaved(our_operations(variation, pairs), theirs, args.seconds)
        row = {
            "variation": name,
            "gen": rates["ours legal/s"],
            "chess_gen": rates["chess legal/s"],
            "node": rates["ours node/s"],
            "chess_node": rates["chess node/s"],
            "moves_per_position": branching,
        }
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"| {name} | {row['gen']:,.0f} | {row['gen'] / row['chess_gen']:.2f}x | {row['node']:,.0f}"
                  f" | {row['node'] / row['chess_node']:.2f}x | {row['chess_gen']:,.0f}"
                  f" | {row['chess_node']:,.0f} | {branching:.1f} |", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("variations", nargs="*", metavar="VARIATION", help="default: every variation")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1)")
    parser.add_argument("--positions", type=int, default=500, help="positions per variation (default 500)")
    parser.add_argument("--length", type=int, default=60, help="longest playout (default 60 moves)")
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of apply+undo and of legal-move generation")
    parser.add_argument("--against-chess", action="store_true",
                        help="generation and search node against python-chess's, interleaved (issue 16)")
    parser.add_argument("--json", action="store_true",
                        help="with --against-chess: one JSON object per variation")
    args = parser.parse_args(argv)
    names = args.variations or catalog.available()
    unknown = [name for name in names if name not in catalog.available()]
    if unknown:
        parser.error(f"unknown variation {unknown[0]!r} (known: {', '.join(catalog.available())})")
    if args.against_chess:
        return against_chess(names, args)
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
