"""``course return``: feedback committed to a feedback branch of each student's real bare repo."""

from __future__ import annotations

import shutil

import git
import pytest
from workflow_support import at, notes, push

from grader.course import collect, feedback_return
from grader.course.gitutil import remote_branches
from solitaire import cli
from solitaire.errors import UserError


def _feedback(course, student, md="# Feedback\n\n80 / 100\n", html="<h1>Feedback</h1>\n"):
    folder = course.feedback_dir / student
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "feedback.md").write_text(md, encoding="utf-8")
    (folder / "results.json").write_text('{"score": 80}\n', encoding="utf-8")
    if html is not None:
        (folder / "feedback.html").write_text(html, encoding="utf-8")
    else:
        (folder / "feedback.html").unlink(missing_ok=True)


def _bare(course, student) -> git.Repo:
    return git.Repo(course.remote_url(student))


def _by_student(report):
    return {o.student: o for o in report.outcomes}


@pytest.fixture
def graded(published_course):
    """ana and cy pushed before the deadline, bo never did; collected after the cut-off."""
    course = published_course(["ana", "bo", "cy"])
    push(course, "ana", at(-2))
    push(course, "cy", at(-1))
    collect.collect(course, clock=lambda: at(24 * 5))
    return course


def test_feedback_lands_on_an_orphan_branch_and_main_is_untouched(graded):
    course = graded
    _feedback(course, "ana")
    main_before = remote_branches(course.remote_url("ana"))["main"]

    report = feedback_return.return_feedback(course, clock=lambda: at(24 * 6))

    ana = _by_student(report)["ana"]
    assert ana.status == "returned" and not ana.attention
    repo = _bare(course, "ana")
    tip = repo.commit("feedback")
    assert tip.hexsha == ana.commit and tip.parents == ()  # an orphan: no student code in its history
    assert sorted(item.path for item in tip.tree.traverse()) == ["feedback.html", "feedback.md"]
    assert tip.tree["feedback.md"].data_stream.read().decode() == "# Feedback\n\n80 / 100\n"
    graded_sha = {r.student: r.sha for r in collect.read_collected(course)}["ana"]
    assert graded_sha in tip.message
    assert sorted(h.name for h in repo.heads) == ["feedback", "main"]
    assert repo.commit("main").hexsha == main_before


def test_a_second_run_commits_nothing_and_new_feedback_goes_on_top(graded):
    course = graded
    _feedback(course, "ana")
    first = _by_student(feedback_return.return_feedback(course, clock=lambda: at(24 * 6)))["ana"]

    again = _by_student(feedback_return.return_feedback(course, clock=lambda: at(24 * 7)))["ana"]
    assert again.status == "unchanged" and again.commit == first.commit
    assert _bare(course, "ana").commit("feedback").hexsha == first.commit

    # the student pushes meanwhile; a regrade writes new feedback
    student_sha = push(course, "ana", at(24 * 7), notes("more work"))
    _feedback(course, "ana", md="# Feedback\n\n90 / 100\n", html=None)
    newer = _by_student(feedback_return.return_feedback(course, clock=lambda: at(24 * 8)))["ana"]

    repo = _bare(course, "ana")
    tip = repo.commit("feedback")
    assert newer.status == "returned" and tip.hexsha == newer.commit
    assert [p.hexsha for p in tip.parents] == [first.commit]
    assert sorted(item.path for item in tip.tree.traverse()) == ["feedback.md"]  # the html is gone
    assert repo.commit("main").hexsha == student_sha  # the student's push, untouched


def test_students_without_feedback_repo_or_reach_are_reported_not_fatal(graded, tmp_path):
    course = graded
    _feedback(course, "ana")
    report = feedback_return.return_feedback(course, clock=lambda: at(24 * 6))
    outcomes = _by_student(report)
    assert outcomes["bo"].status == "no-feedback" and not outcomes["bo"].attention  # never submitted
    assert outcomes["cy"].status == "no-feedback" and outcomes["cy"].attention  # graded, no feedback
    assert "course grade" in outcomes["cy"].detail

    _feedback(course, "cy")
    _feedback(course, "bo")
    shutil.rmtree(course.remote_url("cy"))
    bo_repo = course.local_remote("bo")
    shutil.rmtree(bo_repo)
    bo_repo.mkdir()  # a folder that is no git repo: git cannot reach it
    report = feedback_return.return_feedback(course, clock=lambda: at(24 * 6))
    outcomes = _by_student(report)
    assert outcomes["ana"].status == "unchanged"
    assert outcomes["cy"].status == "no-repo" and outcomes["cy"].attention
    assert outcomes["bo"].status == "unreachable" and outcomes["bo"].attention
    assert [o.student for o in report.attention] == ["bo", "cy"]


def test_a_refused_push_is_reported(graded):
    course = graded
    _feedback(course, "ana")
    hook = course.local_remote("ana") / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'no feedback branches here' >&2\nexit 1\n")
    hook.chmod(0o755)
    outcome = _by_student(feedback_return.return_feedback(course, clock=lambda: at(24 * 6)))["ana"]
    assert outcome.status == "rejected" and outcome.attention
    assert "feedback" not in remote_branches(course.remote_url("ana"))


def test_dry_run_pushes_nothing(graded):
    course = graded
    _feedback(course, "ana")
    outcome = _by_student(feedback_return.return_feedback(course, dry_run=True))["ana"]
    assert outcome.status == "would-return"
    assert "feedback" not in remote_branches(course.remote_url("ana"))


def test_branch_from_the_course_file_or_the_option_never_main(graded):
    course = graded
    _feedback(course, "ana")
    with pytest.raises(UserError, match="branch students submit on"):
        feedback_return.return_feedback(course, branch="main")
    with pytest.raises(UserError, match="not a valid git branch name"):
        feedback_return.return_feedback(course, branch="bad..name")
    feedback_return.return_feedback(course, branch="grades", clock=lambda: at(24 * 6))
    assert sorted(remote_branches(course.remote_url("ana"))) == ["grades", "main"]

    text = (course.directory / "course.toml").read_text()
    (course.directory / "course.toml").write_text(text.replace('branch = "feedback"', 'branch = "main"'))
    from grader.course import config

    with pytest.raises(UserError, match=r"\[return\] branch must name a branch other than"):
        config.load(course.directory)
    (course.directory / "course.toml").write_text(text.replace('branch = "feedback"', 'branch = "fb"'))
    assert config.load(course.directory).feedback_branch == "fb"


def test_collect_after_return_ignores_the_feedback_branch(graded):
    course = graded
    _feedback(course, "bo")  # e.g. a note for a student who never pushed
    feedback_return.return_feedback(course, clock=lambda: at(24 * 6))
    assert "feedback" in remote_branches(course.remote_url("bo"))
    rows = {r.student: r for r in collect.collect(course, clock=lambda: at(24 * 7))}
    assert rows["bo"].status == "not-submitted"


def test_the_command_prints_progress_a_table_and_exits_1_on_attention(graded, capsys):
    course = graded
    _feedback(course, "ana")
    status = cli.main(["course", "return", str(course.directory)])
    captured = capsys.readouterr()
    assert status == 1  # cy was graded but has no feedback
    assert "[1/3] ana: returned" in captured.err and "[3/3] cy: no-feedback" in captured.err
    assert "1 returned, 2 no-feedback" in captured.out and "Not returned" in captured.out
    assert "1 student(s) need attention: cy (no-feedback)" in captured.err

    _feedback(course, "cy")
    status = cli.main(["course", "return", str(course.directory)])
    captured = capsys.readouterr()
    assert status == 0 and "1 unchanged, 1 no-feedback, 1 returned" not in captured.out
    assert "1 returned, 1 unchanged, 1 no-feedback" in captured.out

    status = cli.main(["course", "return", str(course.directory), "--branch", "main"])
    assert status == 2 and "branch students submit on" in capsys.readouterr().err


def test_a_local_git_failure_is_failed_not_unreachable(graded, monkeypatch):
    course = graded
    _feedback(course, "ana")

    def broken(*args, **kwargs):
        raise git.GitCommandError(["git", "commit-tree", "x"], 128, b"fatal: out of disk")

    monkeypatch.setattr(feedback_return, "return_one", broken)
    outcome = _by_student(feedback_return.return_feedback(course))["ana"]
    assert outcome.status == "failed" and outcome.attention
    assert "git commit-tree failed: fatal: out of disk" in outcome.detail
