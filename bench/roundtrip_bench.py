"""The price of one round trip to a sandboxed child: wall time, the grading side's CPU, the child's CPU.

    PYTHONPATH=$PWD .venv/bin/python bench/roundtrip_bench.py --rounds 3000

One sandbox with the Scorpion reference loaded on a dealt position; batches of 1 and of 5
(``--sizes``) ``won`` requests (an answer that costs the rule almost nothing), ``--rounds`` each, after
:meth:`~grader.sandbox.SandboxWorker.colocate` as the hidden suite does (``--no-pin``: without;
an older grader without it is measured unpinned). Microseconds per round trip. The child's CPU is
read from ``/proc`` (every process below the sandbox's, in clock ticks: use enough rounds). Run it
from two checkouts in turn, ``PYTHONPATH`` set to each, to compare them. A script, not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(os.environ.get("PYTHONPATH", "").split(":")[0] or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))

from proc_cpu import tree_cpu  # noqa: E402

from grader.grade import graded_traces  # noqa: E402
from grader.sandbox import Limits, sandbox_factory  # noqa: E402
from solitaire.traces import state_text  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--sizes", default="1,5", help="batch sizes, comma-separated (default 1,5)")
    parser.add_argument("--no-pin", action="store_true",
                        help="leave both sides where the scheduler puts them")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="roundtrip-") as holder:
        rules = Path(holder) / "scorpion.py"
        shutil.copy(ROOT / "reference" / "scorpion.py", rules)
        factory = sandbox_factory(rules, Limits(wall_s=3600.0))
        try:
            worker = factory()
            worker.launch()
            worker.load(state_text(graded_traces("scorpion")[0]["start"]["state"]))
            pinned = None if args.no_pin or not hasattr(worker, "colocate") else worker.colocate()
            root = worker._process.popen.pid  # type: ignore[union-attr]
            figures = []
            for size in (int(size) for size in args.sizes.split(",")):
                message = {"op": "batch", "requests": [{"op": "won"}] * size}
                child, wall, own = tree_cpu(root), time.perf_counter(), time.process_time()
                for _ in range(args.rounds):
                    worker.request(message)
                per = 1e6 / args.rounds
                figures.append(f"batch of {size}: {(time.perf_counter() - wall) * per:.0f} us wall, "
                               f"grading side {(time.process_time() - own) * per:.0f} us CPU, "
                               f"child {(tree_cpu(root) - child) * per:.0f} us CPU")
            state = "pinned" if pinned else "not pinned"
            print(f"{state}, load {os.getloadavg()[0]:.1f}: " + "; ".join(figures))
        finally:
            factory.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
