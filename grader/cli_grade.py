"""The grading commands (registered through the ``solitaire.commands`` entry point).

::

    solitaire grade SUBMISSION_DIR [--variation V] --out OUT [--worker sandbox|local]
    solitaire traces build [--variation V ...]
    solitaire traces check [--variation V ...]
    solitaire check-suite [V ...] [--jobs N] [--no-mutants] [--update-survivors]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from solitaire import cli
from solitaire.errors import UserError

from . import gate


def register(subparsers: Any) -> None:
    """Add ``grade``, ``traces build``, ``traces check`` and ``check-suite``."""
    grade = cli.add_command(
        subparsers, "grade", "grade one submission: results.json (Gradescope), feedback.md and .html",
        "Replay the hidden traces of the variation against SUBMISSION_DIR/<variation>.py\n"
        "in the sandbox and score it: each rule method's points (assignments/catalog.toml)\n"
        "are split among its tests, one per ruling it implements and one for random play;\n"
        "a test earns its share only when all its checks pass (docs/grading.md). Writes\n"
        "OUT/results.json in Gradescope's format (one test per method and ruling),\n"
        "OUT/feedback.md and OUT/feedback.html (the same feedback as a self-contained\n"
        "page, boards drawn as cards; OUT/feedback.json is their data). OUT must be new\n"
        "or empty.\n"
        "--worker local runs the code in the grader's own processes: for trusted code only.",
        ["solitaire grade ./alice --variation scorpion --out ./alice-results",
         "solitaire grade reference-copy/ --variation indian --out /tmp/out --worker local"],
    )
    grade.add_argument("submission", metavar="SUBMISSION_DIR", help="the directory holding <variation>.py")
    grade.add_argument("--variation", metavar="V", help="the variation (default: the one rules file found)")
    grade.add_argument("--out", metavar="OUT", required=True,
                       help="directory for results.json, feedback.md and feedback.html")
    grade.add_argument("--worker", choices=("sandbox", "local"),
                       help="sandbox (default) or local (trusted code only: runs it unsandboxed)")
    grade.add_argument("--allow-weak-sandbox", action="store_true",
                       help="grade even where only the weak sandbox layer (plain: no namespaces) works; "
                            "student code could then read world-readable files and use the network")
    grade.set_defaults(func=run_grade)

    traces = cli.add_command(
        subparsers, "traces", "build or check the traces of the hidden suite and the starters",
        "Traces are generated from the reference implementations, deterministically:\n"
        "'traces build' writes grader/traces/data/<V>/ (hidden) and starter/traces/<V>/\n"
        "(public); 'traces check' verifies the committed ones equal a fresh build.\n"
        "Both count the variations on stderr with the time left; every variation takes\n"
        "minutes (about 8 on 2 cores).",
        ["solitaire traces build", "solitaire traces build --variation scorpion",
         "solitaire traces check"],
    )
    commands = traces.add_subparsers(title="traces commands", metavar="COMMAND")
    for name, summary, func in (
        ("build", "regenerate the traces from the references", run_traces_build),
        ("check", "verify the committed traces equal a fresh build", run_traces_check),
    ):
        sub = cli.add_command(commands, name, summary)
        sub.add_argument("--variation", metavar="V", action="append", default=[],
                         help="only this variation (repeatable; default: all)")
        sub.set_defaults(func=func)
    traces.set_defaults(func=lambda args: _usage(traces))

    check = cli.add_command(
        subparsers, "check-suite", "measure the hidden suite: reference, starter, mutants",
        "For each variation: grade the reference (must be full marks), the starter (must\n"
        "be 0) and the independent implementation (full marks, where there is one) like a\n"
        "submission, then every AST mutant of the reference's solution regions and every\n"
        "catalogued student bug (grader/bugs/<V>.toml). The gate: every mutant detected\n"
        "(AST survivors only with a reason in grader/survivors/<V>.txt), each losing points\n"
        f"only in its own method and at least {gate.MIN_LOSS:.0%} of that method's points, a\n"
        f"median loss of {gate.MEDIAN_LOSS:.0%} or more per family, and constant answers earning\n"
        f"at most {gate.CONSTANT_MAX:g} points.\n"
        "Exit status 1 when a variation fails the gate (docs/grading.md, \"The quality gate\").\n"
        "Progress goes to stderr with an estimate of the time left: per family of mutants\n"
        "(per variation with --no-mutants). With mutants a variation takes minutes.",
        ["solitaire check-suite scorpion --jobs 2", "solitaire check-suite --no-mutants"],
    )
    check.add_argument("variations", metavar="V", nargs="*", help="variations (default: all)")
    check.add_argument("--jobs", type=int, default=None, metavar="N",
                       help="mutants graded at once (default: the number of CPUs)")
    check.add_argument("--no-mutants", action="store_true", help="skip the mutants (a and b only)")
    check.add_argument("--worker", choices=("sandbox", "local"),
                       help="worker for grading the reference and the starter (default: sandbox)")
    check.add_argument("--update-survivors", action="store_true",
                       help="rewrite grader/survivors/<V>.txt: reasons kept, new survivors marked")
    check.set_defaults(func=run_check_suite)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return cli.USER_ERROR_STATUS


def run_grade(args: argparse.Namespace) -> int:
    from .grade import grade_submission, submission_variation
    from .lifeline import grading_run

    submission = Path(args.submission)
    if not submission.is_dir():
        raise UserError(f"{submission} is not a directory")
    variation = args.variation or submission_variation(submission)
    if args.worker == "local":
        print("solitaire: warning: --worker local runs the submission without a sandbox; "
              "use it only for trusted code", file=sys.stderr)
    else:
        from .sandbox import layer_line, require_sandbox

        # fails closed (WeakSandboxRefused: one line, status 2) before anything is graded
        print(f"solitaire: {layer_line(require_sandbox(args.allow_weak_sandbox))}", file=sys.stderr)
    # a kill takes the hidden suite along; no temporary folder stays
    with grading_run("solitaire grade", f"nothing was written to {args.out}: run it again"):
        results = grade_submission(submission, variation, Path(args.out), worker=args.worker)
    maximum = sum(t["max_score"] for t in results["tests"])
    for test in results["tests"]:
        print(f"{test['score']:>7g} / {test['max_score']:<4g} {test['name']}")
    print(f"{results['score']:>7g} / {maximum:<4g} total -> {Path(args.out) / 'results.json'}")
    if results.get("extra_data", {}).get("internal_error"):
        print(f"solitaire: error: the hidden suite did not finish; see {Path(args.out) / 'grader-error.log'}",
              file=sys.stderr)
        return 1
    return 0


def run_traces_build(args: argparse.Namespace) -> int:
    from solitaire.progress import Progress

    from .traces.build import build_variation, names_or_all, write

    names = names_or_all(args.variation)
    with Progress("traces build", len(names), unit="variations") as progress:
        for name in names:
            kit = build_variation(name)
            write(kit)
            print(f"{name}: {len(kit.hidden)} hidden traces, {len(kit.public)} public", flush=True)
            progress.advance(note=name)
    return 0


def run_traces_check(args: argparse.Namespace) -> int:
    from solitaire.progress import Progress

    from .traces.build import build_variation, differences, names_or_all

    stale = []
    names = names_or_all(args.variation)
    with Progress("traces check", len(names), unit="variations") as progress:
        for name in names:
            found = differences(build_variation(name))
            stale += found
            print(f"{name}: {'current' if not found else f'{len(found)} files differ'}", flush=True)
            progress.advance(note=name)
    for line in stale:
        print(f"  {line}")
    if stale:
        print("solitaire: error: the committed traces are stale; run: solitaire traces build",
              file=sys.stderr)
        return 1
    return 0


def run_check_suite(args: argparse.Namespace) -> int:
    import contextlib

    from rich.console import Console

    from solitaire.progress import Progress

    from .check_suite import check_suite, render, write_reasons
    from .mutants import default_jobs
    from .traces.build import names_or_all

    jobs = args.jobs or default_jobs()
    if jobs < 1:
        raise UserError("--jobs must be at least 1")
    failed = 0
    names = names_or_all(args.variations)
    console = Console(stderr=True, highlight=False)
    # one count at a time on a terminal: of the variations without mutants, else of each family
    overall = Progress("check-suite", len(names), unit="variations", console=console) \
        if args.no_mutants else contextlib.nullcontext(None)
    with overall as shown:
        for name in names:
            report = check_suite(name, jobs=jobs, with_mutants=not args.no_mutants, worker=args.worker,
                                 progress=lambda text: console.print(text, markup=False, soft_wrap=True),
                                 console=None if args.no_mutants else console)
            print(render(report), flush=True)
            if args.update_survivors and report.outcomes:
                print(f"wrote {write_reasons(report)}")
            failed += not report.passed
            if shown is not None:
                shown.advance(note=name)
    return 1 if failed else 0
