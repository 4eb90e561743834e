"""Receive times a git host vouches for: when each push to a student's repo arrived.

A commit's own date is the student's to set; the grader needs the time the
*host* received each push. :class:`Host` gives them per student, as events
``(time, new SHA of the branch or None when deleted)``:

* ``local``: local bare repos (the default remote): their reflog. ``course
  publish`` creates them with ``core.logAllRefUpdates``, so git records each
  push's arrival (trusted while ``[remote] trust_reflog`` is on);
* ``server``: a self-hosted git server whose bare repos this machine can read
  (``[remote] server_path``): ``course publish`` installs a ``post-receive``
  hook there that appends each push's time to ``solitaire-receive.log`` in the
  repo, a file a student's push cannot write (and makes the course's branch
  the repo's default when its HEAD names a branch that does not exist);
* ``github``: GitHub's REST API, the repository activity of each repo
  (``GET /repos/{owner}/{repo}/activity``, pushes to the branch), with a
  token from ``$GITHUB_TOKEN``; ``--dry-run`` prints the requests instead;
* ``none``: no host times.

Whatever the host, ``course collect`` also records the time of its own fetch
of each repository (the ledger), taken when that fetch completed, never the
run's start: the fallback where a host gives no time.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import stat
import subprocess
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from solitaire.errors import UserError

Event = tuple[dt.datetime, str | None]
NULL_SHA = "0" * 40
REFLOG_LINE = re.compile(r"^([0-9a-f]{40}) ([0-9a-f]{40}) .*> (\d+) ([+-]\d{4})(?:\t(.*))?$")
HOOK_LOG = "solitaire-receive.log"
HOOK_SCRIPT = """\
#!/bin/sh
# Installed by `solitaire course publish`: the receive time of every push, as this
# server saw it, for `course collect` (a student's push cannot write this file).
while read old new ref; do
  echo "$(date -u +%s) $old $new $ref" >> "$GIT_DIR/solitaire-receive.log"
done
"""
HOSTS = ("local", "server", "github", "none")
GITHUB_API = "https://api.github.com"
#: a GET: (url, headers) -> (status, headers, body); replaced by recorded responses in tests
Transport = Callable[[str, dict[str, str]], tuple[int, dict[str, str], bytes]]


class HostError(UserError):
    """The host could not give one repository's receive times (that student's row says why)."""


def _utc(seconds: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, dt.UTC)


def read_reflog(bare_repo: Path, branch: str) -> list[Event]:
    """Each update of ``branch`` in a bare repo's reflog."""
    path = bare_repo / "logs" / "refs" / "heads" / branch
    if not path.is_file():
        return []
    events: list[Event] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        match = REFLOG_LINE.match(line)
        if match:
            new = match.group(2)
            events.append((_utc(int(match.group(3))), None if new == NULL_SHA else new))
    return events


def read_hook_log(bare_repo: Path, branch: str) -> list[Event]:
    """Each push to ``branch`` that the post-receive hook logged in ``bare_repo``."""
    path = bare_repo / HOOK_LOG
    if not path.is_file():
        return []
    events: list[Event] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0].isdigit() and parts[3] == f"refs/heads/{branch}":
            events.append((_utc(int(parts[0])), None if parts[2] == NULL_SHA else parts[2]))
    return events


def install_hook(bare_repo: Path) -> None:
    """Install (or refresh) the post-receive hook that logs receive times in ``bare_repo``."""
    hook = bare_repo / "hooks" / "post-receive"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(HOOK_SCRIPT, encoding="utf-8")
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def point_head_at(bare_repo: Path, branch: str) -> None:
    """Make ``branch`` the default branch of ``bare_repo`` when its HEAD names a branch that does not
    exist (``git init --bare`` on a server defaults to ``master``): students' clones then check out
    the starter instead of an empty work tree."""
    git_dir = ["git", f"--git-dir={bare_repo}"]
    has_head = subprocess.run([*git_dir, "rev-parse", "--verify", "--quiet", "HEAD"], capture_output=True)
    has_branch = subprocess.run([*git_dir, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}"],
                                capture_output=True)
    if has_head.returncode != 0 and has_branch.returncode == 0:
        done = subprocess.run([*git_dir, "symbolic-ref", "HEAD", f"refs/heads/{branch}"], capture_output=True,
                              text=True)
        if done.returncode != 0:
            raise UserError(f"{bare_repo}: cannot make {branch} its default branch: {done.stderr.strip()}")


# -- GitHub ---------------------------------------------------------------------------
def github_repo(url: str) -> str:
    """``owner/name`` of a GitHub remote URL (https, ssh or scp-like); UserError otherwise."""
    match = re.match(r"^(?:https://github\.com/|ssh://git@github\.com/|git@github\.com:)([^/]+)/([^/]+?)"
                     r"(?:\.git)?/?$", url)
    if not match:
        raise UserError(f"{url} is not a GitHub repository URL (host = \"github\" needs "
                        "https://github.com/OWNER/NAME or git@github.com:OWNER/NAME.git)")
    return f"{match.group(1)}/{match.group(2)}"


def urllib_transport(url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - https only
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


class GitHubActivity:
    """Push times from GitHub's repository activity API, page by page (``Link: rel="next"``)."""

    def __init__(self, token: str | None, transport: Transport = urllib_transport,
                 dry_run: Callable[[str], None] | None = None) -> None:
        self.token = token
        self.transport = transport
        self.dry_run = dry_run

    def first_url(self, repo: str, branch: str) -> str:
        return (f"{GITHUB_API}/repos/{repo}/activity?ref=refs%2Fheads%2F{branch}"
                "&activity_type=push&per_page=100")

    def events(self, repo: str, branch: str) -> list[Event]:
        url: str | None = self.first_url(repo, branch)
        if self.dry_run is not None:
            self.dry_run(f"GET {url}")
            return []
        if not self.token:
            raise UserError("host = \"github\" needs a token in $GITHUB_TOKEN (read access to the "
                            "students' repos)")
        headers = {"Accept": "application/vnd.github+json", "Authorization": f"Bearer {self.token}",
                   "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "solitaire-lab"}
        found: list[Event] = []
        while url:
            status, response_headers, body = self.transport(url, headers)
            if status != 200:
                raise HostError(f"GitHub answered {status} for {url}: {_message(body)}")
            for item in json.loads(body):
                if item.get("activity_type") in ("push", "force_push", "branch_creation", "branch_deletion"):
                    when = dt.datetime.fromisoformat(item["timestamp"].replace("Z", "+00:00"))
                    after = item.get("after")
                    found.append((when, None if not after or after == NULL_SHA else after))
            url = _next_link(response_headers)
        return found


def _message(body: bytes) -> str:
    try:
        return str(json.loads(body).get("message", ""))[:200]
    except (ValueError, AttributeError):
        return body[:200].decode("utf-8", "replace")


def _next_link(headers: dict[str, str]) -> str | None:
    link = next((v for k, v in headers.items() if k.lower() == "link"), "")
    match = re.search(r'<([^>]+)>;\s*rel="next"', link)
    return match.group(1) if match else None


# -- the interface ----------------------------------------------------------------------
class Host:
    """Receive times of one kind of host (see the module docstring)."""

    def __init__(self, kind: str, branch: str, local: Callable[[str], Path | None],
                 server: Callable[[str], Path | None], url: Callable[[str], str],
                 github: GitHubActivity | None = None) -> None:
        if kind not in HOSTS:
            raise UserError(f"[remote] host must be one of {', '.join(HOSTS)}, not {kind!r}")
        self.kind, self.branch = kind, branch
        self._local, self._server, self._url = local, server, url
        self.github = github or GitHubActivity(os.environ.get("GITHUB_TOKEN"))

    def receive_events(self, student: str) -> list[Event]:
        """The pushes to the branch of ``student``'s repo that the host vouches for."""
        if self.kind == "local":
            local = self._local(student)
            return read_reflog(local, self.branch) if local is not None else []
        if self.kind == "server":
            server = self._server(student)
            return read_hook_log(server, self.branch) if server is not None else []
        if self.kind == "github":
            return self.github.events(github_repo(self._url(student)), self.branch)
        return []

    def prepare(self, student: str) -> None:
        """What ``course publish`` sets up on the host for ``student`` (the server's hook)."""
        server = self._server(student) if self.kind == "server" else None
        if server is not None:
            if not (server / "HEAD").is_file():
                raise UserError(f"{server}: not a bare git repository ([remote] server_path)")
            install_hook(server)
            point_head_at(server, self.branch)


def from_config(config: Any, github: GitHubActivity | None = None) -> Host:
    """The host of a course (``[remote] host``; by default ``local`` for local bare repos
    whose reflog is trusted, else ``none``)."""
    return Host(config.host, config.branch,
                lambda s: config.local_remote(s) if config.trust_reflog else None,
                config.server_repo, config.remote_url, github)
