"""Class grading throughput: the real sandboxed grader over many submissions.

    .venv/bin/python bench/class_bench.py --students 200                   # a whole course, end to end
    .venv/bin/python bench/class_bench.py --submissions 12                 # the grader alone, jobs 1 and 2
    .venv/bin/python bench/class_bench.py --submissions 24 --jobs 2 --mix reference
    .venv/bin/python bench/class_bench.py --submissions 12 --jobs 2 --worker both   # the sandbox's price

``--students N`` (the course mode, :mod:`class_course`): a course of N
simulated students with the demo's mix (``grader.course.demo``: references,
realistic bugs, a partial solution, the untouched starter, a late push, a
student who never pushes, a push to the wrong branch, a cheat), built on local
bare repositories the way ``solitaire demo`` builds it (init, assign, publish,
the students' pushes, collect), then graded by the command itself,
``solitaire course grade DIR --jobs J``, in a subprocess whose wall time is
the figure. Its last line names the time of each phase of the run.

``--submissions N`` (the grader alone):

builds N submission directories round robin over the variations that have
hidden traces and over ``--mix`` (``reference``: the reference copied;
``starter``: the untouched starter, every rule a stub: every request fails,
the slowest honest submission), then grades them exactly as ``solitaire
course grade`` does in its worker processes: a process pool of ``--jobs``
*spawned* processes, each running :func:`grader.course.worker.grade_one` with
the ``sandbox`` grader (:func:`grader.grade.grade_submission`: hidden suite in
its pytest subprocess, sandboxed worker, scoring, results.json). What the
course path adds on top, in its parent process (writing the results store and
the gradebook), is not measured here.

``--worker local`` grades the same submissions with the in-process worker
(trusted code only: the bench's references and starters), ``--worker both``
runs local then sandbox for each ``--jobs`` value and prints the ratio of
their wall times, the sandbox's price on a class, and of their CPU seconds
(everything the bench started, the sandboxes' processes included: a cgroup of
the bench's own, ``bench/cpu_group.py``; "cpu s" is "-" without one).

Reports wall seconds, submissions per minute and the projected time for
``--project`` submissions (linear: the pool keeps every core busy for a whole
class). A script, not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cpu_group import CpuCounter  # noqa: E402 - bench/ is the script's directory

from grader.course.worker import (  # noqa: E402
    GradeOutcome,
    GradeTask,
    grade_one,
    sandboxes_per_submission,
    start_pool_process,
)
from grader.grade import grade_submission  # noqa: E402
from grader.traces.build import HIDDEN_ROOT  # noqa: E402

MIXES = ("reference", "starter")


def build(count: int, mix: list[str], holder: Path) -> list[GradeTask]:
    """``count`` submissions round robin over variations and ``mix``; their grading tasks."""
    names = sorted(p.name for p in HIDDEN_ROOT.iterdir() if p.is_dir())
    tasks = []
    for index in range(count):
        name = names[index % len(names)]
        kind = mix[(index // len(names)) % len(mix)]
        source = ROOT / kind / f"{name}.py"
        directory = holder / f"s{index:03d}-{kind}-{name}"
        directory.mkdir(parents=True)
        shutil.copy(source, directory / f"{name}.py")
        tasks.append(GradeTask(directory.name, "bench", name, f"{index:040d}", "bench", "sandbox",
                               str(directory), str(holder / "out" / directory.name), 1200.0, {}))
    return tasks


def grade_local(task: GradeTask) -> GradeOutcome:
    """:func:`grade_one` with the in-process worker instead of the sandbox (``--worker local``:
    the bench's own trusted submissions only), for the sandbox's price on a class."""
    started = time.monotonic()
    out = Path(task.out_dir)
    try:
        out.mkdir(parents=True)
        results = grade_submission(Path(task.submission), task.variation, out, worker="local",
                                   timeout=task.timeout, points=task.points)
        return GradeOutcome(task, results, "", time.monotonic() - started)
    except Exception as error:  # noqa: BLE001 - as grade_one
        return GradeOutcome(task, None, f"{type(error).__name__}: {error}", time.monotonic() - started)


def grade_all(tasks: list[GradeTask], jobs: int, worker: str = "sandbox") -> tuple[float, list[GradeOutcome]]:
    """Grade ``tasks`` in a pool of ``jobs`` spawned processes (as ``course grade``); wall seconds.
    ``worker``: ``sandbox`` (:func:`grade_one`, the real grader) or ``local`` (:func:`grade_local`)."""
    context = multiprocessing.get_context("spawn")
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=start_pool_process,
                             initargs=(os.getpid(), sandboxes_per_submission(jobs))) as pool:
        outcomes = list(pool.map(grade_one if worker == "sandbox" else grade_local, tasks))
    return time.perf_counter() - started, outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=None,
                        help="course mode: a course of this many simulated students, graded by "
                             "`solitaire course grade` (see the module docstring)")
    parser.add_argument("--dir", default=None, help="course mode: the course directory (new or empty; "
                        "default: a temporary one, removed at the end)")
    parser.add_argument("--prepared", default=None, metavar="DIR",
                        help="course mode: grade the course already built and collected in DIR")
    parser.add_argument("--build-only", action="store_true",
                        help="course mode: build and collect the course in --dir, do not grade it "
                             "(grade it later with --prepared DIR)")
    parser.add_argument("--submissions", type=int, default=12, help="how many submissions (default 12)")
    parser.add_argument("--jobs", type=int, action="append", help="pool size; repeat (default: 1 and 2)")
    parser.add_argument("--mix", default="reference,starter",
                        help="comma-separated kinds, round robin: reference, starter")
    parser.add_argument("--project", type=int, default=200, help="project the time of this many")
    parser.add_argument("--worker", choices=("sandbox", "local", "both"), default="sandbox",
                        help="the grader's worker: sandbox (default, as course grade), local (in-process, "
                             "the bench's trusted submissions only) or both, alternating per --jobs "
                             "value (local first) with the sandbox / local ratio of the wall times")
    args = parser.parse_args(argv)
    if args.students is not None or args.prepared is not None:
        from class_course import run_course

        if args.students is not None and args.students < 1:
            parser.error("--students must be at least 1")
        if args.build_only and (args.dir is None or args.students is None):
            parser.error("--build-only needs --students and --dir")
        jobs = (args.jobs or [2])[-1]
        return run_course(args.students, jobs, args.dir, args.prepared, grading=not args.build_only)
    mix = [kind.strip() for kind in args.mix.split(",") if kind.strip()]
    if not mix or any(kind not in MIXES for kind in mix):
        parser.error(f"--mix takes kinds among {', '.join(MIXES)}")
    jobs_list = args.jobs or [1, 2]
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {args.submissions} submissions, "
          f"mix {'/'.join(mix)}")
    workers = ["local", "sandbox"] if args.worker == "both" else [args.worker]
    print(f"{'worker':>7} {'jobs':>4} {'wall s':>8} {'cpu s':>7} {'per sub s':>10} {'sub/min':>8} "
          f"{'median grade s':>15} {'max grade s':>12} {'projected ' + str(args.project):>15}")
    cpu = CpuCounter()
    try:
        _grade_runs(args, mix, jobs_list, workers, cpu)
    finally:
        cpu.close()
    return 0


def _grade_runs(args: argparse.Namespace, mix: list[str], jobs_list: list[int], workers: list[str],
                cpu: CpuCounter) -> None:
    """The grader-alone mode's runs, a line each (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="class-bench-") as temporary:
        for jobs in jobs_list:
            walls: dict[str, float] = {}
            cpus: dict[str, float] = {}
            for worker in workers:
                holder = Path(temporary) / f"{worker}-jobs{jobs}"
                tasks = build(args.submissions, mix, holder)
                used = cpu.seconds()
                wall, outcomes = grade_all(tasks, jobs, worker)
                walls[worker], cpus[worker] = wall, cpu.seconds() - used
                shown = f"{cpus[worker]:>7.1f}" if cpu.complete else f"{'-':>7}"
                failed = [o for o in outcomes if o.results is None]
                for outcome in failed:
                    print(f"  {outcome.task.student}: grading failed: {outcome.error}")
                seconds = [o.seconds for o in outcomes]
                per = wall / len(tasks)
                projected = per * args.project
                median = statistics.median(seconds)
                print(f"{worker:>7} {jobs:>4} {wall:>8.1f} {shown} {per:>10.2f} {60 / per:>8.1f} "
                      f"{median:>15.2f} {max(seconds):>12.2f} {projected / 60:>11.1f} min", flush=True)
                for kind in mix:
                    mine = [o.seconds for o in outcomes if f"-{kind}-" in o.task.student]
                    if mine:
                        print(f"       {kind}: median {statistics.median(mine):.2f} s per submission "
                              f"({len(mine)} graded)")
            if len(walls) == 2:
                cpu_ratio = f", cpu {cpus['sandbox'] / cpus['local']:.2f}" if cpu.complete else ""
                print(f"       jobs {jobs}: sandbox / local wall {walls['sandbox'] / walls['local']:.2f}"
                      f"{cpu_ratio}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
