"""Issue 17 items 1 and 2: a ``course grade`` with nothing to do starts no pool and leaves the
gradebook closed (so does ``course export``), with identical results; the run names its phases."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import time

import pytest
from rich.console import Console
from workflow_support import at, notes, published, push, variation_of

from grader.course import collect, config, export, grade_class, gradebook
from grader.course.grade_progress import COLLECTING, GRADING, OPENING, WRITING, RunProgress
from grader.course.results import ResultStore


@pytest.fixture(scope="module")
def collected_class(tmp_path_factory):
    """ada: reference on time; dee: starter + notes; cy never pushes. Collected, not graded."""
    course = published(tmp_path_factory.mktemp("noop") / "course", ["ada", "cy", "dee"])
    push(course, "ada", at(-2))
    push(course, "dee", at(-1), notes("later"))
    collect.collect(course, clock=lambda: at(48))
    return course


@pytest.fixture
def graded(collected_class, tmp_path):
    """A copy of the class, graded once (static grader): the store and the gradebook are full."""
    course = config.load(shutil.copytree(collected_class.directory, tmp_path / "copy", symlinks=True))
    report = grade_class.grade_class(course, jobs=1, grader="static", console=quiet())
    assert sorted(k.student for k in report.graded) == ["ada", "dee"] and not report.failed
    return course


def quiet() -> Console:
    return Console(file=io.StringIO(), force_terminal=False, width=300)


class Opened(Exception):
    pass


@pytest.fixture
def forbid(monkeypatch):
    """forbid() -> the process pool and the gradebook raise ``Opened`` when created."""

    def arm() -> None:
        def refuse(*args: object, **kwargs: object) -> None:
            raise Opened

        monkeypatch.setattr(grade_class, "ProcessPoolExecutor", refuse)
        monkeypatch.setattr(gradebook, "CourseGradebook", refuse)
        monkeypatch.setattr(gradebook, "Gradebook", refuse)

    return arm


def database(course) -> bytes:
    return (course.directory / "gradebook.db").read_bytes()


def test_a_no_op_grade_starts_no_pool_and_leaves_the_gradebook_alone(graded, forbid):
    before, rows_before = database(graded), export.grade_rows(graded)
    forbid()
    console = quiet()
    report = grade_class.grade_class(graded, jobs=2, grader="static", console=console)
    assert report.graded == [] and not report.failed
    assert sorted(k.student for k in report.already) == ["ada", "dee"]
    assert [row.student for row in report.not_gradable] == ["cy"]
    assert database(graded) == before
    lines = console.file.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nothing to grade: 2 already graded with static-1, "
                                                   "1 with nothing to grade")
    assert export.grade_rows(graded) == rows_before  # the export too reads no gradebook


NO_OP = """
import sys
from grader.course import config, export, grade_class
course = config.load(sys.argv[1])
report = grade_class.grade_class(course, grader="static")
assert report.graded == [] and len(report.already) == 2, report
export.grade_rows(course)
print(sorted({name.split(".")[0] for name in sys.modules} & {"nbgrader", "sqlalchemy", "alembic", "celery"}))
"""


def test_a_no_op_grade_and_export_import_neither_nbgrader_nor_sqlalchemy(graded):
    """Importing nbgrader took 4 to 13 s of the 5 to 20 s a no-op run took (python -X importtime)."""
    done = subprocess.run([sys.executable, "-c", NO_OP, str(graded.directory)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_export_of_recorded_scores_equals_the_gradebook_s(graded, monkeypatch):
    recorded = export.grade_rows(graded)
    assert export.recorded_scores(graded) is not None
    monkeypatch.setattr(export, "recorded_scores", lambda course: None)  # read nbgrader's gradebook
    read = export.grade_rows(graded)
    assert read == recorded and [row.raw_score is not None for row in read] == [True, False, True]
    assert any(row.raw_score for row in read)


def test_a_gradebook_changed_by_hand_is_opened_and_healed(graded):
    full = export.grade_rows(graded)
    with gradebook.CourseGradebook(graded) as book:
        variation = variation_of(graded, "ada")
        book.record("ada", variation, at(-2), {}, 0.0)  # ada's points gone, as by a crash half-way
        assert book.scores()["ada"][0] == 0
    assert export.recorded_scores(graded) is None  # other bytes: the kept scores are not used
    console = quiet()
    report = grade_class.grade_class(graded, jobs=1, grader="static", console=console)
    assert report.graded == [] and OPENING in console.file.getvalue()
    assert export.recorded_scores(graded) is not None
    assert export.grade_rows(graded) == full and full[0].raw_score


def test_a_new_roster_line_writes_the_gradebook_again(graded):
    with ResultStore(graded.results_path) as store:
        kept = store.gradebook_state(graded.gradebook_db_url())
    with graded.roster_path.open("a", encoding="utf-8") as roster:
        roster.write("eve,Eve Newcomer,eve@students.example\n")
    console = quiet()
    report = grade_class.grade_class(graded, jobs=1, grader="static", console=console)
    assert report.graded == [] and len(report.already) == 2
    assert OPENING in console.file.getvalue() and WRITING in console.file.getvalue()
    with gradebook.CourseGradebook(graded) as book:
        assert "eve" in {s.id for s in book.gradebook.students}
        scores = book.scores()
    with ResultStore(graded.results_path) as store:
        state = store.gradebook_state(graded.gradebook_db_url())
    assert kept is not None and state is not None and state.inputs != kept.inputs
    assert state.scores == scores


def test_a_grading_run_names_each_phase_then_says_how_long_each_took(collected_class, tmp_path):
    course = config.load(shutil.copytree(collected_class.directory, tmp_path / "c", symlinks=True))
    console = quiet()
    grade_class.grade_class(course, jobs=1, grader="static", console=console)
    lines = console.file.getvalue().splitlines()
    phases = [line.split(" s  ", 1)[1] for line in lines if " s  " in line and " s    " not in line]
    # the gradebook opens in the background once the grading processes have started; the run
    # waits for it only to write it, a phase shown when there was a wait (gradebook_opening)
    waited = OPENING in phases
    assert phases == ["starting 1 grading process(es)", GRADING] + [OPENING] * waited + [WRITING]
    assert sorted(line.split()[-1] for line in lines if " s    " in line) == ["ada", "dee"]
    assert {line.split()[-2] for line in lines if " s    " in line} == {"1/2", "2/2"}
    last = lines[-1]
    assert last.startswith("2 graded, 0 already graded, 0 failed (")
    for name in (COLLECTING, GRADING, WRITING) + (OPENING,) * waited:
        assert f"{name} " in last


def test_results_are_stored_and_shown_while_the_gradebook_opens(collected_class, tmp_path, monkeypatch):
    """The gradebook opens in a thread of its own: a slow opening holds up no result (each is
    stored, published and shown as it comes), and every result still reaches the gradebook."""
    course = config.load(shutil.copytree(collected_class.directory, tmp_path / "c", symlinks=True))
    console = quiet()
    seen_before_open: list[bool] = []

    class SlowToOpen(gradebook.CourseGradebook):
        def __init__(self, course_config):
            deadline = time.monotonic() + 60
            while "2/2" not in console.file.getvalue() and time.monotonic() < deadline:
                time.sleep(0.05)
            seen_before_open.append("2/2" in console.file.getvalue())
            super().__init__(course_config)

    monkeypatch.setattr("grader.course.gradebook_opening.course_gradebook", lambda: SlowToOpen)
    report = grade_class.grade_class(course, jobs=1, grader="static", console=console)
    assert sorted(k.student for k in report.graded) == ["ada", "dee"] and not report.failed
    assert seen_before_open == [True]  # both results were shown before the gradebook opened
    rows = {row.student: row for row in export.grade_rows(course)}
    assert rows["ada"].raw_score and rows["dee"].raw_score is not None
    with ResultStore(course.results_path) as store:
        assert store.gradebook_state(course.gradebook_db_url()) is not None  # written, then kept


def test_the_live_line_shows_the_current_phase_on_a_terminal():
    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    with RunProgress(console) as progress:
        assert progress.bar is not None and progress.bar.tasks[0].description == COLLECTING
        progress.phase(GRADING, total=3)
        progress.advance("ada")
        shown = [task for task in progress.bar.tasks if task.visible]
        assert [(t.description, t.completed, t.total, t.fields["detail"]) for t in shown] == [
            (GRADING, 1, 3, "ada")]
        progress.phase(WRITING)
        shown = [task for task in progress.bar.tasks if task.visible]
        assert [(t.description, t.total) for t in shown] == [(WRITING, None)]
        progress.finish("1 graded")
    assert progress.timings().startswith(f"{COLLECTING} 0.0 s, {GRADING} ")
    assert "1 graded (" in console.file.getvalue()
