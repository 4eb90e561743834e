"""``solitaire course report``: one self-contained HTML page about the whole class.

What it shows (each figure from :mod:`grader.course.class_stats`, each plot from
:mod:`grader.course.report_plots`): the distribution of final scores, overall
and per variation with each variation's mean, its 95 % bootstrap interval and
its difference from the class mean; pass rates per rule method and per ruling
(what the class found hard); late and not-graded students; the slowest
gradings; the students whose grade of the same commit changed between two
gradings; every student's grade.

The scores are those of grades.csv (:func:`grader.course.export.grade_rows`):
final, late penalty included. The page is one file: CSS inline, plots as inline
SVG, no script, no font, no image, no link outside the page; it prints.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from solitaire.errors import UserError

from . import class_stats, report_plots
from .class_data import StudentData, class_data
from .config import CourseConfig
from .export import GradeRow, grade_rows

TEMPLATES = Path(__file__).parent / "templates"
TEMPLATE = "class_report.html.j2"
DEFAULT_NAME = Path("report") / "class-report.html"
#: rulings shown in the "hardest rulings" plot (the table lists every ruling not passed by all)
HARDEST_PLOTTED = 15
SLOWEST = 5


@dataclass(frozen=True)
class Report:
    """What was written: the page and the figures in it (for the command's summary and the tests)."""

    path: Path
    students: list[StudentData]
    whole: class_stats.GroupStats | None
    variations: list[class_stats.GroupStats]
    methods: list[class_stats.RuleRate]
    rulings: list[class_stats.RuleRate]
    changes: list[class_stats.GradeChange]


def default_path(config: CourseConfig) -> Path:
    return config.directory / DEFAULT_NAME


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                                     autoescape=True, trim_blocks=True, lstrip_blocks=True,
                                     undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    # a no-break space keeps "40.0 %" on one line in narrow table cells
    environment.filters["pct"] = lambda value, digits=1: (
        "–" if value is None else f"{value:.{digits}f}\u00a0%")
    environment.filters["num"] = lambda value: "" if value is None else f"{value:g}"
    return environment


def _ruling_label(rate: class_stats.RuleRate) -> str:
    return f"{rate.variation} · {rate.method} · {rate.ruling or '(whole method)'}"


def _histogram(percents: list[float]) -> list[tuple[str, int]]:
    """(bin label, students) per 10 % step; 100 % falls in the last bin, as in the plot."""
    counts = [0] * 10
    for value in percents:
        counts[min(9, int(value // 10))] += 1
    return [(f"{10 * i}–{10 * i + 10} %" if i < 9 else "90–100 %", counts[i]) for i in range(10)]


def build(config: CourseConfig, rows: list[GradeRow] | None = None) -> tuple[dict[str, Any], Report]:
    """The template's context and the figures, for the class of ``config``."""
    report_plots.require_matplotlib()
    students = class_data(config, grade_rows(config) if rows is None else rows)
    return page_context(config.course_id, config.assignment, config.deadline.isoformat(), students)


def page_context(
    course: str, assignment: str, deadline: str, students: list[StudentData]
) -> tuple[dict[str, Any], Report]:
    """The template's context and the figures for ``students`` (:func:`class_data`'s list)."""
    groups = class_stats.final_percents(students)
    whole, variations = class_stats.variation_stats(groups)
    methods, rulings = class_stats.rule_rates(students)
    changes = class_stats.grade_changes(students)
    percents = [p for s in students if (p := s.percent) is not None]
    counts = class_stats.status_counts(students)
    hard_rulings = [r for r in rulings if r.rate < 1]
    plots: dict[str, Markup] = {}
    if whole is not None:
        plots["distribution"] = Markup(report_plots.distribution(percents, whole.mean))
        plots["variations"] = Markup(report_plots.by_variation(groups, variations, whole))
    if methods:
        plots["methods"] = Markup(report_plots.pass_rates(
            methods, "methods", "Share of graded submissions that passed every test of each rule method, "
                                "hardest first.", lambda r: r.method))
    if hard_rulings:
        plotted = hard_rulings[:HARDEST_PLOTTED]
        plots["rulings"] = Markup(report_plots.pass_rates(
            plotted, "rulings", f"Share of graded submissions that passed the test of each ruling: the "
                                f"{len(plotted)} hardest.", _ruling_label))
    graded_at = [g.graded_at for s in students for g in s.history]
    context = {
        "course": course, "assignment": assignment, "deadline": deadline,
        "as_of": max(graded_at) if graded_at else "",
        "students": students, "assigned": len(students), "graded": len(percents),
        "whole": whole, "variations": variations, "histogram": _histogram(percents),
        "small_group": class_stats.SMALL_GROUP, "resamples": class_stats.RESAMPLES, "seed": class_stats.SEED,
        "methods": methods, "rulings": rulings, "hard_rulings": hard_rulings,
        "hardest_plotted": HARDEST_PLOTTED,
        "statuses": sorted(counts.items(), key=lambda item: (-item[1], item[0])),
        "late": [s for s in students if s.row.days_late > 0 and s.row.raw_score is not None],
        "not_graded": [s for s in students if s.percent is None],
        "unusable": [s for s in students if s.percent is not None and s.row.grading_status not in ("", "ok")],
        "slowest": class_stats.slowest(students, SLOWEST),
        "changes": changes,
        "mismatched": [s for s in students if s.row.raw_score is not None and not s.matches_gradebook],
        "plots": plots,
    }
    return context, Report(Path(), students, whole, variations, methods, rulings, changes)


def render(context: dict[str, Any]) -> str:
    return _environment().get_template(TEMPLATE).render(**context)


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a reader sees the old page or the new one).

    A path that cannot be written is a one-line :class:`UserError`."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise UserError(f"{path}: cannot write the report ({error.strerror})") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)  # as a plain open() would: mkstemp's 0600 hides it from colleagues
        os.replace(temp, path)
    except OSError as error:
        Path(temp).unlink(missing_ok=True)
        raise UserError(f"{path}: cannot write the report ({error.strerror})") from None


def write_report(config: CourseConfig, out: Path | None = None, rows: list[GradeRow] | None = None) -> Report:
    """Write the class report (default ``DIR/report/class-report.html``); returns what it holds."""
    context, report = build(config, rows)
    path = out or default_path(config)
    if path.is_dir():
        path = path / DEFAULT_NAME.name
    write_text(path, render(context))
    return Report(path, report.students, report.whole, report.variations, report.methods, report.rulings,
                  report.changes)
