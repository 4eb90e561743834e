"""Helpers of the course-workflow tests (imported by conftest.py and the tests)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from grader.course import assign, config, publish, simulate

DEADLINE = dt.datetime(2030, 3, 14, 23, 59, tzinfo=dt.timezone(dt.timedelta(hours=1)))
PUBLISHED_AT = DEADLINE - dt.timedelta(days=14)


def roster_text(students: list[str]) -> str:
    return "id,name,email\n" + "".join(f"{s},{s.title()} Tester,{s}@students.example\n" for s in students)


def at(hours: float) -> dt.datetime:
    """A moment ``hours`` after the deadline (negative: before)."""
    return DEADLINE + dt.timedelta(hours=hours)


def new_course(directory: Path, students: list[str], **options: object) -> config.CourseConfig:
    """A fresh course in ``directory`` (not yet assigned); the deadline is DEADLINE unless given."""
    options.setdefault("deadline", DEADLINE)
    return config.init(directory, roster=roster_text(students), **options)  # type: ignore[arg-type]


def published(directory: Path, students: list[str], **options: object) -> config.CourseConfig:
    """A course assigned and published at PUBLISHED_AT."""
    course = new_course(directory, students, **options)
    assign.run(course)
    report = publish.publish(course, clock=lambda: PUBLISHED_AT)
    assert not report.failed, report.failed
    return course


def variation_of(course: config.CourseConfig, student: str) -> str:
    return {a.student: a.variation for a in assign.load_assignments(course)}[student]


def push(course, student, when, edit=None, commit_date=None, branch="main", message="work") -> str:
    """``student`` pushes ``edit`` (default: the reference solution) at ``when``; returns the SHA."""
    edit = edit or simulate.copy_reference(variation_of(course, student))
    return simulate.push_work(course.remote_url(student), student, edit, when, message=message,
                              branch=branch, commit_date=commit_date)


def notes(text: str) -> simulate.Edit:
    """An edit that only writes NOTES.md (the rules file stays the starter's)."""
    return simulate.write_file("NOTES.md", text)
