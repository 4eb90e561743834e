"""Idempotent publication (issue 18.4): a kill between storing a result and publishing its feedback."""

from __future__ import annotations

import signal
import sqlite3

from conftest import cli_env, solitaire

from grader.course.faults import ENV


def stored_students(course) -> list[str]:
    with sqlite3.connect(course.results_path) as connection:
        return sorted(row[0] for row in connection.execute("SELECT student FROM results"))


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
