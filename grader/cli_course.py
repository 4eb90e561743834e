"""The ``solitaire course`` and ``solitaire demo`` commands (entry point ``solitaire.commands``).

::

    solitaire course init DIR [--id ID] [--deadline ISO] ...   a new course directory
    solitaire course assign [DIR]                             a variation per student
    solitaire course publish [DIR]                            one repo per student
    solitaire course collect [DIR]                            the submissions at the deadline
    solitaire course grade [DIR] [--jobs N] [--regrade]       grade the class
    solitaire course grade [DIR] --backend celery [--broker URL]   ... on a Celery worker pool
    solitaire course worker [--broker URL] [--concurrency N]  a Celery grading worker
    solitaire course export [DIR] [--out CSV] [--gradescope ZIP]
    solitaire course report [DIR] [--out PATH]                the class report (HTML) and the grade CSVs
    solitaire course return [DIR] [--branch NAME] [--dry-run]   feedback to each student's repo
    solitaire demo [--dir DIR] [--students N]                 all of it on a simulated class

Exit status: 0 when everything went through; 1 when the step was carried out
but some students or lines need attention (each named in a message); 2 for a
mistake that stops the step (a bad course file, a malformed roster ...).
A student needs attention when the course could not reach or grade their
work (collect: ``missing``, ``unreachable``; grade: grading failed; export:
those and ``not-collected``, ``not-graded``); a student's own outcome
(not submitted, wrong branch, late) is reported but exits 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from solitaire import cli
from solitaire.errors import UserError

ATTENTION = 1


def register(subparsers: Any) -> None:
    """Add ``course`` (with its steps) and ``demo`` to the ``solitaire`` parser."""
    group = cli.add_command(
        subparsers, "course", "run a course: assign, publish, collect, grade, export",
        "The instructor's workflow on local defaults (bare git repos on disk, a SQLite\n"
        "gradebook). Each step reads and writes the course directory (default: the\n"
        "current one). docs/instructor-guide.md walks through a whole term.",
        ["solitaire course init sol101 --deadline 2025-03-14T23:59:00+01:00",
         "cd sol101 && solitaire course assign && solitaire course publish",
         "solitaire course collect && solitaire course grade --jobs 2 && solitaire course export"],
    )
    steps = group.add_subparsers(title="course steps", metavar="STEP")
    group.set_defaults(func=lambda args: _usage(group))

    p = cli.add_command(
        steps, "init", "create a course directory (course.toml, example roster)",
        "Write DIR/course.toml (course id, assignment, approved variations, seed, deadline\n"
        "with time zone, late policy, remote URL template, gradebook URL), an example\n"
        "DIR/roster.csv and an empty DIR/approvals.csv. Edit them, then run assign.\n"
        "Prints how winnable each approved variation is per option value, as the solver\n"
        "measured it (docs/winnability.md), and warns about a setting no deal was won with.",
        ["solitaire course init sol101",
         "solitaire course init sol101 --deadline 2025-03-14T23:59:00+01:00 --seed 7"],
    )
    p.add_argument("directory", metavar="DIR", help="the course directory to create")
    p.add_argument("--id", default="solitaire-lab", help="course id (default: solitaire-lab)")
    p.add_argument("--assignment", default="solitaire", help="assignment name (default: solitaire)")
    p.add_argument("--seed", type=int, default=2025, help="seed of the random assignment (default: 2025)")
    p.add_argument("--deadline", help="ISO date-time with time zone, e.g. 2025-03-14T23:59:00+01:00")
    p.add_argument("--variations", help="comma-separated approved variations (default: the catalog's)")
    p.add_argument("--remote", default=None,
                   help="remote URL template with {student} (default: a local bare repo per student)")
    p.add_argument("--github-classroom", metavar="EXPORT.csv",
                   help="GitHub Classroom: the roster export of the classroom (students keyed by GitHub "
                        "username); needs --org and --prefix; publish then commits each starter into the "
                        "student's Classroom repo, and receive times come from GitHub's API")
    p.add_argument("--org", help="with --github-classroom: the GitHub organisation of the classroom")
    p.add_argument("--prefix", help="with --github-classroom: the assignment's repository prefix "
                                    "(repos are ORG/PREFIX-USERNAME)")
    p.set_defaults(func=run_init)

    p = _step(steps, "assign", "give each student of the roster a variation",
              "Read roster.csv (id,name,email) and approvals.csv (id,variation); write\n"
              "assignments.csv. Balanced and reproducible from the seed; students already\n"
              "assigned keep their variation, new students fill the least-used ones.",
              ["solitaire course assign", "solitaire course assign sol101"])
    p.set_defaults(func=run_assign)

    p = _step(steps, "publish", "create and push one repo per assigned student",
              "Generate each student's repo from the starter of their variation, commit it\n"
              "and push it to the student's remote (a local bare repo is created when the\n"
              "template is local). Students already published are skipped.",
              ["solitaire course publish"])
    p.set_defaults(func=run_publish)

    p = _step(steps, "collect", "fetch every repo and pick the commit to grade",
              "Fetch every student repo, record when each commit was first seen (ledger.json),\n"
              "pick the last push received before the deadline or per the late policy, and\n"
              "write collected.csv with the SHA, receive time, lateness and penalty, or the\n"
              "reason there is nothing to grade. Receive times come from the host ([remote] host:\n"
              "local reflogs, a server's push log, GitHub's activity API) and from each\n"
              "repository's own fetch time.",
              ["solitaire course collect", "solitaire course collect --dry-run"])
    p.add_argument("--dry-run", action="store_true",
                   help="print the fetches and host requests (GitHub API calls) a collect would make; "
                        "change nothing")
    p.set_defaults(func=run_collect)

    p = _step(steps, "grade", "grade every collected submission, in parallel",
              "Grade each collected submission with the sandboxed grader in a process pool,\n"
              "store results by (student, assignment, SHA, grader version) and fill the\n"
              "nbgrader gradebook. A rerun grades only what is missing. --dry-run (and any\n"
              "run of --grader static) grades into DIR/.work/dry-run/<run>/ instead and leaves\n"
              "the course's feedback, results, gradebook and grades.csv as they are.",
              ["solitaire course grade --jobs 2", "solitaire course grade --regrade",
               "solitaire course grade --dry-run --grader static",
               "solitaire course grade --backend celery --broker redis://127.0.0.1:6379/0"])
    p.add_argument("--jobs", type=int, default=None, help="parallel graders (default: the course file's)")
    p.add_argument("--regrade", action="store_true", help="grade again even when a result is stored")
    p.add_argument("--grader", default="sandbox", metavar="NAME",
                   help="sandbox (default): the real autograder; static: a structural check that runs "
                        "no student code (always a dry run); or package.module:function")
    p.add_argument("--dry-run", action="store_true",
                   help="grade everything into a new folder DIR/.work/dry-run/<run>/ (results, gradebook, "
                        "feedback, grades.csv); the course's own outputs are not touched")
    p.add_argument("--backend", choices=("local", "celery"), default="local",
                   help="local (default): a process pool on this machine; celery: Celery workers "
                        "through a Redis broker (start them with `solitaire course worker`)")
    p.add_argument("--broker", metavar="URL", default=None,
                   help="the Redis broker of --backend celery (default: [grading] broker of the "
                        "course file, else redis://127.0.0.1:6379/0)")
    p.add_argument("--allow-weak-sandbox", action="store_true",
                   help="grade even where only the weak sandbox layer (plain: no namespaces) works; "
                        "student code could then read world-readable files and use the network")
    p.set_defaults(func=run_grade)

    p = cli.add_command(
        steps, "worker", "run a Celery worker that grades for `course grade --backend celery`",
        "A Celery worker (prefork pool) on the grading queue of the Redis broker. It grades\n"
        "with the same sandboxed grader as the local pool, in a temporary folder of its own\n"
        "(the submission's rules file comes in the message), and sends the result and the\n"
        "feedback files back to `course grade`, which alone writes them into the course. It\n"
        "needs no course directory, only the same version of the project.\n"
        "Stop it with Ctrl-C (a grading in progress is finished or handed to another worker).",
        ["solitaire course worker --broker redis://127.0.0.1:6379/0 --concurrency 2"],
    )
    p.add_argument("--broker", metavar="URL", default=None,
                   help="the Redis broker (default: $SOLITAIRE_BROKER, else redis://127.0.0.1:6379/0)")
    p.add_argument("--concurrency", type=int, default=1, help="grading processes (default: 1)")
    p.add_argument("--name", default=None, help="the worker's node name (default: celery's, celery@HOST)")
    p.add_argument("--loglevel", default="INFO", help="celery's log level (default: INFO)")
    p.add_argument("--visibility-timeout", type=float, default=None, metavar="SECONDS",
                   help="hand a task out again this long after a worker took it without finishing (it "
                        "died); at least 1.5 x [grading] timeout + 65 (default: 965, for timeout = 600)")
    p.set_defaults(func=run_worker)

    p = _step(steps, "export", "write the grades CSV (and a Gradescope autograder zip)",
              "Write grades.csv (one row per student: status, grading status such as\n"
              "syntax-error or missing-file, SHA, raw score, late penalty, score) from the\n"
              "gradebook and print the gradebook. With --gradescope, also\n"
              "build an autograder zip for Gradescope.",
              ["solitaire course export", "solitaire course export --gradescope autograder.zip"])
    p.add_argument("--out", metavar="CSV", help="where to write the grades (default: DIR/grades.csv)")
    p.add_argument("--gradescope", metavar="ZIP", help="also build a Gradescope autograder zip")
    p.add_argument("--allow-weak-sandbox", action="store_true",
                   help="with --gradescope: let the autograder grade where only the weak sandbox layer "
                        "works (Gradescope's Docker may block namespaces); without it such a run refuses "
                        "to grade and tells the student the autograder failed")
    p.set_defaults(func=run_export)

    from grader.cli_report import register_report

    register_report(steps)

    from grader.cli_return import add_parser as add_return

    add_return(steps, _step)

    p = cli.add_command(
        subparsers, "demo", "run a whole simulated course end to end",
        "Build a course with simulated students in DIR (default: a new temporary folder,\n"
        "printed): assign, publish, push (reference solutions, the untouched starter,\n"
        "realistic bugs, a late push, a student who never pushes, a cheat), collect,\n"
        "grade in the sandbox and print the gradebook, where the feedback files are and the\n"
        "class report (`course report`).",
        ["solitaire demo", "solitaire demo --dir /tmp/demo --students 4"],
    )
    p.add_argument("--dir", dest="directory", help="a new or empty directory for the course")
    p.add_argument("--students", type=int, default=12, help="how many students (default: 12)")
    p.add_argument("--jobs", type=int, default=2, help="parallel graders (default: 2)")
    p.add_argument("--grader", default="sandbox", choices=("sandbox", "static"), help=argparse.SUPPRESS)
    p.set_defaults(func=run_demo)


def _step(
    steps: Any, name: str, summary: str, description: str, examples: list[str]
) -> argparse.ArgumentParser:
    parser = cli.add_command(steps, name, summary, description, examples)
    parser.add_argument("directory", metavar="DIR", nargs="?", default=".",
                        help="the course directory (default: the current one)")
    return parser


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return cli.USER_ERROR_STATUS


def _console(wide: bool = False) -> Any:
    """The console of the course commands; ``wide`` lines are never wrapped nor clipped."""
    from rich.console import Console

    if wide:
        from grader.course.export import PIPE_WIDTH

        return Console(highlight=False, width=PIPE_WIDTH)
    return Console(highlight=False)


def _load(args: argparse.Namespace) -> Any:
    from grader.course import config

    return config.load(Path(args.directory))


def run_init(args: argparse.Namespace) -> int:
    from grader.course import config

    variations = None
    if args.variations:
        variations = tuple(v.strip() for v in args.variations.split(",") if v.strip())
    classroom: dict[str, Any] = {}
    if args.github_classroom:
        from grader.course import classroom as gc

        if not args.org or not args.prefix or args.remote:
            raise UserError("--github-classroom needs --org and --prefix (and no --remote: the repos are "
                            "ORG/PREFIX-USERNAME)")
        roster, problems = gc.roster_from_export(Path(args.github_classroom))
        for problem in problems:
            cli.warn(str(problem))
        classroom = {"roster": roster, "remote": gc.remote_template(args.org, args.prefix),
                     "host": "github", "handed_out": True}
    elif args.org or args.prefix:
        raise UserError("--org and --prefix go with --github-classroom")
    settings: dict[str, Any] = {"remote": args.remote or config.DEFAULT_REMOTE} | classroom
    course = config.init(args.directory, course_id=args.id, assignment=args.assignment, seed=args.seed,
                         deadline=args.deadline, variations=variations, **settings)
    print(f"created {course.directory / config.CONFIG_NAME}")
    print(f"deadline {course.deadline.isoformat()}; variations: {', '.join(course.variations)}")
    from grader.course.winnability_note import print_winnability

    print_winnability(course.variations, print, cli.warn)
    print(f"next: edit {course.roster_path.name} and {course.approvals_path.name}, then "
          f"`solitaire course assign {args.directory}`")
    return 0


def run_assign(args: argparse.Namespace) -> int:
    from grader.course import assign

    course = _load(args)
    report = assign.run(course)
    for problem in report.problems:
        cli.warn(str(problem))
    for item in report.new:
        note = " (approved choice)" if item.source == "approved" else ""
        print(f"{item.student}: {item.variation}{note}")
    for old, item in report.renamed:
        print(f"{item.student}: {item.variation} (renamed from {old}: same e-mail, same variation)")
    for student in report.removed:
        print(f"{student}: no longer on the roster (kept in {course.assignments_path.name} and the "
              "gradebook; not published)")
    counts = report.counts()
    print(f"{len(report.new)} new, {len(report.assignments)} in {course.assignments_path}; "
          + ", ".join(f"{v} {counts[v]}" for v in sorted(counts)))
    return ATTENTION if report.problems else 0


def run_publish(args: argparse.Namespace) -> int:
    from grader.course import publish
    from solitaire.progress import Progress

    course = _load(args)
    assignments = publish.load_assignments(course)
    publish.check_roster(course, assignments)  # a changed roster: its one line before any progress
    waiting = [a for a in assignments if a.student not in publish.read_published(course.published_path)]
    with Progress("publish", len(waiting), unit="repos") as shown:  # on stderr, with the time left
        def published(student: str) -> None:
            print(f"published {student}", flush=True)
            shown.advance(note=student)

        report = publish.publish(course, progress=published)
    for student, reason in report.failed + report.notes:
        cli.warn(f"{student}: {reason}")
    for student in report.removed:
        print(f"{student}: no longer on the roster, not published")
    print(f"{len(report.published)} published, {len(report.skipped)} already published, "
          f"{len(report.failed)} failed")
    return ATTENTION if report.failed or report.notes else 0


def run_collect(args: argparse.Namespace) -> int:
    from grader.course import collect, publish

    course = _load(args)
    if args.dry_run:
        collect.dry_run(course, print)
        return 0
    from solitaire.progress import Progress

    now = publish.utc_now()
    total = len(publish.load_assignments(course))
    with Progress("collect", total, unit="repos") as shown:  # on stderr, with the time left
        rows = collect.collect(course, clock=publish.utc_now,  # each repository stamped at its own fetch
                               progress=lambda row: shown.advance(note=row.student))
    attention = False
    for row in rows:
        line = f"{row.student}: {row.status}" + (f" {row.sha[:10]}" if row.sha else "") + f" ({row.reason})"
        kept = row.reason.startswith(collect.UNREACHABLE_NOW)
        if row.status in (*collect.ATTENTION, "empty", "wrong-branch") or kept:
            cli.warn(line)
            attention = attention or row.status in collect.ATTENTION or kept
        else:
            print(line)
    gradable = sum(row.gradable for row in rows)
    print(f"{gradable} of {len(rows)} submissions to grade; written to {course.collected_path}")
    note = collect.provisional(course, now)
    if note:
        cli.warn(note)
    return ATTENTION if attention else 0


def run_grade(args: argparse.Namespace) -> int:
    from rich.console import Console

    from grader.course import grade_class

    course = _load(args)  # a mistyped course or --jobs is said before the sandbox is probed
    if args.jobs is not None and args.jobs < 1:
        cli.fail("--jobs must be at least 1")
    if args.grader == "sandbox":
        from grader.sandbox import layer_line, require_sandbox

        # fails closed (WeakSandboxRefused: one line, status 2) before anything is graded; the
        # pool's processes inherit --allow-weak-sandbox (Celery workers elsewhere need
        # SOLITAIRE_SANDBOX_ALLOW_WEAK=1 in their own environment)
        print(f"solitaire: {layer_line(require_sandbox(args.allow_weak_sandbox))}", file=sys.stderr)
    if args.dry_run or args.grader == "static":
        return _dry_run(course, args)
    report = grade_class.grade_class(course, jobs=args.jobs, regrade=args.regrade, grader=args.grader,
                                     console=Console(stderr=True), backend=args.backend, broker=args.broker)
    for student, reason in report.failed:
        cli.warn(f"{student}: grading failed: {reason}")
    for student, reason in report.unpublished:
        cli.warn(f"{student}: feedback not published: {reason}")
    if report.republished:
        print("feedback published again (a stopped run had not finished it): "
              + ", ".join(report.republished))
    print(f"{len(report.graded)} graded, {len(report.already)} already graded, "
          f"{len(report.failed)} failed, {len(report.not_gradable)} with nothing to grade")
    return ATTENTION if report.failed or report.unpublished else 0


def _dry_run(course: Any, args: argparse.Namespace) -> int:
    """``course grade --dry-run``: grade into a folder of its own and say where."""
    from rich.console import Console

    from grader.course import dry_run

    done = dry_run.dry_run(course, jobs=args.jobs, grader=args.grader, console=Console(stderr=True),
                           backend=args.backend, broker=args.broker)
    for student, reason in done.report.failed:
        cli.warn(f"{student}: grading failed: {reason}")
    print(f"dry run ({args.grader}): {len(done.report.graded)} graded, {len(done.report.failed)} failed, "
          f"{len(done.report.not_gradable)} with nothing to grade; the course's own outputs are unchanged")
    print(f"written to {done.directory} (grades: {done.grades_path}; "
          f"feedback: {done.directory / 'feedback'})")
    return ATTENTION if done.report.failed else 0


def run_worker(args: argparse.Namespace) -> int:
    import os

    from grader.course.grade_class import import_celery_app

    if args.concurrency < 1:
        cli.fail("--concurrency must be at least 1")
    if args.visibility_timeout is not None and args.visibility_timeout < 10:
        cli.fail("--visibility-timeout must be at least 10 seconds")
    celery_app = import_celery_app()
    broker = celery_app.check_broker(args.broker or os.environ.get(celery_app.BROKER_ENV)
                                     or celery_app.DEFAULT_BROKER)
    celery_app.worker_main(broker, concurrency=args.concurrency, loglevel=args.loglevel, name=args.name,
                           visibility=args.visibility_timeout)
    return 0


def run_export(args: argparse.Namespace) -> int:
    from grader.course import export

    course = _load(args)
    path, rows = export.export_csv(course, Path(args.out) if args.out else None)
    console = _console(wide=not sys.stdout.isatty())  # piped: whole rows, not a clipped table
    console.print(export.table(rows, title=f"Gradebook of {course.course_id}/{course.assignment}"))
    print(f"grades written to {path}")
    if args.gradescope:
        from grader.course import gradescope

        zip_path = gradescope.build(course, Path(args.gradescope), allow_weak=args.allow_weak_sandbox)
        print(f"Gradescope autograder written to {zip_path}")
    attention = export.needing_attention(rows)
    if attention:
        cli.warn(f"{len(attention)} student(s) need attention: "
                 + ", ".join(f"{row.student} ({row.status})" for row in attention))
    return ATTENTION if attention else 0


def run_demo(args: argparse.Namespace) -> int:
    from grader.course import demo

    if args.students < 1:
        cli.fail("--students must be at least 1")
    if args.jobs < 1:
        cli.fail("--jobs must be at least 1")
    demo.run_demo(args.directory, students=args.students, jobs=args.jobs, grader=args.grader,
                  console=_console())
    return 0
