"""Fixtures of the fault tests: real courses (bare git repos, SQLite files) run by real processes.

The helpers of tests/workflow (a published course, pushes at simulated times)
are shared: their folder is put on ``sys.path`` here. Each test drives the
``solitaire`` command in a subprocess, so a kill is a real kill.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
COURSE_ID = "solitaire-lab"  # the default of `course init`, which the shared helpers use
WORKFLOW = str(ROOT / "tests" / "workflow")  # tests/workflow has no package: put it on the path
if WORKFLOW not in sys.path:
    sys.path.insert(0, WORKFLOW)

from fault_support import cli_env, solitaire  # noqa: E402,F401
from workflow_support import at, published, push  # noqa: E402

from grader.course import collect, config  # noqa: E402


@pytest.fixture(scope="session")
def empty_gradebook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An nbgrader gradebook with no students, made once: creating one runs alembic (seconds)."""
    from grader.course.gradebook import open_gradebook

    path = tmp_path_factory.mktemp("gradebook") / "gradebook.db"
    open_gradebook(f"sqlite:///{path}", COURSE_ID).close()
    return path


@pytest.fixture
def collected_course(tmp_path: Path, empty_gradebook: Path) -> Callable[..., config.CourseConfig]:
    """collected_course(students) -> a course where every student pushed the reference and was collected."""

    def make(students: list[str], directory: Path | None = None, **options: object) -> config.CourseConfig:
        course = published(directory or tmp_path / "course", students, **options)
        for index, student in enumerate(students):
            push(course, student, at(-10 + index))
        collect.collect(course, clock=lambda: at(1))
        shutil.copyfile(empty_gradebook, course.directory / "gradebook.db")
        return course

    return make
