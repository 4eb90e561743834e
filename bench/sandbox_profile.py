"""Where the sandbox's price of one submission goes: a timeline of a sandboxed grade, and its parts.

    .venv/bin/python bench/sandbox_profile.py scorpion indian --runs 3

For each variation (its reference copied as a submission), ``--runs`` times, alternating:

1. ``grade_submission`` with the in-process worker and with the sandbox, the hidden suite writing
   its timeline (``SOLITAIRE_SUITE_PROFILE``, :func:`grader.suite.plugin.mark`): the grading
   process before and after the suite, the suite's start until its plugin is imported, the
   sandbox factory (imports, checks, the submission's copy), collection, the wait for the
   first child, the traces, the wait for each next child (``fresh()``), closing;
2. the parts, measured alone in this process: starting the sandbox until the zygote's first
   child is ready (bwrap, the cgroup, Python, the engine import, the fork) and its load of the
   rules file; ``fresh()`` per trace; the hidden traces replayed through the sandbox (one
   child per trace) against the same replay in-process, which gives the cost of the pipes;
   an interpreter importing the engine on the host, for comparison.

Medians of the runs, in seconds. A script, not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from grader import grade  # noqa: E402
from grader.sandbox import Limits, sandbox_factory  # noqa: E402
from grader.suite.plugin import PROFILE_ENV, _TraceWorker  # noqa: E402
from solitaire import catalog  # noqa: E402
from solitaire.protocol import LocalWorker  # noqa: E402
from solitaire.replay import replay  # noqa: E402

LIMITS = Limits(wall_s=3600.0)


def _between(timeline: list[tuple[str, float]], first: str, then: str) -> float:
    """Seconds from the first ``first`` to the first ``then`` after it (0 if either is missing)."""
    start = next((t for e, t in timeline if e == first), None)
    if start is None:
        return 0.0
    end = next((t for e, t in timeline if e == then and t >= start), None)
    return 0.0 if end is None else end - start


def _pairs(timeline: list[tuple[str, float]], first: str, then: str) -> float:
    """The sum of the spans from each ``first`` to the next ``then``."""
    total, start = 0.0, None
    for event, moment in timeline:
        if event == first:
            start = moment
        elif event == then and start is not None:
            total, start = total + moment - start, None
    return total


def grade_timeline(name: str, submission: Path, worker: str, holder: Path) -> dict[str, float]:
    """One grade with the suite's timeline: the phases in seconds."""
    profile = holder / f"timeline-{worker}.json"
    out = Path(tempfile.mkdtemp(dir=holder, prefix=f"out-{worker}-"))
    suite: dict[str, float] = {}
    run_suite = grade.run_suite

    def timed_suite(*args, **kwargs):  # type: ignore[no-untyped-def]
        suite["start"] = time.time()
        try:
            return run_suite(*args, **kwargs)
        finally:
            suite["end"] = time.time()

    os.environ[PROFILE_ENV] = str(profile)
    grade.run_suite = timed_suite
    started = time.time()
    try:
        results = grade.grade_submission(submission, name, out, worker=worker)
    finally:
        grade.run_suite = run_suite
        del os.environ[PROFILE_ENV]
    ended = time.time()
    if results["score"] < sum(t["max_score"] for t in results["tests"]) - 1e-6:
        raise SystemExit(f"{name}: the reference did not get full marks with worker {worker}")
    timeline = [(e, t) for e, t in json.loads(profile.read_text())]
    events = dict(reversed(timeline))  # the first time of each event
    phases = {
        "whole grade": ended - started,
        "before the suite": suite["start"] - started,
        "suite: start until the plugin is imported": events["plugin imported"] - suite["start"],
        "suite: factory before pytest (suite.run)": _between(timeline, "suite started", "factory made"),
        "suite: factory (imports, checks, copy)": _between(timeline, "configure", "factory made"),
        "suite: configure until collected": _between(timeline, "configure", "collected"),
        "suite: collected until the first trace": _between(timeline, "collected", "trace begins"),
        "suite: waiting for the first child": _between(timeline, "child asked", "child ready"),
        "suite: traces (first begins .. last ends)": (
            [t for e, t in timeline if e == "trace ends"][-1] - events["trace begins"]),
        "suite: replaying (sum over traces)": _pairs(timeline, "trace begins", "trace ends"),
        "suite: waiting for the next children": _pairs(timeline, "child asked", "child ready")
        - _between(timeline, "child asked", "child ready"),
        "suite: between traces (pytest)": _pairs(timeline, "trace ends", "trace begins"),
        "suite: closing the sandbox": _between(timeline, "closing", "closed"),
        "suite: results written until exit": suite["end"] - dict(timeline)["results written"],
        "after the suite (scoring, files)": ended - suite["end"],
    }
    return phases


def parts(name: str, submission: Path) -> dict[str, float]:
    """The sandbox's parts measured alone in this process (one run)."""
    rules = submission / f"{name}.py"
    traces = grade.graded_traces(name)
    variation = catalog.load(name)
    found: dict[str, float] = {}
    started = time.perf_counter()
    factory = sandbox_factory(rules, LIMITS)
    found["factory (rules checked, engine copied)"] = time.perf_counter() - started
    try:
        worker = factory()
        started = time.perf_counter()
        worker.launch()
        found["launch: sandbox up, first child loaded"] = time.perf_counter() - started
        fresh = []
        for _ in traces:
            started = time.perf_counter()
            worker.fresh()
            fresh.append(time.perf_counter() - started)
        found["fresh() median (ms)"] = 1000 * statistics.median(fresh)
        found[f"fresh() x {len(traces)} traces"] = sum(fresh)
        dead: set[str] = set()
        replayed = 0.0
        for trace in traces:
            worker.fresh()
            started = time.perf_counter()
            mask = worker.colocate()  # as the suite does (grader/sandbox/affinity.py)
            for _check in replay(trace, lambda m=mask: _TraceWorker(worker, mask=m), dead=dead):
                pass
            replayed += time.perf_counter() - started
        found["replay through the sandbox (no fresh)"] = replayed
    finally:
        factory.close()
    started = time.perf_counter()
    dead = set()
    for trace in traces:
        for _check in replay(trace, lambda: LocalWorker(type(variation)()), dead=dead):
            pass
    found["replay in-process"] = time.perf_counter() - started
    found["the pipes (difference)"] = (found["replay through the sandbox (no fresh)"]
                                       - found["replay in-process"])
    started = time.perf_counter()
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); import solitaire.catalog, solitaire.protocol"
    subprocess.run([sys.executable, "-I", "-S", "-B", "-c", code], check=True)
    found["host: python -I -S + engine import"] = time.perf_counter() - started
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variations", nargs="+")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory(prefix="sandbox-profile-") as temporary:
        holder = Path(temporary)
        for name in args.variations:
            submission = holder / f"{name}-submission"
            submission.mkdir()
            shutil.copy(ROOT / "reference" / f"{name}.py", submission / f"{name}.py")
            grade_timeline(name, submission, "sandbox", holder)  # warm-up (probe, engine template)
            runs: dict[str, list[dict[str, float]]] = {"local": [], "sandbox": []}
            alone: list[dict[str, float]] = []
            for _ in range(args.runs):
                for worker in ("local", "sandbox"):
                    runs[worker].append(grade_timeline(name, submission, worker, holder))
                alone.append(parts(name, submission))
            print(f"\n{name}: grade timeline, median of {args.runs} (s)   local   sandbox")
            for phase in runs["sandbox"][0]:
                local = statistics.median(r[phase] for r in runs["local"])
                sandboxed = statistics.median(r[phase] for r in runs["sandbox"])
                print(f"  {phase:<46}{local:>8.3f}{sandboxed:>10.3f}")
            print(f"{name}: the parts alone, median of {args.runs} (s)")
            for part in alone[0]:
                print(f"  {part:<46}{statistics.median(a[part] for a in alone):>8.3f}")
            print(f"  load average now {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
