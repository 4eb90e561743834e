"""course grade: parallel grading into the results store and nbgrader's gradebook; resumable."""

from __future__ import annotations

import csv
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.plugins.export import CsvExportPlugin
from workflow_support import at, notes, published, push, variation_of

from grader.course import collect, config, export, simulate
from grader.course.grade_class import grade_class
from grader.course.gradebook import nbgrader_assignment, open_gradebook, tools_on_path
from grader.course.points import category_points
from grader.course.results import ResultStore
from grader.course.scores import category_fractions, earned_points

HERE = Path(__file__).resolve().parent


def partial_edit(course, student, keep=2):
    variation = variation_of(course, student)
    text, _ = simulate.partial(variation, keep)
    return simulate.write_rules(variation, text)


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """ada: reference on time; bob: partial, 30 h late; cy: never pushes; dee: starter + notes.

    Built once for the module; a test that changes it works on a copy (:func:`copy_of`).
    """
    course = published(tmp_path_factory.mktemp("graded") / "course", ["ada", "bob", "cy", "dee"])
    push(course, "ada", at(-2))
    push(course, "bob", at(30), partial_edit(course, "bob"))
    push(course, "dee", at(-1), notes("later"))
    collect.collect(course, clock=lambda: at(48))
    report = grade_class(course, jobs=2, grader="static")
    return course, report


def test_grading_fills_the_store_and_the_gradebook(graded_class):
    course, report = graded_class
    assert sorted(key.student for key in report.graded) == ["ada", "bob", "dee"]
    assert [row.student for row in report.not_gradable] == ["cy"] and not report.failed
    with ResultStore(course.results_path) as store:
        assert set(store.grading_counts().values()) == {1}

    points = {s: category_points(variation_of(course, s)) for s in ("ada", "bob", "dee")}
    gradebook = Gradebook(course.gradebook_db_url(), course_id=course.course_id)
    try:
        # one nbgrader assignment per variation, holding one notebook: nbgrader's maximum is the student's
        assert sorted(a.name for a in gradebook.assignments) == sorted(
            nbgrader_assignment(course.assignment, v) for v in course.variations)
        for variation in course.variations:
            assignment = gradebook.find_assignment(nbgrader_assignment(course.assignment, variation))
            assert [nb.name for nb in assignment.notebooks] == [variation]
            assert assignment.max_score == sum(category_points(variation).values())
        mine = {s: nbgrader_assignment(course.assignment, variation_of(course, s))
                for s in ("ada", "bob", "cy", "dee")}
        for student in ("ada", "bob", "dee"):
            variation = variation_of(course, student)
            notebook = gradebook.find_notebook(variation, mine[student])
            assert {c.name: c.max_score for c in notebook.grade_cells} == points[student]
            submission = gradebook.find_submission(mine[student], student)
            assert [nb.name for nb in submission.notebooks] == [variation]
            assert submission.max_score == sum(points[student].values())
            others = [a.name for a in gradebook.assignments if a.name != mine[student]]
            assert all(s.student.id != student for a in others for s in gradebook.assignment_submissions(a))
        ada = gradebook.find_submission(mine["ada"], "ada")
        assert ada.score == sum(points["ada"].values()) and ada.late_submission_penalty == 0
        assert not ada.needs_manual_grade
        bob = gradebook.find_submission(mine["bob"], "bob")
        assert bob.score == pytest.approx(sum(list(points["bob"].values())[:2]))
        assert bob.late_submission_penalty == pytest.approx(0.2 * bob.score)  # 2 days late, 10 % a day
        assert bob.total_seconds_late == 30 * 3600  # nbgrader's own view of the receive time
        assert gradebook.find_submission(mine["dee"], "dee").score == 0
        with pytest.raises(MissingEntry):
            gradebook.find_submission(mine["cy"], "cy")
        assert {s.id for s in gradebook.students} == {"ada", "bob", "cy", "dee"}
    finally:
        gradebook.close()
    assert (course.feedback_dir / "ada" / "feedback.md").is_file()
    assert (course.feedback_dir / "ada" / "results.json").is_file()


def copy_of(course, tmp_path):
    """The course copied to ``tmp_path`` (its gradebook and results store with it)."""
    return config.load(shutil.copytree(course.directory, tmp_path / "copy", symlinks=True))


def test_a_rerun_grades_nothing_and_regrade_grades_again(graded_class, tmp_path):
    course = copy_of(graded_class[0], tmp_path)
    again = grade_class(course, jobs=1, grader="static")
    assert again.graded == [] and sorted(k.student for k in again.already) == ["ada", "bob", "dee"]
    forced = grade_class(course, jobs=1, grader="static", regrade=True)
    assert sorted(k.student for k in forced.graded) == ["ada", "bob", "dee"]
    with ResultStore(course.results_path) as store:
        assert set(store.grading_counts().values()) == {2}


def test_grades_csv_and_nbgrader_csv_export_agree(graded_class, tmp_path):
    course, _ = graded_class
    path, rows = export.export_csv(course)
    ours = {row.student: row for row in rows}
    assert ours["cy"].status == "not-submitted" and ours["cy"].raw_score is None
    assert ours["bob"].score == pytest.approx(ours["bob"].raw_score * 0.8)
    with path.open(encoding="utf-8") as handle:
        written = {row["id"]: row for row in csv.DictReader(handle)}
    assert written["ada"]["percent"] == "100" and written["cy"]["score"] == "0"

    nbgrader_csv = tmp_path / "nbgrader.csv"
    gradebook = Gradebook(course.gradebook_db_url(), course_id=course.course_id)
    try:
        CsvExportPlugin(to=str(nbgrader_csv)).export(gradebook)
    finally:
        gradebook.close()
    with nbgrader_csv.open(encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle)]
    # nbgrader lists every student for every assignment: a student's own row is their variation's
    mine = {s: nbgrader_assignment(course.assignment, variation_of(course, s))
            for s in ("ada", "bob", "cy", "dee")}
    theirs = {row["student_id"]: row for row in rows if row["assignment"] == mine[row["student_id"]]}
    assert set(theirs) == {"ada", "bob", "cy", "dee"}
    for student in ("ada", "bob", "dee"):
        assert float(theirs[student]["score"]) == pytest.approx(ours[student].score)
        assert float(theirs[student]["late_submission_penalty"]) == pytest.approx(ours[student].late_penalty)
        assert float(theirs[student]["max_score"]) == ours[student].max_score
    assert float(theirs["cy"]["score"]) == 0.0


def test_category_scores_from_gradescope_results():
    results = {"tests": [
        {"name": "deal", "score": 2, "max_score": 4},
        {"name": "deal: second deal", "score": 4, "max_score": 4},
        {"name": "tableau_accepts (S2)", "score": 1, "max_score": 2},
        {"name": "a test of no category", "score": 5, "max_score": 5},
        {"name": "whatever", "tags": ["is_won"], "score": 0, "max_score": 3},
    ]}
    fractions = category_fractions(results, ["deal", "tableau_accepts", "is_won", "after_move"])
    assert fractions == {"deal": (6, 8), "tableau_accepts": (1, 2), "is_won": (0, 3), "after_move": (0, 0)}
    earned = earned_points(fractions, {"deal": 10, "tableau_accepts": 30, "is_won": 5, "after_move": 7})
    assert earned == {"deal": 7.5, "tableau_accepts": 15.0, "is_won": 0.0, "after_move": 0.0}


def test_gradebook_creation_finds_alembic_without_an_activated_venv(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    with tools_on_path():
        assert os.environ["PATH"].split(os.pathsep)[0] == str(Path(sys.executable).parent)
    assert os.environ["PATH"] == "/usr/bin:/bin"
    gradebook = open_gradebook(f"sqlite:///{tmp_path}/fresh.db", "c1")
    gradebook.close()
    with sqlite3.connect(tmp_path / "fresh.db") as connection:
        (version,) = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    assert version  # nbgrader asked alembic for its head revision


def _results_count(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as connection:
            return int(connection.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # the table is being created
        return 0


def test_kill_9_during_grading_then_rerun_grades_everyone_exactly_once(published_course):
    students = [f"s{i}" for i in range(6)]
    course = published_course(students)
    for index, student in enumerate(students):
        push(course, student, at(-10 + index))
    collect.collect(course, clock=lambda: at(1))
    command = [sys.executable, "-m", "solitaire", "course", "grade", str(course.directory),
               "--jobs", "2", "--grader", "slow_grader:grade"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))
    process = subprocess.Popen(command, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        give_up = time.monotonic() + 240
        while _results_count(course.results_path) < 2:
            assert process.poll() is None, "course grade ended before it could be killed"
            assert time.monotonic() < give_up, "course grade graded nothing in 240 s"
            time.sleep(0.05)  # polling a real process; simulated time plays no part here
        os.killpg(process.pid, signal.SIGKILL)  # its own session: the command and its pool workers
    finally:
        if process.poll() is None:
            process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL
    killed_with = _results_count(course.results_path)
    assert 2 <= killed_with < len(students)
    with ResultStore(course.results_path) as store:
        before = {key: store.get(key).run_id for key in store.grading_counts()}

    rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{len(students) - killed_with} graded, {killed_with} already graded" in rerun.stdout

    with ResultStore(course.results_path) as store:
        counts = store.grading_counts()
        assert sorted(key.student for key in counts) == students
        assert set(counts.values()) == {1}  # every student graded exactly once
        assert all(store.get(key).run_id == run for key, run in before.items())  # kept, not regraded
    gradebook = Gradebook(course.gradebook_db_url(), course_id=course.course_id)
    try:
        submitted = [s.student.id for a in gradebook.assignments
                     for s in gradebook.assignment_submissions(a.name)]
        assert sorted(submitted) == students
    finally:
        gradebook.close()
