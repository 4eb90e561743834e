"""Move generation before / after, against python-chess: two checkouts side by side.

    .venv/bin/python bench/movegen_compare.py /work/main /work/wt/movegen            # every variation
    .venv/bin/python bench/movegen_compare.py BEFORE AFTER scorpion metternich --seconds 1

For each variation, ``bench/engine_bench.py --against-chess --json`` (this
checkout's script) runs once with ``PYTHONPATH=BEFORE`` and once with
``PYTHONPATH=AFTER``, alternately (the order flips from one variation to the
next), each in a fresh process started in an empty directory (so that no rules
file of the current directory is picked up). Each run measures python-chess
interleaved with the checkout's engine; the table gives both checkouts' rates
and their ratios to the chess rate measured in the same process. Rates are per
CPU second (``time.process_time``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent / "engine_bench.py"


def run(checkout: Path, variation: str, args: argparse.Namespace, cwd: str) -> dict[str, float]:
    """One engine_bench --against-chess run of ``variation`` with ``checkout`` first on the path."""
    command = [sys.executable, str(BENCH), "--against-chess", "--json", "--seconds", str(args.seconds),
               "--positions", str(args.positions), variation]
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"{variation} with {checkout}: {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("before", type=Path, help="checkout measured as 'before' (e.g. /work/main)")
    parser.add_argument("after", type=Path, help="checkout measured as 'after'")
    parser.add_argument("variations", nargs="*", metavar="VARIATION", help="default: every variation")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement (default 1)")
    parser.add_argument("--positions", type=int, default=300, help="positions per variation (default 300)")
    args = parser.parse_args(argv)
    for checkout in (args.before, args.after):
        if not (checkout / "solitaire" / "engine.py").is_file():
            parser.error(f"{checkout} is not a Solitaire Lab checkout (no solitaire/engine.py)")
    names = args.variations
    if not names:
        script = "from solitaire import catalog; print(' '.join(catalog.reference_names()))"
        listing = subprocess.run(
            [sys.executable, "-c", script],
            env=dict(os.environ, PYTHONPATH=str(args.after)), capture_output=True, text=True, check=True,
        )
        names = listing.stdout.split()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)
    print("| variation | gen/s before | gen/s after | gen vs chess before | gen vs chess after"
          " | node/s before | node/s after | node vs chess before | node vs chess after | chess gen/s"
          " | chess node/s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as empty:
        for index, name in enumerate(names):
            order = [("before", args.before), ("after", args.after)]
            if index % 2:
                order.reverse()
            rows = {label: run(checkout, name, args, empty) for label, checkout in order}
            b, a = rows["before"], rows["after"]
            chess_gen = (b["chess_gen"] + a["chess_gen"]) / 2
            chess_node = (b["chess_node"] + a["chess_node"]) / 2
            print(f"| {name} | {b['gen']:,.0f} | {a['gen']:,.0f} | {b['gen'] / b['chess_gen']:.2f}x"
                  f" | {a['gen'] / a['chess_gen']:.2f}x | {b['node']:,.0f} | {a['node']:,.0f}"
                  f" | {b['node'] / b['chess_node']:.2f}x | {a['node'] / a['chess_node']:.2f}x"
                  f" | {chess_gen:,.0f} | {chess_node:,.0f} |", flush=True)
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
