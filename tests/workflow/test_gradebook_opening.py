"""The gradebook opened once grading has started: not before it is needed, nbgrader's absence said at once."""

from __future__ import annotations

import io
import sys

import pytest
from rich.console import Console

from grader.course import config
from grader.course.grade_progress import OPENING, RunProgress
from grader.course.gradebook_opening import OpeningGradebook, opened
from grader.course.gradebook_state import NEEDS_NBGRADER
from solitaire.errors import UserError


def progress() -> RunProgress:
    return RunProgress(Console(file=io.StringIO(), force_terminal=False, width=200))


def test_without_nbgrader_it_says_so_before_anything_starts(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "nbgrader", None)
    with pytest.raises(UserError) as missing:
        OpeningGradebook(config.CourseConfig.__new__(config.CourseConfig), [], [], progress())
    assert str(missing.value) == NEEDS_NBGRADER


def test_it_opens_at_first_use_once_and_closes_with_its_block(monkeypatch, tmp_path):
    events = []

    class Fake:
        def __init__(self, course):
            events.append("open")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            events.append("close")

        def ensure_structure(self, variations):
            events.append(("structure", tuple(variations)))

        def ensure_students(self, students):
            events.append(("students", tuple(students)))

        def scores(self):
            return {"ada": (1.0, 0.0)}

    monkeypatch.setattr("grader.course.gradebook_opening.course_gradebook", lambda: Fake)
    shown = progress()
    with OpeningGradebook(object(), ["scorpion"], ["ada"], shown) as gradebook:  # type: ignore[arg-type]
        assert events == [] and OPENING not in [name for name, _ in shown.phases]
        assert gradebook.scores() == {"ada": (1.0, 0.0)}  # first use opens it
        assert opened(gradebook) is opened(gradebook)  # once
    assert events == ["open", ("structure", ("scorpion",)), ("students", ("ada",)), "close"]
    assert [name for name, _ in shown.phases].count(OPENING) == 1
    plain = object()
    assert opened(plain) is plain
