"""Fixtures of the course-workflow tests: a course directory on local bare repos.

Everything is real: git repos (gitpython), the student-repo generator, a
SQLite gradebook. Time is simulated with injected clocks, never slept.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from workflow_support import new_course, published

from grader.course import config


@pytest.fixture
def make_course(tmp_path: Path) -> Callable[..., config.CourseConfig]:
    """make_course(students, **init options) -> a fresh course (not yet assigned)."""

    def make(students: list[str], directory: str = "course", **options: object) -> config.CourseConfig:
        return new_course(tmp_path / directory, students, **options)

    return make


@pytest.fixture
def published_course(tmp_path: Path) -> Callable[..., config.CourseConfig]:
    """published_course(students, **options) -> a course assigned and published at PUBLISHED_AT."""

    def make(students: list[str], **options: object) -> config.CourseConfig:
        return published(tmp_path / "course", students, **options)

    return make
