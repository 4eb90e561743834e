"""A self-hosted git server for real: ``git daemon`` serving bare repos, pushes over ``git://``.

The instructor's guide, section 5 (``host = "server"``): the students' bare
repos live on a server this machine can read (``server_path``); ``course
publish`` pushes each starter over the network and installs the
``post-receive`` hook in each repo; a student's ``git push`` runs the hook
on the server, which appends the time the server received the push to
``solitaire-receive.log``; ``course collect`` fetches over the network and
grades by that time, not by when it first saw the commit.

The daemon is started on a free port for the test and stopped by its PID.
"""

from __future__ import annotations

import datetime as dt
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from workflow_support import new_course, push

from grader.course import assign, collect, config, publish
from grader.course.hosts import HOOK_LOG, read_hook_log

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git (git daemon)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def git_daemon(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """(the server's folder of bare repos, its git:// URL prefix); the daemon stops afterwards."""
    base = tmp_path / "srv"
    base.mkdir()
    port = _free_port()
    daemon = subprocess.Popen(
        ["git", "daemon", "--reuseaddr", "--export-all", "--enable=receive-pack", "--listen=127.0.0.1",
         f"--port={port}", f"--base-path={base}", str(base)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):  # up to 10 s for the daemon to listen
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if daemon.poll() is not None:
                    pytest.fail(f"git daemon exited: {daemon.stderr.read() if daemon.stderr else b''!r}")
                time.sleep(0.1)
        else:
            pytest.fail("git daemon did not listen within 10 s")
        yield base, f"git://127.0.0.1:{port}"
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()


def test_a_push_over_git_daemon_is_timed_by_the_servers_hook(git_daemon, tmp_path: Path) -> None:
    base, server = git_daemon
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    deadline = now + dt.timedelta(minutes=5)
    course = new_course(tmp_path / "course", ["ada"], deadline=deadline,
                        remote=server + "/{student}.git")
    path = course.directory / config.CONFIG_NAME
    text = path.read_text(encoding="utf-8").replace(
        "[remote]\n", f'[remote]\nhost = "server"\nserver_path = "{base}/{{student}}.git"\n', 1)
    path.write_text(text, encoding="utf-8")
    course = config.load(course.directory)
    # the instructor makes the (empty) repo on the server, with git's old default branch
    subprocess.run(["git", "init", "-q", "--bare", "--initial-branch=master", str(base / "ada.git")],
                   check=True)
    assign.run(course)
    report = publish.publish(course, clock=lambda: now - dt.timedelta(days=1))
    assert not report.failed, report.failed
    assert [p.url for p in report.published] == [f"{server}/ada.git"]
    hook = base / "ada.git" / "hooks" / "post-receive"
    assert hook.is_file() and hook.stat().st_mode & 0o111
    head = subprocess.run(["git", f"--git-dir={base / 'ada.git'}", "symbolic-ref", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    assert head == "refs/heads/main"  # publish made main the default: a student's clone checks it out

    before = int(time.time())
    sha = push(course, "ada", now)  # a real `git push` over git://: the server runs the hook
    after = int(time.time())
    (logged,) = read_hook_log(base / "ada.git", "main")
    assert logged[1] == sha and before <= logged[0].timestamp() <= after
    assert (base / "ada.git" / HOOK_LOG).read_text().split()[3] == "refs/heads/main"

    # first seen by a collect two hours after the deadline: on time, by the server's own clock
    (row,) = collect.collect(course, clock=lambda: deadline + dt.timedelta(hours=2))
    assert row.status == "ok", row.reason
    assert row.sha == sha
    assert dt.datetime.fromisoformat(row.received_at) == logged[0]
