"""``solitaire course return``: each student's feedback, committed to a branch of their own repo.

What is committed: ``feedback.html`` (when the grading wrote one) and
``feedback.md`` from ``feedback/<student>/``, at the root of the branch's
tree, the tree holding exactly those files. ``results.json`` is not: it is
Gradescope's machine format (grader version, timings, internal status) with
the same verdicts as the Markdown, and a student should read one account of
the grade, written for people.

Where: the branch ``[return] branch`` of the course file (default
``feedback``) or ``--branch``, never the submission branch. The branch is an
orphan: its history holds only feedback rounds, nothing of the student's
code, so it never conflicts with what the student pushes, and merging or
checking it out cannot change the graded file. Each commit's message names
the graded commit (from ``collected.csv``).

Idempotent: the new tree is compared with the tip of the remote's feedback
branch; the same feedback makes no commit, new feedback adds one on top
(a fast-forward push, never forced: a branch that moved meanwhile is
reported, not overwritten). Only ``refs/heads/<branch>`` is ever pushed;
the student's other branches are neither fetched nor written.

Each student gets one outcome (:data:`STATUSES`); one student's problem
never stops the others.
"""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import git

from solitaire.errors import UserError

from .assign import load_assignments
from .collect import Collected, read_collected
from .config import CourseConfig
from .gitutil import INSTRUCTOR, git_date, git_error, push, remote_branches
from .lock import course_lock
from .publish import utc_now

#: the files returned, in this order, when present in feedback/<student>/
RETURNED_FILES = ("feedback.html", "feedback.md")
#: returned: a new commit pushed; unchanged: the branch already holds this feedback;
#: would-return: --dry-run, a commit would be pushed; no-feedback: nothing to return;
#: no-repo: the student's repo does not exist; unreachable: git could not reach it;
#: rejected: the push was refused (e.g. the branch moved meanwhile); failed: git failed here
STATUSES = ("returned", "unchanged", "would-return", "no-feedback", "no-repo", "unreachable", "rejected",
            "failed")
DONE = ("returned", "unchanged", "would-return")
Clock = Callable[[], dt.datetime]


@dataclass(frozen=True)
class Returned:
    """What happened to one student's feedback."""

    student: str
    status: str
    detail: str = ""
    commit: str = ""  # the feedback branch's tip after the run (or that a dry run would push)
    attention: bool = False  # the course could not deliver feedback that exists or should exist


@dataclass
class ReturnReport:
    branch: str
    outcomes: list[Returned] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def attention(self) -> list[Returned]:
        return [o for o in self.outcomes if o.attention]


def check_branch(config: CourseConfig, branch: str) -> str:
    """``branch`` if git accepts it as a branch name and it is not the submission branch."""
    if branch == config.branch:
        raise UserError(f"the feedback branch cannot be {branch!r}, the branch students submit on")
    try:
        git.Git().check_ref_format("--branch", branch)
    except git.GitCommandError:
        raise UserError(f"{branch!r} is not a valid git branch name") from None
    return branch


def feedback_files(config: CourseConfig, student: str) -> dict[str, bytes]:
    """The files to return for ``student`` (empty when there is no feedback.md)."""
    folder = config.feedback_dir / student
    if not (folder / "feedback.md").is_file():
        return {}
    return {name: (folder / name).read_bytes() for name in RETURNED_FILES if (folder / name).is_file()}


def _message(config: CourseConfig, row: Collected | None) -> str:
    sha = row.sha if row is not None else ""
    what = f"your commit {sha}" if sha else "your work"
    return (f"Feedback{' on ' + sha if sha else ''}\n\n{config.course_id}/{config.assignment}: the "
            f"grader's feedback on {what}. Written by `solitaire course return`; your "
            f"{config.branch} branch is not touched.\n")


def return_one(
    url: str, branch: str, files: dict[str, bytes], message: str, when: dt.datetime, dry_run: bool = False
) -> tuple[str, str]:
    """Commit ``files`` on ``branch`` of the repo at ``url`` unless its tip holds them already.

    Returns (``returned`` | ``unchanged`` | ``would-return``, the branch's tip). Raises
    GitCommandError when git cannot reach the repo or the push is refused.
    """
    heads = remote_branches(url)
    parent = heads.get(branch)
    with tempfile.TemporaryDirectory(prefix="solitaire-return-") as temp:
        repo = git.Repo.init(temp)
        try:
            if parent is not None:  # only the feedback branch is fetched, never the student's work
                repo.git.fetch("--no-tags", url, f"refs/heads/{branch}")
            for name, data in files.items():
                (Path(temp) / name).write_bytes(data)
            repo.git.add("--force", "--", *files)  # whatever a global excludes file says
            tree = repo.git.write_tree()
            if parent is not None and repo.git.rev_parse(f"{parent}^{{tree}}") == tree:
                return "unchanged", parent
            date = git_date(when)
            env = {"GIT_AUTHOR_NAME": INSTRUCTOR.name or "", "GIT_AUTHOR_EMAIL": INSTRUCTOR.email or "",
                   "GIT_COMMITTER_NAME": INSTRUCTOR.name or "", "GIT_COMMITTER_EMAIL": INSTRUCTOR.email or "",
                   "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
            parents = ["-p", parent] if parent is not None else []
            commit = repo.git.commit_tree(tree, *parents, "-m", message, env=env)
            if dry_run:
                return "would-return", commit
            push(repo, url, f"{commit}:refs/heads/{branch}", when)  # a fast-forward or nothing
            return "returned", commit
        finally:
            repo.close()


def return_feedback(
    config: CourseConfig,
    branch: str | None = None,
    dry_run: bool = False,
    clock: Clock = utc_now,
    progress: Callable[[int, int, Returned], None] | None = None,
) -> ReturnReport:
    """Return every assigned student's feedback; see the module docstring."""
    branch = check_branch(config, branch or config.feedback_branch)
    with course_lock(config.work_dir, "return"):
        rows = _collected(config)
        assignments = load_assignments(config)
        report = ReturnReport(branch)
        for index, assignment in enumerate(assignments, start=1):
            outcome = _return_student(config, assignment.student, branch, rows.get(assignment.student),
                                      dry_run, clock)
            report.outcomes.append(outcome)
            if progress:
                progress(index, len(assignments), outcome)
        return report


def _collected(config: CourseConfig) -> dict[str, Collected]:
    if not config.collected_path.exists():
        return {}
    return {row.student: row for row in read_collected(config)}


def _return_student(
    config: CourseConfig, student: str, branch: str, row: Collected | None, dry_run: bool, clock: Clock
) -> Returned:
    files = feedback_files(config, student)
    if not files:
        if row is not None and not row.gradable:
            return Returned(student, "no-feedback", f"nothing was graded ({row.status})")
        # collected for grading (or never collected): feedback was expected
        detail = "no feedback yet (run `solitaire course grade`)" if row is not None else \
            "not collected (run `solitaire course collect` and `course grade`)"
        return Returned(student, "no-feedback", detail, attention=True)
    url = config.remote_url(student)
    local = config.local_remote(student)
    if local is not None and not local.exists():
        return Returned(student, "no-repo", f"no repository at {local}", attention=True)
    try:
        status, commit = return_one(url, branch, files, _message(config, row), clock(), dry_run)
    except git.GitCommandError as error:
        reason = git_error(error)
        verb = str(error.command[1]) if error.command and len(error.command) > 1 else ""
        if verb == "push":
            return Returned(student, "rejected", f"push to {url} refused: {reason}", attention=True)
        if verb in ("ls-remote", "fetch"):
            return Returned(student, "unreachable", f"cannot reach {url}: {reason}", attention=True)
        return Returned(student, "failed", f"git {verb} failed: {reason}", attention=True)
    names = ", ".join(name for name in RETURNED_FILES if name in files)
    detail = {"returned": f"{names} committed", "unchanged": "already returned",
              "would-return": f"would commit {names}"}[status]
    return Returned(student, status, detail, commit)


def show_branch(config: CourseConfig, student: str, branch: str) -> list[tuple[str, str]]:
    """(command, its output) that show ``branch`` of ``student``'s local bare repo: its log and
    files, as an instructor would type them (the demo prints them)."""
    local = config.local_remote(student)
    if local is None:
        return []
    shown = []
    for args in (["log", "--oneline", branch], ["ls-tree", "--name-only", branch]):
        output = git.Git().execute(["git", f"--git-dir={local}", *args])
        shown.append((" ".join(["git", f"--git-dir={local}", *args]), str(output)))
    return shown


__all__ = ["DONE", "RETURNED_FILES", "STATUSES", "ReturnReport", "Returned",
           "check_branch", "feedback_files", "return_feedback", "return_one", "show_branch"]
