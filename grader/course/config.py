"""The course file ``course.toml`` and ``solitaire course init``.

A course directory holds everything of one course on local defaults::

    course.toml        this configuration
    roster.csv         id,name,email (one student a line)
    approvals.csv      id,variation (custom choices the instructor approved)
    assignments.csv    written by ``course assign``
    remotes/           one bare git repo per student (the default remote template)
    gradebook.db       nbgrader's gradebook (SQLite; any SQLAlchemy URL via the config)

The deadline must carry a time zone (an offset such as ``+01:00``, or a
``timezone`` key naming an IANA zone); a deadline without one is rejected,
since "23:59" means nothing without it.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from solitaire.errors import UserError

from .hosts import HOSTS
from .late import LatePolicy
from .points import approved_variations, known_variations

CONFIG_NAME = "course.toml"
DEFAULT_REMOTE = "remotes/{student}.git"
DEFAULT_GRADEBOOK = "sqlite:///{course_dir}/gradebook.db"
COURSE_ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")

_SECTIONS: dict[str, set[str]] = {
    "course": {"id", "assignment", "seed", "variations", "roster", "approvals"},
    "deadline": {"due", "timezone"},
    "late": {"grace_minutes", "penalty_per_day", "cutoff_days"},
    "remote": {"url", "trust_reflog", "branch", "host", "server_path", "handed_out"},
    "gradebook": {"url"},
    "grading": {"jobs", "timeout", "broker"},
    "return": {"branch"},  # `course return` (grader/course/feedback_return.py)
    "points": set(),  # [points.<variation>] tables, checked separately
}


@dataclass(frozen=True)
class CourseConfig:
    """Everything ``course.toml`` says, paths resolved against the course directory."""

    directory: Path
    course_id: str
    assignment: str
    seed: int
    variations: tuple[str, ...]
    deadline: dt.datetime
    late: LatePolicy = field(default_factory=LatePolicy)
    remote_template: str = DEFAULT_REMOTE
    trust_reflog: bool = True
    branch: str = "main"
    #: who vouches for receive times (grader.course.hosts): local, server, github or none
    host: str = "local"
    server_path_template: str = ""  # host = "server": the bare repos on this machine
    #: the repos exist before publish (GitHub Classroom makes them from a template): publish
    #: commits each student's starter into theirs instead of creating it
    handed_out: bool = False
    gradebook_url: str = DEFAULT_GRADEBOOK
    jobs: int = 2
    timeout: float = 600.0
    broker: str = ""  # Celery broker URL of `course grade --backend celery` ("" = none)
    roster_name: str = "roster.csv"
    approvals_name: str = "approvals.csv"
    points: dict[str, dict[str, float]] = field(default_factory=dict)
    #: the branch of each student's repo that ``course return`` commits feedback to ([return] branch)
    feedback_branch: str = "feedback"

    # -- files of the course directory -------------------------------------
    @property
    def roster_path(self) -> Path:
        return self.directory / self.roster_name

    @property
    def approvals_path(self) -> Path:
        return self.directory / self.approvals_name

    @property
    def assignments_path(self) -> Path:
        return self.directory / "assignments.csv"

    @property
    def published_path(self) -> Path:
        return self.directory / "published.csv"

    @property
    def collected_path(self) -> Path:
        return self.directory / "collected.csv"

    @property
    def ledger_path(self) -> Path:
        return self.directory / "ledger.json"

    @property
    def results_path(self) -> Path:
        return self.directory / "results.db"

    @property
    def grades_path(self) -> Path:
        return self.directory / "grades.csv"

    @property
    def work_dir(self) -> Path:
        """Private working files of the grader (fetch mirrors, extracted submissions, grading runs)."""
        return self.directory / ".work"

    @property
    def feedback_dir(self) -> Path:
        return self.directory / "feedback"

    def gradebook_db_url(self) -> str:
        return self.gradebook_url.replace("{course_dir}", str(self.directory))

    # -- remotes ------------------------------------------------------------
    def remote_url(self, student: str) -> str:
        """The git URL of ``student``'s repo (a local path when the template is local)."""
        url = self.remote_template.format(
            student=student, course=self.course_id, assignment=self.assignment
        )
        local = _local_path(url)
        if local is not None and not local.is_absolute():
            return str(self.directory / local)
        return url

    def server_repo(self, student: str) -> Path | None:
        """``student``'s bare repo on the self-hosted server (``[remote] server_path``), if set."""
        if not self.server_path_template:
            return None
        path = Path(self.server_path_template.format(
            student=student, course=self.course_id, assignment=self.assignment)).expanduser()
        return path if path.is_absolute() else self.directory / path

    def local_remote(self, student: str) -> Path | None:
        """The path of ``student``'s remote when it is a local bare repo, else None."""
        local = _local_path(self.remote_url(student))
        return local if local is not None else None


def _local_path(url: str) -> Path | None:
    """``url`` as a local path, or None for a network URL (``ssh://``, ``git@host:path`` ...)."""
    if url.startswith("file://"):
        return Path(url[len("file://"):])
    if "://" in url:
        return None
    head = url.split("/", 1)[0]
    if ":" in head and not re.match(r"^[A-Za-z]:$", head):  # scp-like host:path
        return None
    return Path(url)


def parse_deadline(value: Any, zone: str | None, where: str) -> dt.datetime:
    """The deadline as an aware datetime; rejects a deadline without a time zone."""
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            raise UserError(f"{where}: deadline {value!r} is not an ISO date-time "
                            "(e.g. 2025-03-14T23:59:00+01:00)") from None
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        raise UserError(f"{where}: deadline {value} has no time of day and no time zone "
                        "(write e.g. {value}T23:59:00+01:00)")
    if not isinstance(value, dt.datetime):
        raise UserError(f"{where}: deadline must be a date-time, not {value!r}")
    if zone:
        try:
            tz = ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise UserError(f"{where}: unknown time zone {zone!r} (e.g. Europe/Zurich)") from None
        if value.tzinfo is not None:
            raise UserError(f"{where}: give the deadline's time zone once: an offset in 'due' "
                            "or a 'timezone' key, not both")
        value = value.replace(tzinfo=tz)
    if value.tzinfo is None or value.utcoffset() is None:
        raise UserError(
            f"{where}: deadline {value.isoformat()} has no time zone; add an offset "
            f"(e.g. {value.isoformat()}+01:00) or a timezone key (e.g. timezone = \"Europe/Zurich\")"
        )
    return value


def load(directory: str | Path) -> CourseConfig:
    """The configuration of the course in ``directory`` (or of the course file given)."""
    path = Path(directory)
    if path.is_file():
        path, directory = path, path.parent
    else:
        path = path / CONFIG_NAME
    directory = Path(directory).resolve()
    if not path.is_file():
        raise UserError(f"{path}: no course file here (create one with `solitaire course init DIR`)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as error:
        raise UserError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"{path}: not valid TOML: {error}") from None
    return from_dict(data, directory, str(path))


def _check_keys(data: dict[str, Any], where: str) -> None:
    for section, value in data.items():
        if section not in _SECTIONS:
            raise UserError(f"{where}: unknown section [{section}] (known: {', '.join(_SECTIONS)})")
        if not isinstance(value, dict):
            raise UserError(f"{where}: [{section}] must be a table")
        allowed = _SECTIONS[section]
        if section == "points":
            continue
        for key in value:
            if key not in allowed:
                raise UserError(f"{where}: unknown key {key!r} in [{section}] "
                                f"(known: {', '.join(sorted(allowed))})")


def _typed(table: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any, where: str) -> Any:
    value = table.get(key, default)
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise UserError(f"{where}: {key} must be a number, not {value!r}")
    if not isinstance(value, kind):
        raise UserError(f"{where}: {key} has the wrong type ({value!r})")
    return value


def from_dict(data: dict[str, Any], directory: Path, where: str = CONFIG_NAME) -> CourseConfig:
    """Check and convert the parsed TOML ``data`` of the course in ``directory``."""
    _check_keys(data, where)
    course = data.get("course", {})
    for key in ("id", "assignment", "seed"):
        if key not in course:
            raise UserError(f"{where}: [course] needs {key!r}")
    course_id = _typed(course, "id", str, None, where)
    assignment = _typed(course, "assignment", str, None, where)
    for label, value in (("id", course_id), ("assignment", assignment)):
        if not COURSE_ID_PATTERN.match(value):
            raise UserError(f"{where}: course {label} {value!r} may hold only letters, digits, '.', '_', '-'")
    seed = _typed(course, "seed", int, None, where)
    variations = tuple(course.get("variations", approved_variations()))
    known = known_variations()
    for name in variations:
        if name not in known:
            raise UserError(f"{where}: unknown variation {name!r} in [course] variations "
                            f"(known: {', '.join(known)})")
    if not variations:
        raise UserError(f"{where}: [course] variations is empty")
    if len(set(variations)) != len(variations):
        raise UserError(f"{where}: [course] variations lists a variation twice")

    deadline_table = data.get("deadline", {})
    if "due" not in deadline_table:
        raise UserError(f"{where}: [deadline] needs 'due' (e.g. due = 2025-03-14T23:59:00+01:00)")
    deadline = parse_deadline(deadline_table["due"], deadline_table.get("timezone"), where)

    late_table = data.get("late", {})
    late = LatePolicy(
        grace_minutes=_typed(late_table, "grace_minutes", int, 15, where),
        penalty_per_day=float(_typed(late_table, "penalty_per_day", (int, float), 10, where)),
        cutoff_days=_typed(late_table, "cutoff_days", int, 3, where),
    )
    late.check(where)

    remote = data.get("remote", {})
    template = _typed(remote, "url", str, DEFAULT_REMOTE, where)
    if "{student}" not in template:
        raise UserError(f"{where}: [remote] url must contain {{student}} (e.g. {DEFAULT_REMOTE})")
    try:
        template.format(student="s", course="c", assignment="a")
    except (KeyError, IndexError, ValueError) as error:
        raise UserError(f"{where}: [remote] url {template!r} has an unknown placeholder ({error}); "
                        "known: {student}, {course}, {assignment}") from None

    default_host = "local" if _local_path(template) is not None else "none"
    host = _typed(remote, "host", str, default_host, where)
    if host not in HOSTS:
        raise UserError(f"{where}: [remote] host must be one of {', '.join(HOSTS)}, not {host!r}")
    server_path = _typed(remote, "server_path", str, "", where)
    if host == "server" and "{student}" not in server_path:
        raise UserError(f"{where}: [remote] host = \"server\" needs server_path, the path of each "
                        "student's bare repo on this machine, with {student} (e.g. /srv/git/{student}.git)")

    grading = data.get("grading", {})
    jobs = _typed(grading, "jobs", int, 2, where)
    if jobs < 1:
        raise UserError(f"{where}: [grading] jobs must be at least 1")
    points = _points(data.get("points", {}), where)
    return CourseConfig(
        directory=directory,
        course_id=course_id,
        assignment=assignment,
        seed=seed,
        variations=variations,
        deadline=deadline,
        late=late,
        remote_template=template,
        trust_reflog=_typed(remote, "trust_reflog", bool, True, where),
        branch=_typed(remote, "branch", str, "main", where),
        host=host,
        server_path_template=server_path,
        handed_out=_typed(remote, "handed_out", bool, False, where),
        gradebook_url=_typed(data.get("gradebook", {}), "url", str, DEFAULT_GRADEBOOK, where),
        jobs=jobs,
        timeout=float(_typed(grading, "timeout", (int, float), 600, where)),
        broker=_typed(grading, "broker", str, "", where),
        roster_name=_typed(course, "roster", str, "roster.csv", where),
        approvals_name=_typed(course, "approvals", str, "approvals.csv", where),
        points=points,
        feedback_branch=_feedback_branch(data.get("return", {}), remote, where),
    )


def _feedback_branch(table: dict[str, Any], remote: dict[str, Any], where: str) -> str:
    """``[return] branch``: never the branch students submit on."""
    name = _typed(table, "branch", str, "feedback", where)
    if not name or name == remote.get("branch", "main"):
        raise UserError(f"{where}: [return] branch must name a branch other than the students' "
                        f"submission branch ({remote.get('branch', 'main')!r}), e.g. \"feedback\"")
    return name


def _points(table: dict[str, Any], where: str) -> dict[str, dict[str, float]]:
    """``[points.<variation>]`` overrides of the catalog's points per rule category."""
    from .points import catalog_points

    known = known_variations()
    result: dict[str, dict[str, float]] = {}
    for variation, categories in table.items():
        if variation not in known:
            raise UserError(f"{where}: unknown variation {variation!r} in [points.{variation}]")
        if not isinstance(categories, dict):
            raise UserError(f"{where}: [points.{variation}] must be a table of category = points")
        valid = catalog_points(variation)
        for category, value in categories.items():
            if category not in valid:
                raise UserError(f"{where}: {variation} has no rule category {category!r} "
                                f"(its categories: {', '.join(valid)})")
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise UserError(f"{where}: points of {variation}.{category} must be a number >= 0")
        result[variation] = {c: float(v) for c, v in categories.items()}
    return result


# -- course init ---------------------------------------------------------------

CONFIG_TEMPLATE = """\
# Solitaire Lab course file (see docs/instructor-guide.md).

[course]
id = "{course_id}"
assignment = "{assignment}"
# Every random choice of `course assign` derives from this seed.
seed = {seed}
# The approved variations students are assigned (balanced). Custom choices in
# approvals.csv may name any variation of the catalog.
variations = [{variations}]
roster = "roster.csv"
approvals = "approvals.csv"

[deadline]
# A time zone is required: an offset (+01:00, Z) here, or a `timezone` key
# (e.g. timezone = "Europe/Zurich") with a deadline written without offset.
due = {deadline}

[late]
# A push received up to grace_minutes after the deadline is on time.
grace_minutes = 15
# Percent of the earned score taken off per started day late.
penalty_per_day = 10
# Pushes received more than cutoff_days after the deadline are ignored
# (the last push before the cut-off is graded). 0 = no late work accepted.
cutoff_days = 3

[remote]
# Where each student's repo lives. Placeholders: {{student}}, {{course}}, {{assignment}}.
# A relative path is a local bare repo under this directory (created by
# `course publish`); any git URL works, e.g. "git@github.com:my-org/{{course}}-{{student}}.git".
url = "{remote}"
branch = "main"
# Receive times: the grader records when its own fetch first saw each commit
# (ledger.json, per repository, on every `course collect`); a host that vouches
# for push times is read too. host = "local": local bare repos, their reflog (git
# records when each push arrived); "server": a self-hosted git server whose bare
# repos this machine reads at server_path (`course publish` installs a hook that
# logs each push's time), e.g. server_path = "/srv/git/{{student}}.git";
# "github": GitHub's repository activity API (token in $GITHUB_TOKEN); "none".
# Default: "local" for a local url, else "none".
{host_line}
# The repos exist before `course publish` (GitHub Classroom creates each from a
# template when the student accepts): publish then commits the student's starter
# into their repo, on top of the template's commit.
handed_out = {handed_out}
# Set false when students can write the bare repos' files directly (the reflog
# would then be theirs to edit).
trust_reflog = true

[gradebook]
# nbgrader's gradebook: any SQLAlchemy URL.
url = "{gradebook}"

[grading]
jobs = 2
# Seconds one submission may take to grade.
timeout = 600

[return]
# `course return` commits each student's feedback (feedback.html, feedback.md)
# to this branch of their repo and pushes it; main is never touched.
branch = "feedback"

# Points per rule category come from the catalog (assignments/catalog.toml);
# override them per variation, e.g.:
# [points.scorpion]
# deal = 10
"""

ROSTER_EXAMPLE = """\
id,name,email
ada,Ada Lovelace,ada@example.edu
alan,Alan Turing,alan@example.edu
grace,Grace Hopper,grace@example.edu
"""

APPROVALS_EXAMPLE = "id,variation\n"


def default_deadline(today: dt.date) -> dt.datetime:
    """Two weeks after ``today`` at 23:59 UTC (a placeholder the instructor edits)."""
    return dt.datetime.combine(today + dt.timedelta(days=14), dt.time(23, 59), tzinfo=dt.UTC)


def render(
    course_id: str,
    assignment: str,
    seed: int,
    variations: tuple[str, ...],
    deadline: dt.datetime,
    remote: str = DEFAULT_REMOTE,
    gradebook: str = DEFAULT_GRADEBOOK,
    host: str | None = None,
    handed_out: bool = False,
) -> str:
    """The text of a course file with these values."""
    return CONFIG_TEMPLATE.format(
        host_line=f'host = "{host}"' if host else '# host = "local"',
        handed_out="true" if handed_out else "false",
        course_id=course_id,
        assignment=assignment,
        seed=seed,
        variations=", ".join(f'"{v}"' for v in variations),
        deadline=deadline.isoformat(),
        remote=remote,
        gradebook=gradebook,
    )


def init(
    directory: str | Path,
    course_id: str = "solitaire-lab",
    assignment: str = "solitaire",
    seed: int = 2025,
    deadline: dt.datetime | str | None = None,
    variations: tuple[str, ...] | None = None,
    remote: str = DEFAULT_REMOTE,
    roster: str | None = ROSTER_EXAMPLE,
    host: str | None = None,
    handed_out: bool = False,
) -> CourseConfig:
    """Create a course directory with ``course.toml``, an example roster and an empty approvals file.

    Refuses to overwrite an existing course file. Returns the loaded configuration.
    """
    directory = Path(directory)
    config_path = directory / CONFIG_NAME
    if config_path.exists():
        raise UserError(f"{config_path}: a course already exists here (edit it, or choose another DIR)")
    if deadline is None:
        deadline = default_deadline(dt.date.today())
    elif isinstance(deadline, str):
        deadline = parse_deadline(deadline, None, "--deadline")
    elif deadline.tzinfo is None:
        raise UserError(f"deadline {deadline.isoformat()} has no time zone")
    text = render(course_id, assignment, seed, variations or approved_variations(), deadline, remote,
                  host=host, handed_out=handed_out)
    # checked before anything is created: a bad variation leaves no empty folder behind
    from_dict(tomllib.loads(text), directory.resolve(), str(config_path))
    directory.mkdir(parents=True, exist_ok=True)
    config_path.write_text(text, encoding="utf-8")
    if roster is not None and not (directory / "roster.csv").exists():
        (directory / "roster.csv").write_text(roster, encoding="utf-8")
    if not (directory / "approvals.csv").exists():
        (directory / "approvals.csv").write_text(APPROVALS_EXAMPLE, encoding="utf-8")
    return load(directory)
