"""Regenerate the golden deals and perft counts the engine tests compare against.

    .venv/bin/python scripts/make_golden.py            # every variation
    .venv/bin/python scripts/make_golden.py scorpion   # one variation

Writes, for each variation of ``catalog.available()``:

* ``tests/data/golden/<variation>.txt``: the canonical initial state of deals
  1, 2 and 3 with the default options, then deal 1 with each non-default value
  of each option (one option changed at a time). Sections start with a line
  ``## seed N [option=value]``.
* ``tests/data/perft/<variation>.json``: perft counts (the number of move
  sequences of length 1, 2 and 3) from pinned positions: the initial states of
  deals 1..3 (default options), of deal 1 with each non-default option value,
  and mid-game positions reached by seeded random playouts (deals 1 and 2, with
  the default options and with the first non-default option value). Each position
  carries its state text, how it was reached (seed, options, moves) and a
  ``divide`` table (perft of depth - 1 after each first move), so a failing
  count points at the move whose subtree changed.

Only regenerate after a deliberate change of a variation's rules or deal, and
review the diff: the tests exist to catch unintended changes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from solitaire import catalog, engine  # noqa: E402
from solitaire.moves import Move  # noqa: E402
from solitaire.rng import SplitMix64  # noqa: E402
from solitaire.state import OptionValue, State, format_option_value, format_state  # noqa: E402
from solitaire.variation import Variation  # noqa: E402

GOLDEN_DIR = ROOT / "tests" / "data" / "golden"
PERFT_DIR = ROOT / "tests" / "data" / "perft"
GOLDEN_SEEDS = (1, 2, 3)
PERFT_DEPTH = 3
# (seed, moves): mid-game positions from seeded random playouts, with the default
# options and with the first non-default option value
PLAYOUTS = ((1, 20), (2, 40))
PLAYOUT_CHOICE_SEED = 0x5EED


def perft(variation: Variation, state: State, depth: int) -> int:
    """The number of legal move sequences of length ``depth`` from ``state``."""
    if depth == 0:
        return 1
    moves = engine.legal_moves(variation, state)
    if depth == 1:
        return len(moves)
    return sum(perft(variation, engine.apply_unchecked(variation, state, m), depth - 1) for m in moves)


def divide(variation: Variation, state: State, depth: int) -> dict[str, int]:
    """perft(depth - 1) after each legal first move, keyed by the move's text."""
    return {
        str(move): perft(variation, engine.apply_unchecked(variation, state, move), depth - 1)
        for move in sorted(engine.legal_moves(variation, state), key=str)
    }


def option_variants(variation: Variation) -> list[dict[str, OptionValue]]:
    """Each non-default value of each option, one option changed at a time."""
    variants = []
    for option in variation.options:
        for value in option.allowed():
            if value != option.default:
                variants.append({option.name: value})
    return variants


def describe(seed: int, options: dict[str, OptionValue]) -> str:
    changed = " ".join(f"{k}={format_option_value(v)}" for k, v in sorted(options.items()))
    return f"seed {seed}" + (f" {changed}" if changed else "")


def golden_sections(variation: Variation) -> list[tuple[int, dict[str, OptionValue]]]:
    """The (seed, changed options) pairs whose initial states the golden file pins."""
    return [(seed, {}) for seed in GOLDEN_SEEDS] + [(1, v) for v in option_variants(variation)]


def golden_text(variation: Variation) -> str:
    parts = [
        f"# Golden deals of {variation.name}: canonical initial states.\n"
        "# Regenerate with: .venv/bin/python scripts/make_golden.py (review the diff).\n"
    ]
    for seed, options in golden_sections(variation):
        parts.append(f"## {describe(seed, options)}\n")
        parts.append(format_state(engine.new_game(variation, seed, options)))
    return "".join(parts)


def parse_golden(text: str) -> dict[str, str]:
    """The golden file as {section title ("seed 1", "seed 1 moves=any_faceup"): state text}."""
    sections: dict[str, str] = {}
    title = None
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            title = line[3:].strip()
            sections[title] = ""
        elif line.startswith("#") or title is None:
            continue
        else:
            sections[title] += line
    return sections


def playout(
    variation: Variation, seed: int, options: dict[str, OptionValue], length: int
) -> list[Move]:
    """Up to ``length`` random legal moves from deal ``seed``, chosen by a seeded
    generator, avoiding a move into a position without moves while another exists."""
    rng = SplitMix64(PLAYOUT_CHOICE_SEED + seed)
    state = engine.new_game(variation, seed, options)
    moves: list[Move] = []
    for _ in range(length):
        legal = sorted(engine.legal_moves(variation, state), key=str)
        while legal:
            move = legal.pop(rng.below(len(legal)))
            after = engine.apply_unchecked(variation, state, move)
            if not legal or engine.legal_moves(variation, after):
                break
        else:
            break
        moves.append(move)
        state = after
    while moves and not engine.legal_moves(variation, state):  # end where play goes on
        moves.pop()
        state = engine.new_game(variation, seed, options)
        for move in moves:
            state = engine.apply_unchecked(variation, state, move)
    return moves


def position(
    variation: Variation, seed: int, options: dict[str, OptionValue], moves: list[Move]
) -> dict[str, Any]:
    state = engine.new_game(variation, seed, options)
    for move in moves:
        state = engine.apply(variation, state, move)
    counts = [perft(variation, state, depth) for depth in range(1, PERFT_DEPTH + 1)]
    return {
        "label": describe(seed, options) + (f" after {len(moves)} moves" if moves else ""),
        "seed": seed,
        "options": {k: v for k, v in sorted(options.items())},
        "moves": [str(m) for m in moves],
        "state": format_state(state),
        "counts": counts,
        "divide": divide(variation, state, PERFT_DEPTH),
    }


def perft_data(variation: Variation) -> dict[str, Any]:
    positions = [position(variation, seed, options, []) for seed, options in golden_sections(variation)]
    variants = option_variants(variation)
    for seed, length in PLAYOUTS:
        for options in [{}] + variants[:1]:
            moves = playout(variation, seed, options, length)
            positions.append(position(variation, seed, options, moves))
    return {"variation": variation.name, "depth": PERFT_DEPTH, "positions": positions}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="make_golden.py",
        description="Regenerate the golden deals (tests/data/golden) and perft counts (tests/data/perft) "
                    "of the named variations, or of every variation. Only after a deliberate change of "
                    "rules or deal; review the diff.")
    parser.add_argument("variations", nargs="*", metavar="VARIATION", help="variation names (default: all)")
    names = parser.parse_args(argv).variations or catalog.available()
    known = set(catalog.available())
    unknown = [name for name in names if name not in known]
    if unknown:
        parser.error(f"unknown variation(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    PERFT_DIR.mkdir(parents=True, exist_ok=True)
    for name in names:
        variation = catalog.load(name)
        (GOLDEN_DIR / f"{name}.txt").write_text(golden_text(variation), encoding="utf-8")
        data = perft_data(variation)
        (PERFT_DIR / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        summary = ", ".join(f"{p['label']}: {p['counts']}" for p in data["positions"])
        print(f"{name}: {summary}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
