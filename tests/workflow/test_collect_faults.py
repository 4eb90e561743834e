"""Collect under faults: pushes landing while it runs, and a repo it can no longer reach."""

from __future__ import annotations

import shutil
import threading

from workflow_support import at, notes, push

from grader.course import collect, export
from grader.course.grade_class import grade_class


def test_pushes_landing_during_collects_never_make_a_student_unreachable(published_course) -> None:
    course = published_course(["ada", "bob", "cy"])
    for student in ("ada", "bob", "cy"):
        push(course, student, at(-5))
    stop = threading.Event()
    pushed = []

    def keep_pushing() -> None:
        while not stop.is_set() and len(pushed) < 40:
            pushed.append(push(course, "bob", at(-4), notes(f"version {len(pushed)}")))

    pusher = threading.Thread(target=keep_pushing)
    pusher.start()
    try:
        # collected before the deadline: the simulated push times and the collect's stay in order
        statuses = [row.status for _ in range(4) for row in collect.collect(course, clock=lambda: at(-1))]
    finally:
        stop.set()
        pusher.join()
    assert len(pushed) >= 2  # pushes really landed while the collects ran
    assert "unreachable" not in statuses and statuses.count("ok") == len(statuses)


def test_a_repo_unreachable_later_keeps_its_collected_submission_and_grade(published_course) -> None:
    course = published_course(["ada", "bob"])
    ada_sha = push(course, "ada", at(-2))
    push(course, "bob", at(-2))
    collect.collect(course, clock=lambda: at(1))
    grade_class(course, jobs=1, grader="static")
    before = {row.student: row for row in export.grade_rows(course)}
    assert before["ada"].score  # graded, a real score
    remote = course.local_remote("ada")
    assert remote is not None
    shutil.move(remote, remote.with_name("elsewhere.git"))  # the host lost the repo
    remote.mkdir()
    (remote / "HEAD").write_text("garbage\n")  # ... and something unreadable stands in its place
    rows = {row.student: row for row in collect.collect(course, clock=lambda: at(2))}
    assert rows["ada"].status == "ok" and rows["ada"].sha == ada_sha
    assert rows["ada"].reason.startswith(collect.UNREACHABLE_NOW)
    after = {row.student: row for row in export.grade_rows(course)}
    assert after["ada"].score == before["ada"].score  # never turned into 0 by our failure
