"""A ``course grade`` and a ``course export`` with nothing to do, in two checkouts side by side.

    .venv/bin/python bench/noop_bench.py COURSE BEFORE AFTER --runs 5

COURSE: a course directory already collected and graded (``solitaire demo``
leaves one). BEFORE and AFTER: two checkouts of the project (for instance
``git archive`` of two commits); each command runs as ``python -m solitaire``
with ``PYTHONPATH`` set to the checkout, on its own copy of COURSE, so that
one checkout's writes never change what the other finds. One warm-up run per
checkout grades what is missing; every timed ``course grade`` must then say
``0 graded``. The timed runs alternate (before, after, before, ...) so that
both see the same load on a shared machine; the figures are medians of wall
and CPU seconds (the command and its children) and the median of the per-run
ratios before / after. A script, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = {"grade": ["course", "grade"], "export": ["course", "export"]}


def run(checkout: Path, course: Path, command: list[str]) -> tuple[float, float, str]:
    """(wall s, CPU s, stdout) of ``python -m solitaire COMMAND COURSE`` in ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    # cwd too: ``python -m`` puts the current directory first on sys.path, before PYTHONPATH
    done = subprocess.run([sys.executable, "-m", "solitaire", *command, str(course)], env=env,
                          cwd=checkout, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed in {checkout}:\n{done.stderr}")
    return wall, cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("course", type=Path)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="noop-bench-"))
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    courses = {}
    for side, checkout in sides.items():
        courses[side] = Path(shutil.copytree(args.course, work / side, symlinks=True))
        run(checkout, courses[side], COMMANDS["grade"])  # warm-up: grades what is missing
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(args.runs):
        for name, command in COMMANDS.items():
            for side, checkout in sides.items():
                wall, cpu, out = run(checkout, courses[side], command)
                if name == "grade" and " 0 graded" not in f" {out}":
                    raise SystemExit(f"not a no-op run in {checkout}: {out.strip()}")
                times.setdefault((name, side), []).append((wall, cpu))
    print(f"load average {os.getloadavg()[0]:.1f}; {args.runs} runs each; medians")
    for name in COMMANDS:
        before, after = times[(name, "before")], times[(name, "after")]
        ratio = statistics.median(b[0] / a[0] for b, a in zip(before, after, strict=True))
        print(f"course {name}: wall {statistics.median(t[0] for t in before):.2f} s -> "
              f"{statistics.median(t[0] for t in after):.2f} s (before/after {ratio:.1f}x); "
              f"CPU {statistics.median(t[1] for t in before):.2f} s -> "
              f"{statistics.median(t[1] for t in after):.2f} s; after, every run: "
              + ", ".join(f"{t[0]:.2f}" for t in after))
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
