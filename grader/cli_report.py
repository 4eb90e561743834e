"""``solitaire course report``: the class report (registered by :mod:`grader.cli_course`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from solitaire import cli

ATTENTION = 1


def register_report(steps: Any) -> None:
    """Add the ``report`` step to the ``course`` steps."""
    p = cli.add_command(
        steps, "report", "write the class report (HTML with plots) and the grade CSVs",
        "Write one self-contained HTML page about the class (default DIR/report/class-report.html;\n"
        "no network, prints): the distribution of final scores overall and per variation, each\n"
        "variation's mean with a 95% bootstrap interval and its difference from the class mean,\n"
        "the pass rate of each rule method and ruling (what the class found hard), late and\n"
        "not-graded students, the slowest gradings and the grades that changed on a regrade.\n"
        "Scores are the final ones of grades.csv (late penalty included). Like `course export`,\n"
        "it also writes grades.csv (with a points_<method> column per rule method) and the\n"
        "Canvas and Moodle imports DIR/export/canvas.csv and DIR/export/moodle.csv.\n"
        "Needs matplotlib: pip install 'solitaire-lab[report]'.",
        ["solitaire course report", "solitaire course report sol101 --out /tmp/sol101-report.html"],
    )
    p.add_argument("directory", metavar="DIR", nargs="?", default=".",
                   help="the course directory (default: the current one)")
    p.add_argument("--out", metavar="PATH",
                   help="where to write the HTML page (default: DIR/report/class-report.html; a directory: "
                        "class-report.html in it)")
    p.set_defaults(func=run_report)


def run_report(args: argparse.Namespace) -> int:
    from grader.course import class_report, config, export, lms, report_plots

    report_plots.require_matplotlib()  # before anything is written
    course = config.load(Path(args.directory))
    grades_path, rows = export.export_csv(course)
    report = class_report.write_report(course, Path(args.out) if args.out else None, rows=rows)
    whole = report.whole
    if whole is None:
        print("nobody is graded yet: the report lists the students and their status")
    else:
        print(f"{whole.n} of {len(rows)} students graded; mean final score {whole.mean:.1f}% "
              f"(median {whole.median:.1f}%) over {len(report.variations)} variation(s)")
    if report.changes:
        print(f"{len(report.changes)} grade change(s) on a regrade: "
              + ", ".join(sorted({c.student for c in report.changes})))
    canvas, moodle = lms.paths(course)
    print(f"grades: {grades_path}; Canvas import: {canvas}; Moodle import: {moodle}")
    print(f"class report: {report.path}")
    attention = export.needing_attention(rows)
    if attention:
        cli.warn(f"{len(attention)} student(s) need attention: "
                 + ", ".join(f"{row.student} ({row.status})" for row in attention))
    return ATTENTION if attention else 0
