"""``course grade --dry-run``: grade the class into a folder of its own, never the real outputs.

A dry run grades every collected submission with the chosen grader exactly as
``course grade`` would, and writes everything a real run writes (results
store, nbgrader gradebook and its folders, ``feedback/``, ``grades.csv``) in
``DIR/.work/dry-run/<run>/``, ``<run>`` being the UTC time and a short id.
It reads the course's inputs (course file, roster, assignments, collected
submissions) and writes nothing else: the course's ``feedback/``,
``results.db``, gradebook and ``grades.csv`` keep their bytes. It holds the
course's lock like ``course grade`` (no collect changes its inputs meanwhile).

How: the run sees a :class:`DryRunCourse`, the course's configuration whose
directory is the dry-run folder, with the inputs read from the real course
and the gradebook a SQLite file in the dry-run folder whatever the course's
URL (a copy of the course's gradebook when that is a SQLite file, else a new
one). Any output path derived from the directory therefore lands in the
dry-run folder; an input not listed here would be missing there, a loud
failure rather than a silent write to the real course.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from .collect import read_collected
from .config import CourseConfig
from .export import GradeRow, export_csv
from .grade_class import GradeReport, grade_class
from .gradebook_state import copy_database
from .lock import course_lock

FOLDER = "dry-run"


@dataclass(frozen=True)
class DryRunCourse(CourseConfig):
    """A course whose outputs go to ``directory`` (the dry-run folder) and inputs come from ``source``."""

    source: Path = Path()

    @property
    def roster_path(self) -> Path:
        return self.source / self.roster_name

    @property
    def approvals_path(self) -> Path:
        return self.source / self.approvals_name

    @property
    def assignments_path(self) -> Path:
        return self.source / "assignments.csv"

    @property
    def published_path(self) -> Path:
        return self.source / "published.csv"

    @property
    def collected_path(self) -> Path:
        return self.source / "collected.csv"

    @property
    def ledger_path(self) -> Path:
        return self.source / "ledger.json"

    def gradebook_db_url(self) -> str:
        return f"sqlite:///{self.directory / 'gradebook.db'}"

    def remote_url(self, student: str) -> str:
        return self.real().remote_url(student)

    def real(self) -> CourseConfig:
        """The course's own configuration."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(CourseConfig)}
        return CourseConfig(**{**values, "directory": self.source})


@dataclass
class DryRun:
    """Where a dry run wrote, what it graded and the grades it would give."""

    directory: Path
    report: GradeReport
    grades_path: Path
    grades: list[GradeRow]


def dry_run_course(config: CourseConfig, run: str | None = None) -> DryRunCourse:
    """``config`` redirected to a new folder ``.work/dry-run/<run>`` (see the module docstring)."""
    run = run or dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ-") + uuid.uuid4().hex[:6]
    folder = config.work_dir / FOLDER / run
    folder.mkdir(parents=True, exist_ok=False)
    values = {f.name: getattr(config, f.name) for f in dataclasses.fields(CourseConfig)}
    course = DryRunCourse(**{**values, "directory": folder, "source": config.directory})
    # start from a copy of the course's gradebook: what the run writes is seen against what is
    # there, and a copy is much faster than creating nbgrader's schema (it runs alembic)
    copy_database(config.gradebook_db_url(), folder / "gradebook.db")
    return course


def dry_run(
    config: CourseConfig,
    jobs: int | None = None,
    grader: str = "sandbox",
    console: Console | None = None,
    backend: str = "local",
    broker: str | None = None,
) -> DryRun:
    """Grade the class into a dry-run folder (see the module docstring)."""
    with course_lock(config.work_dir, "grade --dry-run"):  # no collect rewrites the inputs meanwhile
        read_collected(config)  # nothing collected: the one line saying so, before any folder is made
        course = dry_run_course(config)
        report = grade_class(course, jobs=jobs, grader=grader, console=console, backend=backend,
                             broker=broker)
        path, rows = export_csv(course)
    return DryRun(course.directory, report, path, rows)
