"""Two versions of the sandboxed grade side by side: alternating pairs, each side's medians and
the median of the pairs' ratios.

    .venv/bin/python bench/grade_pairs.py --pairs 8 --a-tree /tmp/before --b-tree . scorpion indian
    .venv/bin/python bench/grade_pairs.py --pairs 6 --a-env SOLITAIRE_SUITE_AHEAD=0 scorpion

Each grade is the reference of the variation copied as a submission and graded through the
sandbox by :func:`grader.grade.run_suite` (the hidden suite in its subprocess, as ``solitaire
grade`` runs it), in a fresh interpreter started in that side's checkout with ``PYTHONPATH`` set
to it, and with that side's extra environment. The two sides alternate (A, B, A, B ...), so a
machine that slows down or speeds up during the run touches both alike; the ratio of each pair
(B / A) is the figure least disturbed by a noisy host. CPU is the grade's subprocesses', as
``getrusage(RUSAGE_CHILDREN)`` counts them (the sandboxes' processes are reaped below them).
Both sides must grade the same (the passed checks are compared).

A script, not a test: the numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: run in each side's checkout: grade the reference once, print "wall cpu passed"
ONE_GRADE = r"""
import resource, shutil, sys, tempfile, time
from pathlib import Path
from grader.grade import run_suite
name = sys.argv[1]
tmp = Path(tempfile.mkdtemp())
try:
    sub = tmp / "sub"; sub.mkdir(); work = tmp / "work"; work.mkdir()
    (sub / f"{name}.py").write_text(Path(f"reference/{name}.py").read_text())
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    counts, output = run_suite(sub / f"{name}.py", name, "sandbox", work, 600.0, 60.0)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if counts is None:
        sys.exit("no counts: " + output[-400:])
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    passed = sum(p for cells in counts["cells"].values() for p, _ in cells.values())
    print(f"{wall:.4f} {cpu:.4f} {passed}")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
"""


@dataclass
class Side:
    """One version of the grade: its checkout and the environment it adds."""

    label: str
    tree: Path
    env: dict[str, str]

    def grade(self, variation: str) -> tuple[float, float, int]:
        env = {**os.environ, **self.env, "PYTHONPATH": str(self.tree)}
        done = subprocess.run([sys.executable, "-c", ONE_GRADE, variation], cwd=self.tree, env=env,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{self.label} ({self.tree}) could not grade {variation}: "
                             f"{done.stderr.strip()[-400:]}")
        wall, cpu, passed = done.stdout.split()
        return float(wall), float(cpu), int(passed)


def summary(pairs: list[tuple[tuple[float, float, int], tuple[float, float, int]]]) -> dict[str, float]:
    """Medians of each side's wall and CPU, the ratio of the wall medians (B / A) and the median of
    the pairs' wall ratios."""
    return {
        "a_wall": statistics.median(a[0] for a, _ in pairs),
        "b_wall": statistics.median(b[0] for _, b in pairs),
        "ratio": statistics.median(b[0] for _, b in pairs) / statistics.median(a[0] for a, _ in pairs),
        "pairs": statistics.median(b[0] / a[0] for a, b in pairs),
        "a_cpu": statistics.median(a[1] for a, _ in pairs),
        "b_cpu": statistics.median(b[1] for _, b in pairs),
    }


def _env(items: list[str]) -> dict[str, str]:
    env = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise SystemExit(f"--a-env/--b-env take NAME=VALUE, not {item!r}")
        env[name] = value
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variations", nargs="+")
    parser.add_argument("--pairs", type=int, default=6, help="alternating pairs per variation (default 6)")
    parser.add_argument("--a-tree", type=Path, default=ROOT, help="side A's checkout (default: this one)")
    parser.add_argument("--b-tree", type=Path, default=ROOT, help="side B's checkout (default: this one)")
    parser.add_argument("--a-env", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--b-env", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    for tree in (args.a_tree, args.b_tree):
        if not (tree / "grader" / "grade.py").is_file():
            parser.error(f"{tree} is not a checkout of this project")
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    sides = (Side("A", args.a_tree.resolve(), _env(args.a_env)),
             Side("B", args.b_tree.resolve(), _env(args.b_env)))
    print(f"A: {sides[0].tree} {sides[0].env or ''}\nB: {sides[1].tree} {sides[1].env or ''}")
    print("| variation | A wall s | B wall s | B / A | pairs | A CPU s | B CPU s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for variation in args.variations:
        pairs = []
        for index in range(args.pairs):
            a, b = sides[0].grade(variation), sides[1].grade(variation)
            if a[2] != b[2]:
                raise SystemExit(f"{variation}: A passed {a[2]} checks, B {b[2]}: not the same grade")
            pairs.append((a, b))
            print(f"  {variation} pair {index + 1}/{args.pairs}: A {a[0]:.2f} s, B {b[0]:.2f} s",
                  file=sys.stderr, flush=True)
        s = summary(pairs)
        print(f"| {variation} | {s['a_wall']:.2f} | {s['b_wall']:.2f} | {s['ratio']:.2f} | {s['pairs']:.2f} "
              f"| {s['a_cpu']:.2f} | {s['b_cpu']:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
