"""Sandbox overhead: the hidden suite of each reference, in-process worker vs sandboxed worker.

    .venv/bin/python bench/sandbox_bench.py                      # every variation with hidden traces
    .venv/bin/python bench/sandbox_bench.py --runs 7 scorpion
    .venv/bin/python bench/sandbox_bench.py --mode replay        # only the bare replay

Two workloads, each run ``--runs`` times, local and sandboxed interleaved
(local, sandbox, local, sandbox, ...), wall-clock seconds; the figure is the
median of the per-run ratios sandbox / local. The ``cpu`` column is the same
ratio for CPU seconds of this process and of everything it started, the
sandboxes' processes included (a cgroup of the bench's own, ``bench/cpu_group.py``;
without one, as not root, only waited-for children count, which leaves out the
sandboxes and the header says so). A busy machine disturbs it much less than wall time:

* ``grade``: the whole grading of the reference copied as a submission,
  :func:`grader.grade.grade_submission` with ``worker="local"`` vs
  ``worker="sandbox"`` (hidden suite in its pytest subprocess, scoring,
  results.json). This is what the goal (<= 1.3x) is about.
* ``replay``: only the replay of the same hidden traces in this process
  (:func:`grader.grade.replay_all`), :class:`~solitaire.protocol.LocalWorker`
  vs one :class:`~grader.sandbox.SandboxWorker` for all traces, as the suite does.
  It isolates the per-request cost of the pipes (no pytest start-up to
  amortise), so its ratio is the worst case.

To compare two versions of the grader in one session, run the bench from each
checkout in turn, per variation, with ``PYTHONPATH`` set to that checkout (the
hidden suite's subprocess imports ``grader`` from there too)::

    for v in scorpion indian; do for tree in /tmp/before /tmp/after; do
        PYTHONPATH=$tree .venv/bin/python $tree/bench/sandbox_bench.py --runs 5 $v; done; done

A script, not a test: the numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import logging
import math
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cpu_group import CpuCounter  # noqa: E402 - bench/ is the script's directory

from grader.grade import grade_submission, graded_traces, replay_all  # noqa: E402
from grader.sandbox import Limits, active_isolation, sandbox_factory  # noqa: E402
from grader.traces.build import HIDDEN_ROOT  # noqa: E402
from solitaire import catalog  # noqa: E402
from solitaire.protocol import LocalWorker, Worker  # noqa: E402

GOAL = 1.3
BENCH_LIMITS = Limits(wall_s=3600.0)  # the bench measures, it does not police


class Counting(Worker):
    """Counts the round trips to a worker (a batch of requests is one)."""

    def __init__(self, inner: Worker, counter: list[int]) -> None:
        self.inner = inner
        self.counter = counter

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.counter[0] += 1
        return self.inner.request(message)

    def close(self) -> None:
        self.inner.close()


def _timed(action: Callable[[], object], cpu: CpuCounter) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``action``."""
    started, used = time.perf_counter(), cpu.seconds()
    action()
    return time.perf_counter() - started, cpu.seconds() - used


def _submission(name: str, holder: Path) -> Path:
    directory = holder / f"{name}-submission"
    directory.mkdir(exist_ok=True)
    shutil.copy(ROOT / "reference" / f"{name}.py", directory / f"{name}.py")
    return directory


def replay_pair(name: str, holder: Path) -> tuple[Callable[[], object], Callable[[], object], list[int]]:
    traces = graded_traces(name)
    variation = catalog.load(name)
    rules = _submission(name, holder) / f"{name}.py"
    counter = [0]

    def local() -> object:
        return replay_all(traces, lambda: Counting(LocalWorker(variation), counter))

    def sandboxed() -> object:
        factory = sandbox_factory(rules, BENCH_LIMITS)
        try:  # as the hidden suite does: one worker for every trace (each starts with start or load)
            summary = replay_all(traces, factory())
        finally:
            factory.close()
        passed = sum(p for p, _t in summary.counts.values())
        total = sum(t for _p, t in summary.counts.values())
        if passed != total:
            raise SystemExit(f"{name}: the reference failed {total - passed} checks in the sandbox")
        return summary

    return local, sandboxed, counter


def grade_pair(name: str, holder: Path) -> tuple[Callable[[], object], Callable[[], object], list[int]]:
    submission = _submission(name, holder)

    def run(worker: str) -> object:
        out = Path(tempfile.mkdtemp(dir=holder, prefix=f"out-{worker}-"))
        results = grade_submission(submission, name, out, worker=worker)
        # the tests' points are floats (each rule's share): their sum may be 100.00000000000001
        if not math.isclose(results["score"], sum(t["max_score"] for t in results["tests"]), abs_tol=1e-6):
            raise SystemExit(f"{name}: the reference did not get full marks with worker {worker}")
        return results

    return (lambda: run("local")), (lambda: run("sandbox")), [0]


@dataclass
class Figures:
    local: float  # median wall seconds
    sandbox: float
    ratio: float  # median of the per-run wall ratios
    ratios: list[float]
    cpu_ratio: float  # median of the per-run CPU ratios
    requests: int | None


def measure(pair: Callable, name: str, runs: int, holder: Path, cpu: CpuCounter) -> Figures:
    local, sandboxed, counter = pair(name, holder)
    local()  # warm-up: imports, the engine copy, the isolation probe
    sandboxed()
    counter[0] = 0
    local_runs, sandbox_runs = [], []
    for _ in range(runs):
        local_runs.append(_timed(local, cpu))
        sandbox_runs.append(_timed(sandboxed, cpu))
    ratios = [s[0] / loc[0] for s, loc in zip(sandbox_runs, local_runs, strict=True)]
    cpu_ratios = [s[1] / loc[1] for s, loc in zip(sandbox_runs, local_runs, strict=True)]
    return Figures(
        local=statistics.median(r[0] for r in local_runs),
        sandbox=statistics.median(r[0] for r in sandbox_runs),
        ratio=statistics.median(ratios),
        ratios=ratios,
        cpu_ratio=statistics.median(cpu_ratios),
        requests=counter[0] // runs if counter[0] else None,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variations", nargs="*", help="default: every variation with hidden traces")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mode", choices=("grade", "replay", "both"), default="both")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    names = args.variations or sorted(p.name for p in HIDDEN_ROOT.iterdir() if p.is_dir())
    modes = ["grade", "replay"] if args.mode == "both" else [args.mode]
    print(active_isolation().describe())
    cpu = CpuCounter()
    if not cpu.complete:
        print("cpu: no cgroup of the bench's own (not root?): the sandboxes' CPU is not counted")
    print(f"{'variation':<18}{'workload':<8}{'local s':>9}{'sandbox s':>11}{'ratio':>7}{'cpu':>6}"
          "  per-run wall ratios")
    try:
        worst = _run(names, modes, args.runs, cpu)
    finally:
        cpu.close()
    if "grade" in modes:
        verdict = "meets" if worst <= GOAL else "misses"
        print(f"worst grade ratio {worst:.2f}: {verdict} the goal of {GOAL}x")
    return 0


def _run(names: list[str], modes: list[str], runs: int, cpu: CpuCounter) -> float:
    """Measure and print each row; the worst grade ratio."""
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-") as temporary:
        holder = Path(temporary)
        for name in names:
            for mode in modes:
                pair = grade_pair if mode == "grade" else replay_pair
                result = measure(pair, name, runs, holder, cpu)
                ratios = " ".join(f"{r:.2f}" for r in result.ratios)
                requests = f"  ({result.requests} round trips)" if result.requests else ""
                print(f"{name:<18}{mode:<8}{result.local:>9.2f}{result.sandbox:>11.2f}"
                      f"{result.ratio:>7.2f}{result.cpu_ratio:>6.2f}  {ratios}{requests}", flush=True)
                if mode == "grade":
                    worst = max(worst, result.ratio)
    return worst


if __name__ == "__main__":
    sys.exit(main())
