"""nbgrader is an extra (``solitaire-lab[gradebook]``): without it the gradebook says so in one line."""

from __future__ import annotations

import sys

import pytest

from grader.course.gradebook_state import NEEDS_NBGRADER, course_gradebook
from grader.starter.build import clear_solutions
from solitaire.errors import UserError


@pytest.fixture
def without_nbgrader(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m.split(".")[0] in ("nbgrader", "nbformat")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delitem(sys.modules, "grader.course.gradebook", raising=False)
    for name in ("nbgrader", "nbgrader.api", "nbgrader.preprocessors", "nbformat"):
        monkeypatch.setitem(sys.modules, name, None)  # an import of it raises ModuleNotFoundError


def test_the_gradebook_without_nbgrader_names_the_extra(without_nbgrader: None) -> None:
    with pytest.raises(UserError) as missing:
        course_gradebook()
    assert str(missing.value) == NEEDS_NBGRADER
    assert "solitaire-lab[gradebook]" in NEEDS_NBGRADER


def test_building_starters_without_nbgrader_names_the_extra(without_nbgrader: None) -> None:
    with pytest.raises(UserError, match=r"solitaire-lab\[gradebook\]"):
        clear_solutions("x = 1\n")


def test_with_nbgrader_the_gradebook_class_loads() -> None:
    assert course_gradebook().__name__ == "CourseGradebook"
