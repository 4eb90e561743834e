"""``solitaire course publish``: one git repo per student, pushed to the student's remote.

For each assigned student: when the remote template is local, the bare repo
is created (with its reflog on); the student repo is generated from the
starter of the student's variation (:func:`grader.starter.make_repo`), given
one initial commit and pushed to the remote's main branch. A remote whose
branch already exists is left alone, so a rerun publishes only the students
added since. The roster must match the assignments (:mod:`roster_sync`): a
student added or renamed since ``course assign`` stops the publish before
anything is pushed; a student removed is not published. ``published.csv``
records the URL and the SHA of the initial commit (``course collect`` knows
from it that a student has not pushed yet).
"""

from __future__ import annotations

import datetime as dt
import functools
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import git

from solitaire.errors import UserError

from . import hosts
from .assign import Assignment, load_assignments
from .config import CourseConfig
from .gitutil import commit_all, git_error, init_bare, push, remote_branches
from .lock import course_lock
from .points import known_variations
from .roster import read_roster, read_rows, write_csv
from .roster_sync import refuse_if_changed

PUBLISHED_COLUMNS = ("id", "variation", "url", "sha", "published_at")
RepoWriter = Callable[[str, Path], object]
Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def write_student_repo(variation: str, dest: Path, config: CourseConfig | None = None) -> None:
    """The files of a fresh student repo for ``variation`` (the student-repo generator); with a
    course, its README states the course's deadline, late policy and points."""
    from grader.starter import make_repo

    if config is None:
        make_repo(variation, dest)
        return
    from grader.starter.terms import course_terms

    from .points import category_points

    make_repo(variation, dest, points=category_points(variation, config.points), course=course_terms(config))


class StarterError(Exception):
    """The student-repo generator failed for a variation."""


@dataclass(frozen=True)
class Published:
    student: str
    variation: str
    url: str
    sha: str
    published_at: str


@dataclass
class PublishReport:
    published: list[Published] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    #: (student, what the instructor should know): a handed-out repo holding another variation
    notes: list[tuple[str, str]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # assigned, no longer on the roster: not published


def read_published(path: Path) -> dict[str, Published]:
    if not path.exists():
        return {}
    return {
        row["id"]: Published(row["id"], row["variation"], row["url"], row["sha"], row["published_at"])
        for _, row in read_rows(path, "published file", PUBLISHED_COLUMNS)
    }


def publish_one(
    student: str, variation: str, url: str, branch: str, when: dt.datetime, writer: RepoWriter
) -> str:
    """Generate, commit and push one student repo; returns the SHA of the initial commit."""
    with tempfile.TemporaryDirectory(prefix=f"solitaire-publish-{student}-") as temp:
        work = Path(temp) / "repo"
        work.mkdir()
        try:
            writer(variation, work)
        except Exception as error:  # noqa: BLE001 - reported per student
            raise StarterError(f"cannot build the starter repo of {variation}: {error}") from error
        repo = git.Repo.init(work, initial_branch=branch)
        sha = commit_all(repo, f"Starter for {variation}", when=when)
        push(repo, url, f"HEAD:refs/heads/{branch}", when)
        repo.close()
    return sha


def publish_into(
    student: str, variation: str, url: str, branch: str, when: dt.datetime, writer: RepoWriter,
    known: tuple[str, ...],
) -> tuple[str, list[str]]:
    """Commit ``variation``'s starter into the existing repo at ``url`` (a Classroom repo made
    from a template), on top of its ``branch``; returns (the new SHA, other variations' rules
    files found in the repo)."""
    with tempfile.TemporaryDirectory(prefix=f"solitaire-publish-{student}-") as temp:
        work, files = Path(temp) / "repo", Path(temp) / "starter"
        repo = git.Repo.clone_from(url, work)
        try:
            if branch not in [head.name for head in repo.heads]:
                raise StarterError(f"{url} has no branch {branch!r} yet (has the student accepted "
                                   "the assignment?)")
            repo.git.checkout(branch)
            others = [f"{name}.py" for name in known if name != variation and (work / f"{name}.py").exists()]
            files.mkdir()
            try:
                writer(variation, files)
            except Exception as error:  # noqa: BLE001 - reported per student
                raise StarterError(f"cannot build the starter repo of {variation}: {error}") from error
            shutil.copytree(files, work, dirs_exist_ok=True)
            sha = commit_all(repo, f"Starter for {variation}", when=when)
            push(repo, url, f"HEAD:refs/heads/{branch}", when)
        finally:
            repo.close()
    return sha, others


def _prepare_host(host: hosts.Host, student: str, report: PublishReport) -> None:
    """Set up the host's receive-time log for ``student`` (a self-hosted server's hook)."""
    try:
        host.prepare(student)
    except (UserError, OSError) as error:
        report.failed.append((student, f"the host's receive-time log is not set up: {error}"))


def publish(
    config: CourseConfig,
    clock: Clock = utc_now,
    writer: RepoWriter = write_student_repo,
    progress: Callable[[str], None] | None = None,
) -> PublishReport:
    """Publish every assigned student not yet published; see the module docstring."""
    with course_lock(config.work_dir, "publish"):
        return _publish(config, clock, writer, progress)


def check_roster(config: CourseConfig, assignments: list[Assignment] | None = None) -> list[str]:
    """The students assigned but no longer on the roster; :class:`~.roster_sync.RosterChanged`
    (one line) when the roster changed in a way publish refuses (see :func:`refuse_if_changed`)."""
    if assignments is None:
        assignments = load_assignments(config)
    roster, _ = read_roster(config.roster_path)
    return refuse_if_changed(roster, assignments, str(config.roster_path)).removed


def _publish(
    config: CourseConfig,
    clock: Clock,
    writer: RepoWriter,
    progress: Callable[[str], None] | None,
) -> PublishReport:
    report = PublishReport()
    assignments = load_assignments(config)
    report.removed = check_roster(config, assignments)
    if writer is write_student_repo:  # the course's own terms in each README
        writer = functools.partial(write_student_repo, config=config)
    records = read_published(config.published_path)
    host = hosts.from_config(config)
    for assignment in assignments:
        student, variation = assignment.student, assignment.variation
        if student in report.removed:
            continue
        url = config.remote_url(student)
        local = config.local_remote(student)
        try:
            if local is not None and not local.exists():
                init_bare(local, config.branch).close()
            when = clock()
            if config.handed_out:  # the repo exists (GitHub Classroom): commit the starter into it
                if student in records:
                    report.skipped.append(student)
                    continue
                sha, others = publish_into(student, variation, url, config.branch, when, writer,
                                           known_variations())
                if others:
                    report.notes.append((student, f"the repo also holds {', '.join(others)} (another "
                                                  f"variation's file, from the template?); {variation} "
                                                  "is graded: remove them from the template"))
            elif config.branch in remote_branches(url):
                report.skipped.append(student)
                _prepare_host(host, student, report)  # installed by a later publish too
                continue
            else:
                sha = publish_one(student, variation, url, config.branch, when, writer)
        except git.GitCommandError as error:
            report.failed.append((student, f"cannot publish to {url}: {git_error(error)}"))
            continue
        except (StarterError, OSError) as error:
            report.failed.append((student, str(error)))
            continue
        _prepare_host(host, student, report)
        record = Published(student, variation, url, sha, when.isoformat())
        records[student] = record
        report.published.append(record)
        if progress:
            progress(student)
        write_csv(config.published_path, PUBLISHED_COLUMNS,
                  [(r.student, r.variation, r.url, r.sha, r.published_at) for r in records.values()])
    return report
