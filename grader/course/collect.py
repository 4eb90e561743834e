"""``solitaire course collect``: the submission each student's remote held at the deadline.

Receive times, never commit dates
---------------------------------
A commit's date is whatever the student's clock (or ``GIT_COMMITTER_DATE``)
said. The graded commit is chosen from *ref updates* with times the grader
trusts:

* the ledger (:mod:`grader.course.ledger`): the time at which a collect's own
  fetch of that repository first saw each value of the student's main branch
  (taken when the fetch completed, per repository, never the run's start); it
  works with any remote, and is exact when ``course collect`` runs at the
  deadline (e.g. from cron);
* the host's receive times (:mod:`grader.course.hosts`): a local bare repo's
  reflog (``course publish`` turns on ``core.logAllRefUpdates``), a
  self-hosted server's post-receive log, or GitHub's repository activity:
  when each push arrived, also between two collects.

The two logs are merged by time; the branch's value at a moment is the value
of the last update at or before it. The graded commit is the branch's value
at the cut-off of the late policy (:mod:`grader.course.late`); its receive
time is when the branch took that value (the first of consecutive updates to
the same SHA). Lateness and penalty follow from that time.

Every assigned student gets one row in ``collected.csv`` with a status:
``ok``, ``late``, ``not-submitted`` (only the starter commit), ``wrong-branch``
(commits only on a branch other than main), ``empty`` (a repo without any
commit), ``missing`` (no repo), ``unreachable`` (git could not reach the
remote) — with the reason in words. One student's problem never stops the
others. The graded tree is extracted to ``.work/submissions/<id>/<sha>/``.
"""

from __future__ import annotations

import datetime as dt
import io
import tarfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import git

from solitaire.errors import UserError

from .assign import load_assignments
from .config import CourseConfig
from .gitutil import git_error, init_bare
from .hosts import Event, GitHubActivity, Host, HostError, from_config
from .late import Lateness
from .ledger import Ledger, iso
from .lock import course_lock
from .publish import read_published, utc_now
from .roster import read_rows, write_csv

COLLECTED_COLUMNS = (
    "id", "variation", "status", "sha", "received_at", "seconds_late", "days_late",
    "penalty_percent", "submission", "reason",
)
GRADABLE = ("ok", "late")
FETCH_ATTEMPTS = 3  # a student is unreachable only when every attempt failed
RETRY_PAUSE = 0.5  # seconds before the second attempt, twice that before the third
#: how the reason of a kept row starts: this collect could not reach the repo, the last one could
UNREACHABLE_NOW = "unreachable in this collect"
#: Statuses that need the instructor: the course's machinery could not reach the student's
#: work. A student's own outcome (not-submitted, empty, wrong-branch, late) is reported but
#: needs nobody. Exit status 1 of the course commands means "done, with students needing
#: attention" (see NEEDS_ATTENTION in export.py and docs/instructor-guide.md).
ATTENTION = ("missing", "unreachable")
Clock = Callable[[], dt.datetime]


@dataclass(frozen=True)
class Collected:
    """One row of ``collected.csv``."""

    student: str
    variation: str
    status: str
    sha: str = ""
    received_at: str = ""
    seconds_late: float = 0.0
    days_late: int = 0
    penalty_percent: float = 0.0
    submission: str = ""
    reason: str = ""

    @property
    def gradable(self) -> bool:
        return self.status in GRADABLE

    def row(self) -> tuple[object, ...]:
        return (self.student, self.variation, self.status, self.sha, self.received_at,
                f"{self.seconds_late:.0f}", self.days_late, f"{self.penalty_percent:g}",
                self.submission, self.reason)


def read_collected(config: CourseConfig) -> list[Collected]:
    """The rows of the last collect; a clear error when none ran."""
    path = config.collected_path
    if not path.exists():
        raise UserError(f"{path}: nothing collected yet (run `solitaire course collect`)")
    return [
        Collected(row["id"], row["variation"], row["status"], row["sha"], row["received_at"],
                  float(row["seconds_late"] or 0), int(row["days_late"] or 0),
                  float(row["penalty_percent"] or 0), row["submission"], row["reason"])
        for _, row in read_rows(path, "collected file", COLLECTED_COLUMNS)
    ]


def value_at(events: Iterable[Event], limit: dt.datetime) -> tuple[str | None, dt.datetime | None]:
    """The branch's value at ``limit`` and since when it held it (merged, time-ordered events)."""
    current: str | None = None
    since: dt.datetime | None = None
    for when, sha in sorted(events, key=lambda event: event[0]):
        if when > limit:
            break
        if sha != current:
            current, since = sha, when
    return current, since


def extract(mirror: git.Repo, sha: str, dest: Path) -> None:
    """The tree of commit ``sha`` written to ``dest`` (safe against odd paths in the archive)."""
    if dest.is_dir() and any(dest.iterdir()):
        return
    dest.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    mirror.archive(buffer, treeish=sha, format="tar")
    buffer.seek(0)
    with tarfile.open(fileobj=buffer) as archive:
        archive.extractall(dest, filter="data")


def _is_ancestor(mirror: git.Repo, sha: str, descendant: str) -> bool:
    try:
        return bool(mirror.is_ancestor(mirror.commit(sha), mirror.commit(descendant)))
    except (git.GitCommandError, ValueError):  # the starter is not in the mirror (a rewritten history)
        return False


class Collector:
    """Collects the class; one instance per run (it holds the ledger and the clock)."""

    def __init__(self, config: CourseConfig, clock: Clock = utc_now, host: Host | None = None) -> None:
        self.config = config
        self.clock = clock
        self.host = host or from_config(config)
        self.ledger = Ledger.load(config.ledger_path)
        self.published = read_published(config.published_path)
        self.mirrors = config.work_dir / "mirrors"

    def fetch(self, student: str, url: str) -> git.Repo:
        """A local mirror of ``student``'s remote, updated (raises GitCommandError)."""
        path = self.mirrors / f"{student}.git"
        mirror = git.Repo(path) if path.exists() else init_bare(path, self.config.branch)
        mirror.git.fetch(url, "+refs/heads/*:refs/heads/*", "--prune", "--no-tags", "--update-head-ok")
        return mirror

    def collect_one(self, student: str, variation: str) -> Collected:
        config = self.config
        url = config.remote_url(student)
        local = config.local_remote(student)
        if local is not None and not local.exists():
            return Collected(student, variation, "missing",
                             reason=f"no repository at {local} (not published yet? run `course publish`)")
        try:
            mirror = self.fetch(student, url)
        except git.GitCommandError as error:
            return Collected(student, variation, "unreachable",
                             reason=f"cannot fetch {url}: {git_error(error)}")
        now = self._now()  # when this repository's fetch completed: what it saw was there by then
        try:
            return self.choose(student, variation, mirror, now)
        finally:
            mirror.close()

    def choose(self, student: str, variation: str, mirror: git.Repo, now: dt.datetime) -> Collected:
        config = self.config
        branch = config.branch
        heads = {head.name: head.commit.hexsha for head in mirror.heads}
        entry = self.ledger.student(student)
        reachable = mirror.git.rev_list("--all").split() if heads else []
        entry.observe(now, heads.get(branch), reachable)
        if not heads:
            return Collected(student, variation, "empty", reason="the repository has no commits")
        # the feedback branch `course return` pushes is the course's, not the student's work
        others = sorted(name for name in heads if name not in (branch, config.feedback_branch))
        starter = self.published[student].sha if student in self.published else None
        if branch not in heads:
            return Collected(student, variation, "wrong-branch",
                             reason=f"no branch {branch!r} (found: {', '.join(others)}); "
                                    f"only {branch} is graded")
        events: list[Event] = entry.tip_events() + self.host.receive_events(student)
        cutoff = config.late.cutoff(config.deadline)
        sha, since = value_at(events, cutoff)
        after = [when for when, value in events if when > cutoff and value != sha]
        refused = (f"; a push received at {iso(min(after))} came after the cut-off {iso(cutoff)}"
                   if after else "")
        if sha is None or since is None:
            return Collected(student, variation, "not-submitted",
                             reason=f"nothing on {branch} before the cut-off {iso(cutoff)}{refused}")
        if starter is None and config.handed_out:
            return Collected(student, variation, "missing", sha=sha,
                             reason="the repo was handed out (GitHub Classroom) but the starter was never "
                                    "published into it: run `course publish`")
        if sha == starter or (starter is not None and _is_ancestor(mirror, sha, starter)):
            # the starter, or the template it was committed onto: nothing of the student's
            moved = [name for name in others if heads[name] != starter]
            reason = f"no push after the starter commit{refused}"
            status = "not-submitted"
            if moved:
                status = "wrong-branch"
                reason = (f"{branch} still holds the starter; commits found on branch "
                          f"{', '.join(repr(m) for m in moved)}: push them to {branch}")
            return Collected(student, variation, status, sha=sha, received_at=iso(since), reason=reason)
        lateness: Lateness = config.late.assess(config.deadline, since)
        dest = config.work_dir / "submissions" / student / sha
        extract(mirror, sha, dest)
        status = "late" if lateness.is_late else "ok"
        reason = (f"{lateness.days_late} day(s) late: -{lateness.penalty_percent:g}%" if lateness.is_late
                  else "on time") + refused
        return Collected(student, variation, status, sha, iso(since), lateness.seconds_late,
                         lateness.days_late, lateness.penalty_percent, str(dest), reason)

    def _now(self) -> dt.datetime:
        now = self.clock()
        if now.tzinfo is None:
            raise ValueError("the collect clock must give aware datetimes")
        return now

    def attempt(self, student: str, variation: str) -> Collected:
        """One student, retried when git fails (a fetch can race a push landing at that moment)."""
        row = self._collect_safely(student, variation)
        for attempt in range(1, FETCH_ATTEMPTS):
            if row.status != "unreachable":
                break
            time.sleep(RETRY_PAUSE * attempt)
            row = self._collect_safely(student, variation)
        return row

    def _collect_safely(self, student: str, variation: str) -> Collected:
        try:
            return self.collect_one(student, variation)
        except (git.GitError, OSError, tarfile.TarError, HostError) as error:
            return Collected(student, variation, "unreachable", reason=f"cannot collect: {error}")

    def run(self, progress: Callable[[Collected], None] | None = None) -> list[Collected]:
        self.ledger.collects.append(iso(self._now()))
        try:
            previous = {row.student: row for row in read_collected(self.config)}
        except UserError:  # the first collect, or an unreadable file: nothing to keep
            previous = {}
        rows: list[Collected] = []
        for assignment in load_assignments(self.config):
            row = self.attempt(assignment.student, assignment.variation)
            before = previous.get(assignment.student)
            if row.status == "unreachable" and before is not None and before.gradable \
                    and before.variation == row.variation:
                # our failure never costs a student a submission already collected (and graded)
                row = replace(before, reason=f"{UNREACHABLE_NOW} ({row.reason}); the previous "
                                             f"collect's submission is kept: {before.reason}")
            rows.append(row)
            self.ledger.save()
            if progress:
                progress(row)
        write_csv(self.config.collected_path, COLLECTED_COLUMNS, [row.row() for row in rows])
        return rows


def dry_run(config: CourseConfig, say: Callable[[str], None]) -> None:
    """Say what a collect would fetch and ask the host, without doing any of it."""
    host = from_config(config, GitHubActivity(None, dry_run=say))
    say(f"receive times from the host: {host.kind}")
    for assignment in load_assignments(config):
        say(f"git fetch {config.remote_url(assignment.student)} +refs/heads/*")
        host.receive_events(assignment.student)


def provisional(config: CourseConfig, now: dt.datetime) -> str | None:
    """Why a collect at ``now`` is not final (pushes may still count), or None once it is."""
    deadline, cutoff = config.deadline, config.late.cutoff(config.deadline)
    if now < deadline:
        return (f"collected before the deadline ({iso(deadline)}, in {_duration(deadline - now)}): "
                "this collection is provisional; collect again after the deadline"
                + (f" (late pushes count until {iso(cutoff)})" if cutoff > deadline else ""))
    if now < cutoff:
        return (f"late pushes still count until the cut-off {iso(cutoff)} (in {_duration(cutoff - now)}): "
                "this collection is provisional for students who push late; collect again after it")
    return None


def _duration(delta: dt.timedelta) -> str:
    """``2 days 3 h``, ``5 h 20 min``, ``12 min``: how long until a moment, to the minute."""
    minutes = int(delta.total_seconds() // 60)
    days, hours, minutes = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        return f"{days} day{'s' if days != 1 else ''} {hours} h"
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


def collect(
    config: CourseConfig, clock: Clock = utc_now, progress: Callable[[Collected], None] | None = None
) -> list[Collected]:
    """Collect every assigned student (see the module docstring); writes ``collected.csv``."""
    with course_lock(config.work_dir, "collect"):
        return Collector(config, clock).run(progress)
