"""``solitaire course return``: the command line of :mod:`grader.course.feedback_return`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from solitaire import cli

ATTENTION = 1


def add_parser(steps: Any, step: Any) -> None:
    """Add the ``return`` step; ``step`` is cli_course's helper that adds the DIR argument."""
    p = step(steps, "return", "push each student's feedback to a feedback branch of their repo",
             "Commit feedback/<student>/feedback.html (when present) and feedback.md into each\n"
             "student's repo on the feedback branch ([return] branch of course.toml, default\n"
             "'feedback') and push it. The branch holds only feedback (an orphan branch, one\n"
             "commit per round, the message naming the graded commit); the student's main\n"
             "branch and every other branch are never fetched nor written. A rerun with the\n"
             "same feedback commits nothing; new feedback (a regrade) adds a commit on top.\n"
             "results.json stays with the instructor (the grader's machine format).\n"
             "Students without a repo, without feedback or unreachable are listed at the end\n"
             "(exit status 1 when feedback that exists or should exist was not delivered).",
             ["solitaire course return", "solitaire course return --dry-run",
              "solitaire course return sol101 --branch grading-feedback"])
    p.add_argument("--branch", metavar="NAME", default=None,
                   help="the branch to commit feedback to (default: [return] branch of the course "
                        "file, else 'feedback'); never the submission branch")
    p.add_argument("--dry-run", action="store_true",
                   help="reach each repo and say what would be committed; push nothing")
    p.set_defaults(func=run_return)


def run_return(args: argparse.Namespace) -> int:
    from pathlib import Path

    from grader.course import config, feedback_return

    course = config.load(Path(args.directory))

    def progress(index: int, total: int, outcome: feedback_return.Returned) -> None:
        line = f"[{index}/{total}] {outcome.student}: {outcome.status}"
        print(line + (f" ({outcome.detail})" if outcome.detail else ""), file=sys.stderr, flush=True)

    report = feedback_return.return_feedback(course, branch=args.branch, dry_run=args.dry_run,
                                             progress=progress)
    _summary(report)
    return ATTENTION if report.attention else 0


def _summary(report: Any) -> None:
    """The counts, then a table of every student whose feedback did not reach their repo."""
    from rich.console import Console
    from rich.table import Table

    from grader.course.feedback_return import DONE, STATUSES

    counts = ", ".join(f"{report.count(s)} {s}" for s in STATUSES if report.count(s))
    print(f"feedback branch {report.branch!r}: {counts or 'no students'}")
    missed = [o for o in report.outcomes if o.status not in DONE]
    if missed:
        table = Table(title="Not returned", title_justify="left")
        for column in ("student", "status", "why", "needs you"):
            table.add_column(column)
        for outcome in missed:
            table.add_row(outcome.student, outcome.status, outcome.detail, "yes" if outcome.attention else "")
        Console(highlight=False, width=None if sys.stdout.isatty() else 160).print(table)
    if report.attention:
        cli.warn(f"{len(report.attention)} student(s) need attention: "
                 + ", ".join(f"{o.student} ({o.status})" for o in report.attention))
