"""Idempotent publication (issue 18.4): a kill between storing a result and publishing its feedback."""

from __future__ import annotations

import shutil
import signal
import sqlite3

import pytest
from fault_support import cli_env, solitaire

from grader.course.faults import ENV
from grader.course.grade_class import grade_class


def stored_students(course) -> list[str]:
    with sqlite3.connect(course.results_path) as connection:
        return sorted(row[0] for row in connection.execute("SELECT student FROM results"))


def test_what_a_kill_leaves_unpublished_is_published_by_the_next_run(collected_course) -> None:
    """The fast test: the state a kill after the store commit leaves (a stored result, no publication
    record, no folder) made by hand in a real store; the slow test below makes it with a real kill."""
    course = collected_course(["ada", "bob"])
    first = grade_class(course, jobs=1, grader="static")
    assert sorted(key.student for key in first.graded) == ["ada", "bob"] and not first.republished
    with sqlite3.connect(course.results_path) as connection:
        connection.execute("DELETE FROM publications WHERE student='ada'")
    for name in ("feedback.md", "results.json"):
        (course.feedback_dir / "ada" / name).unlink()
    (course.feedback_dir / "bob" / "feedback.md").write_text("stale\n", encoding="utf-8")

    again = grade_class(course, jobs=1, grader="static")
    assert again.graded == [] and len(again.already) == 2  # nothing graded twice
    assert again.republished == ["ada", "bob"]
    assert (course.feedback_dir / "ada" / "feedback.md").read_text(encoding="utf-8").startswith("# ")
    assert (course.feedback_dir / "bob" / "feedback.md").read_text(encoding="utf-8") != "stale\n"
    assert grade_class(course, jobs=1, grader="static").republished == []

    # nothing left to publish from (.work deleted): said, with the command that rebuilds it
    with sqlite3.connect(course.results_path) as connection:
        connection.execute("DELETE FROM publications WHERE student='ada'")
    shutil.rmtree(course.work_dir / "grading" / "ada")
    report = grade_class(course, jobs=1, grader="static")
    assert [student for student, _ in report.unpublished] == ["ada"] and report.republished == []
    assert "run `solitaire course grade --regrade`" in report.unpublished[0][1]


@pytest.mark.slow  # four `course grade` processes: a minute on a busy machine; the fast test is above
def test_a_kill_after_the_store_commit_is_published_by_the_next_run(collected_course) -> None:
    course = collected_course(["ada", "bob"])
    grade = ["course", "grade", str(course.directory), "--jobs", "1", "--grader", "static"]
    killed = solitaire(*grade, env=cli_env(**{ENV: "stored"}))
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    [first] = stored_students(course)  # stored, then killed before its feedback was published
    assert not (course.feedback_dir / first / "feedback.md").exists()

    rerun = solitaire(*grade)
    assert rerun.returncode == 0, rerun.stderr
    assert "1 graded, 1 already graded, 0 failed" in rerun.stdout
    assert f"feedback published again (a stopped run had not finished it): {first}" in rerun.stdout
    for student in ("ada", "bob"):
        published = course.feedback_dir / student / "feedback.md"
        assert published.read_text(encoding="utf-8").startswith("# ")
        assert (course.feedback_dir / student / "results.json").is_file()

    # a published file lost or edited since is stale: published again, even with nothing to grade
    (course.feedback_dir / "bob" / "feedback.md").unlink()
    (course.feedback_dir / "ada" / "results.json").write_text("{}", encoding="utf-8")
    healed = solitaire(*grade)
    assert healed.returncode == 0, healed.stderr
    assert "0 graded, 2 already graded" in healed.stdout
    assert "feedback published again (a stopped run had not finished it): ada, bob" in healed.stdout
    assert (course.feedback_dir / "bob" / "feedback.md").is_file()
    assert (course.feedback_dir / "ada" / "results.json").read_text(encoding="utf-8") != "{}"

    quiet = solitaire(*grade)  # everything in place: nothing published, nothing graded
    assert quiet.returncode == 0 and "published again" not in quiet.stdout
    with sqlite3.connect(course.results_path) as connection:
        assert connection.execute("SELECT COUNT(*) FROM gradings").fetchone()[0] == 2  # each graded once
