"""Receive times a host vouches for (grader/course/hosts.py), and the two races of issue 13.

* A push made 62 s before the deadline and first seen by a collect after it is
  on time when the host vouches for its receive time (a self-hosted server's
  post-receive log), and late only where no host time exists (the collect's
  own fetch time is all there is).
* A push made after the deadline while a collect is running is late: each
  repository is stamped when its own fetch completed, never at the run's start.
* GitHub: the repository activity API read from recorded responses (two pages,
  the token sent, errors per repository, ``--dry-run`` printing the requests).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from workflow_support import DEADLINE, at, new_course, notes, push

from grader.course import assign, collect, config, publish
from grader.course.hosts import HOOK_LOG, GitHubActivity, HostError, github_repo, read_hook_log
from grader.course.ledger import iso
from solitaire.errors import UserError

DATA = Path(__file__).resolve().parents[1] / "data" / "github"


def _set_remote(course: config.CourseConfig, lines: str) -> config.CourseConfig:
    """The course with ``lines`` added to its [remote] table (course.toml edited as an instructor would)."""
    path = course.directory / config.CONFIG_NAME
    text = path.read_text(encoding="utf-8").replace("[remote]\n", "[remote]\n" + lines + "\n", 1)
    path.write_text(text, encoding="utf-8")
    return config.load(course.directory)


def test_a_push_before_the_deadline_first_seen_after_it_is_on_time_with_a_server_log(tmp_path: Path) -> None:
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    deadline = now + dt.timedelta(seconds=62)  # the push below lands 62 s before the deadline
    results = {}
    for host in ("server", "none"):
        course = new_course(tmp_path / host, ["ada"], deadline=deadline)
        server = 'host = "server"\nserver_path = "remotes/{student}.git"'
        course = _set_remote(course, server if host == "server" else 'host = "none"')
        assign.run(course)
        report = publish.publish(course, clock=lambda: now - dt.timedelta(days=1))
        assert not report.failed, report.failed
        hook = course.directory / "remotes" / "ada.git" / "hooks" / "post-receive"
        assert hook.is_file() == (host == "server")
        push(course, "ada", now)  # the hook stamps the real time of the push: now, before the deadline
        row = collect.collect(course, clock=lambda: deadline + dt.timedelta(hours=2))[0]
        results[host] = row
    assert read_hook_log(tmp_path / "server" / "remotes" / "ada.git", "main")
    assert results["server"].status == "ok", results["server"].reason
    assert results["none"].status == "late"  # no host time: first seen by the collect, after the deadline


def test_a_push_after_the_deadline_during_a_collect_is_late(published_course) -> None:
    course = _set_remote(published_course(["ada", "bob"]), 'host = "none"')
    push(course, "ada", at(-3))
    push(course, "bob", at(-3))
    collect.collect(course, clock=lambda: at(-2))  # both seen on time
    moment = {"now": at(-0.01)}  # the collect starts just before the deadline ...

    def during(row: collect.Collected) -> None:
        if row.student == "ada":  # ... and while it runs, past the deadline, bob pushes again
            moment["now"] = at(2)
            push(course, "bob", at(2), notes("after the deadline"))

    rows = {r.student: r for r in collect.collect(course, clock=lambda: moment["now"], progress=during)}
    assert rows["ada"].status == "ok"
    # stamped at its own fetch (after the deadline), not at the run's start (before it): late
    assert rows["bob"].status == "late" and rows["bob"].received_at == iso(at(2))


class Recorded:
    """A transport answering from the recorded pages, keeping every request."""

    def __init__(self, pages: dict[str, tuple[int, dict[str, str], bytes]]) -> None:
        self.pages = pages
        self.requests: list[tuple[str, dict[str, str]]] = []

    def __call__(self, url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        self.requests.append((url, headers))
        return self.pages[url]


def _recorded(repo: str) -> tuple[GitHubActivity, Recorded]:
    first = GitHubActivity(None).first_url(repo, "main")
    second = first + "&after=Y3Vyc29yOnYy"
    transport = Recorded({
        first: (200, {"Link": f'<{second}>; rel="next"'}, (DATA / "activity-page1.json").read_bytes()),
        second: (200, {}, (DATA / "activity-page2.json").read_bytes()),
    })
    return GitHubActivity("t0ken", transport), transport


def test_github_activity_gives_every_push_across_pages_with_the_token() -> None:
    github, transport = _recorded("cs101/ada-solitaire")
    events = github.events("cs101/ada-solitaire", "main")
    assert [(when.isoformat(), sha[:7] if sha else None) for when, sha in events] == [
        ("2030-01-15T22:58:58+00:00", "827efc6"), ("2030-01-15T20:00:00+00:00", "6dcb09b"),
        ("2030-01-10T09:00:00+00:00", "1111111")]
    assert len(transport.requests) == 2
    assert all(headers["Authorization"] == "Bearer t0ken" for _, headers in transport.requests)
    assert "activity_type=push" in transport.requests[0][0]


def test_github_errors_are_per_repository_and_a_missing_token_is_one_line() -> None:
    github, transport = _recorded("cs101/ada-solitaire")
    transport.pages[github.first_url("cs101/gone", "main")] = (404, {}, b'{"message": "Not Found"}')
    with pytest.raises(HostError, match="GitHub answered 404.*Not Found"):
        github.events("cs101/gone", "main")
    with pytest.raises(UserError, match="GITHUB_TOKEN"):
        GitHubActivity(None, transport).events("cs101/ada-solitaire", "main")


def test_a_github_course_takes_push_times_from_the_api(published_course) -> None:
    course = published_course(["ada"])
    sha = push(course, "ada", at(-5))
    github, transport = _recorded("cs101/ada-solitaire")
    page = json.dumps([{"after": sha, "ref": "refs/heads/main", "timestamp": at(-4).isoformat(),
                        "activity_type": "push"}]).encode()
    transport.pages[github.first_url("cs101/ada-solitaire", "main")] = (200, {}, page)
    host = collect.Host("github", "main", lambda s: None, lambda s: None,
                        lambda s: f"https://github.com/cs101/{s}-solitaire.git", github)
    row = collect.Collector(course, clock=lambda: at(30), host=host).run()[0]
    assert row.status == "ok" and row.received_at == iso(at(-4))  # the API's time, not the collect's


def test_dry_run_prints_the_requests_and_changes_nothing(published_course) -> None:
    course = published_course(["ada", "bob"])
    said: list[str] = []
    collect.dry_run(course, said.append)
    assert said[0] == "receive times from the host: local"
    assert sum(line.startswith("git fetch ") for line in said) == 2
    assert not course.collected_path.exists()
    printed: list[str] = []
    GitHubActivity(None, dry_run=printed.append).events("cs101/ada-solitaire", "main")
    assert printed == ["GET https://api.github.com/repos/cs101/ada-solitaire/activity?ref=refs%2Fheads%2Fmain"
                       "&activity_type=push&per_page=100"]


@pytest.mark.parametrize("url, repo", [
    ("https://github.com/cs101/ada-solitaire.git", "cs101/ada-solitaire"),
    ("git@github.com:cs101/ada-solitaire.git", "cs101/ada-solitaire"),
    ("ssh://git@github.com/cs101/ada-solitaire", "cs101/ada-solitaire"),
])
def test_github_repo_names(url: str, repo: str) -> None:
    assert github_repo(url) == repo


def test_config_checks_the_host(make_course) -> None:
    course = make_course(["ada"])
    with pytest.raises(UserError, match="host must be one of"):
        _set_remote(course, 'host = "gitlab"')
    course = make_course(["ada"], directory="other")
    with pytest.raises(UserError, match="server_path"):
        _set_remote(course, 'host = "server"')
    assert HOOK_LOG == "solitaire-receive.log"
    assert DEADLINE.tzinfo is not None
