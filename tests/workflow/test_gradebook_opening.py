"""The gradebook opened once grading has started: not before it is needed, nbgrader's absence said at once."""

from __future__ import annotations

import io
import sys
import threading

import pytest
from rich.console import Console

from grader.course import config
from grader.course.grade_progress import OPENING, RunProgress
from grader.course.gradebook_opening import OpeningGradebook, open_now, opened
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


class Recorder:
    """A fake gradebook class whose opening waits for ``gate`` (set at once unless told)."""

    def __init__(self, fail_in: str | None = None) -> None:
        self.events: list[object] = []
        self.gate = threading.Event()
        self.gate.set()
        self.threads: set[str] = set()
        recorder = self

        class Fake:
            def __init__(self, course):
                recorder.threads.add(threading.current_thread().name)
                assert recorder.gate.wait(10)
                recorder.events.append("open")

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                recorder.events.append("close")

            def ensure_structure(self, variations):
                recorder.events.append("structure")
                if fail_in == "structure":
                    raise ValueError("the gradebook's file is not a database")

            def ensure_students(self, students):
                recorder.events.append("students")

            def scores(self):
                recorder.threads.add(threading.current_thread().name)
                return {"ada": (1.0, 0.0)}

        self.cls = Fake


def test_started_it_opens_in_another_thread_and_is_used_in_this_one(monkeypatch):
    fake = Recorder()
    fake.gate.clear()
    monkeypatch.setattr("grader.course.gradebook_opening.course_gradebook", lambda: fake.cls)
    shown = progress()
    with OpeningGradebook(object(), ["scorpion"], ["ada"], shown) as gradebook:  # type: ignore[arg-type]
        gradebook.start()
        gradebook.start()  # once
        assert open_now(gradebook) is None and not gradebook.is_open  # still opening: no waiting
        fake.gate.set()
        assert gradebook.scores() == {"ada": (1.0, 0.0)}  # waits for the opening, then is used here
        assert open_now(gradebook) is opened(gradebook) and gradebook.is_open
    assert fake.events == ["open", "structure", "students", "close"]
    assert fake.threads == {"gradebook-opening", threading.current_thread().name}
    assert [name for name, _ in shown.phases].count(OPENING) == 1
    plain = object()
    assert open_now(plain) is plain


def test_a_failed_opening_is_raised_where_the_gradebook_is_needed_and_what_opened_is_closed(monkeypatch):
    fake = Recorder(fail_in="structure")
    monkeypatch.setattr("grader.course.gradebook_opening.course_gradebook", lambda: fake.cls)
    with OpeningGradebook(object(), ["scorpion"], ["ada"], progress()) as gradebook:  # type: ignore[arg-type]
        gradebook.start()
        with pytest.raises(ValueError, match="not a database"):
            gradebook.open()
    assert fake.events == ["open", "structure", "close"]


def test_a_block_left_while_opening_waits_for_it_and_closes_it(monkeypatch):
    fake = Recorder()
    fake.gate.clear()
    monkeypatch.setattr("grader.course.gradebook_opening.course_gradebook", lambda: fake.cls)
    with pytest.raises(KeyboardInterrupt):
        with OpeningGradebook(object(), [], [], progress()) as gradebook:  # type: ignore[arg-type]
            gradebook.start()
            threading.Timer(0.2, fake.gate.set).start()
            raise KeyboardInterrupt
    assert fake.events == ["open", "structure", "students", "close"]
