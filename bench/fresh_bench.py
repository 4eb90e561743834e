"""The price of a fresh child per trace: ``SandboxWorker.fresh()`` N times in a row through one sandbox.

    PYTHONPATH=$PWD .venv/bin/python bench/fresh_bench.py metternich 60

Prints the median and minimum wall time of one ``fresh()`` (the zygote kills the last child, wipes
what it left, forks, and the child loads the rules file and says so) and the CPU of the sandbox's
processes per ``fresh()`` (from ``/proc``, with what they reaped: use enough rounds, it counts clock
ticks). The reference of the variation is the submission. Run it from two checkouts in turn,
``PYTHONPATH`` set to each, to compare them. A script, not a test.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(os.environ.get("PYTHONPATH", "").split(":")[0] or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))

from proc_cpu import tree_cpu  # noqa: E402

from grader.sandbox import Limits, sandbox_factory  # noqa: E402


def main() -> int:
    name = sys.argv[1] if len(sys.argv) > 1 else "scorpion"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    with tempfile.TemporaryDirectory(prefix="fresh-") as holder:
        rules = Path(holder) / f"{name}.py"
        shutil.copy(ROOT / "reference" / f"{name}.py", rules)
        factory = sandbox_factory(rules, Limits(wall_s=3600.0))
        try:
            worker = factory()
            worker.launch()
            root = worker._process.popen.pid  # type: ignore[union-attr]
            times = []
            cpu = tree_cpu(root, reaped=True)
            for _ in range(rounds):
                started = time.perf_counter()
                worker.fresh()
                times.append(time.perf_counter() - started)
            cpu = tree_cpu(root, reaped=True) - cpu
        finally:
            factory.close()
    print(f"{name}: fresh() median {statistics.median(times) * 1e3:.1f} ms, "
          f"min {min(times) * 1e3:.1f} ms over {rounds}; sandbox CPU {cpu / rounds * 1e3:.1f} ms "
          f"per fresh(); load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
