"""Small git helpers on gitpython shared by publish, collect and the demo."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import git

INSTRUCTOR = git.Actor("Solitaire Lab", "solitaire-lab@localhost")


def git_error(error: git.GitCommandError) -> str:
    """The useful last line of a failed git command's message."""
    text = error.stderr if isinstance(error.stderr, str) else str(error.stderr or "")
    lines = [
        line.strip().removeprefix("stderr:").strip(" '")
        for line in text.strip().splitlines()
        if line.strip()
    ]
    lines = [line for line in lines if line and not line.startswith("hint:")]
    if lines:
        return lines[-1]
    return f"git {error.command[1] if error.command else ''} failed (status {error.status})"


def init_bare(path: Path, branch: str = "main") -> git.Repo:
    """A bare repo at ``path`` whose reflog records every push (core.logAllRefUpdates).

    The reflog of a bare repo records when each ref update arrived, which
    ``course collect`` reads as receive times (see :mod:`grader.course.collect`).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    repo = git.Repo.init(path, bare=True, initial_branch=branch)
    with repo.config_writer() as config:
        config.set_value("core", "logAllRefUpdates", "true")
    return repo


def git_date(when: dt.datetime) -> str:
    """``when`` in git's internal date format (seconds since the epoch and offset)."""
    return f"{int(when.timestamp())} {when.strftime('%z') or '+0000'}"


def push(
    repo: git.Repo, url: str, refspec: str, when: dt.datetime | None = None, force: bool = False
) -> None:
    """Push ``refspec`` to ``url``.

    ``when`` sets the time git records for the push (``GIT_COMMITTER_DATE``):
    into a local bare repo the receiving git runs with this environment, so its
    reflog records ``when`` as the receive time. Used to simulate time in the
    demo and the tests; real runs pass the current time.
    """
    env = {"GIT_COMMITTER_DATE": git_date(when)} if when is not None else {}
    args = ["--force"] if force else []
    repo.git.push(*args, url, refspec, env=env)


def commit_all(
    repo: git.Repo,
    message: str,
    author: git.Actor = INSTRUCTOR,
    when: dt.datetime | None = None,
) -> str:
    """Stage every file of the work tree (additions, changes, deletions) and commit; returns the SHA."""
    repo.git.add(all=True)
    date = git_date(when) if when is not None else None
    commit = repo.index.commit(
        message,
        author=author,
        committer=author,
        author_date=date,
        commit_date=date,
        skip_hooks=True,
    )
    return commit.hexsha


def remote_branches(url: str) -> dict[str, str]:
    """Branch name → SHA of the repo at ``url`` (raises GitCommandError when it cannot be reached)."""
    output = str(git.Git().ls_remote("--heads", url))
    branches = {}
    for line in output.splitlines():
        sha, _, ref = line.partition("\t")
        if ref.startswith("refs/heads/"):
            branches[ref[len("refs/heads/"):]] = sha
    return branches
