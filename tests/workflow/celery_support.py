"""A real redis-server and real Celery workers for the tests, started and stopped by PID.

Used by test_celery_backend.py and tests/faults/test_celery_faults.py. Each
server listens on 127.0.0.1 only, on a free port, in a folder of its own;
each worker runs ``solitaire course worker`` in its own session (so that the
worker and its pool processes can be killed together).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server")
SOLITAIRE = [sys.executable, "-m", "solitaire"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop(process: subprocess.Popen[bytes], group: bool) -> None:
    """Stop ``process`` (and its process group): TERM, then KILL after 10 s."""
    if process.poll() is None:
        if group:
            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
    if group:  # prefork children and graders left behind
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    elif process.poll() is None:
        process.kill()
    process.wait(timeout=10)


def start_redis(folder: Path, port: int | None = None, persistent: bool = False) -> subprocess.Popen[bytes]:
    """A redis-server on 127.0.0.1:``port`` (default: a free one) in ``folder``, once it answers.

    ``persistent``: an append-only file in ``folder`` (a restart keeps the queues and results, as a
    production Redis does); else nothing is saved.
    """
    import redis

    assert REDIS_SERVER is not None
    port = port or free_port()
    saving = ["--appendonly", "yes", "--appendfsync", "always"] if persistent else ["--appendonly", "no"]
    log = (folder / "redis.log").open("ab")
    process = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--protected-mode", "yes",
         "--save", "", *saving, "--dir", str(folder)],
        stdout=log, stderr=subprocess.STDOUT, cwd=folder,
    )
    log.close()
    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1)
    try:
        give_up = time.monotonic() + 15
        while True:
            assert process.poll() is None, (folder / "redis.log").read_text()
            try:
                if client.ping():
                    return process
            except redis.ConnectionError:
                assert time.monotonic() < give_up, "redis-server did not answer in 15 s"
                time.sleep(0.1)  # waiting for a real server to listen
    finally:
        client.close()


def redis_url(process: subprocess.Popen[bytes], db: int = 0) -> str:
    """The URL of a server started by :func:`start_redis`."""
    port = process.args[process.args.index("--port") + 1]  # type: ignore[union-attr]
    return f"redis://127.0.0.1:{port}/{db}"


def start_worker(
    broker: str,
    log_path: Path,
    *,
    extra: Sequence[str] = (),
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    prefix: Sequence[str] = (),
    concurrency: int = 2,
) -> subprocess.Popen[bytes]:
    """``solitaire course worker`` on ``broker`` in its own session, once it answers a ping.

    ``prefix``: a command the worker runs under (bubblewrap, to hide folders from it).
    """
    log = log_path.open("ab")
    process = subprocess.Popen(
        [*prefix, *SOLITAIRE, "course", "worker", "--broker", broker, "--concurrency", str(concurrency),
         "--loglevel", "INFO", *extra],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env, cwd=cwd,
    )
    log.close()
    try:
        wait_for_worker(broker, process, log_path)
    except BaseException:
        stop(process, group=True)
        raise
    return process


def wait_for_worker(broker: str, process: subprocess.Popen[bytes] | None, log_path: Path,
                    seconds: float = 60.0) -> None:
    """Until a worker answers a ping on ``broker`` (``process``, if given, must stay alive)."""
    from grader.course import celery_app

    app = celery_app.make_app(broker)
    give_up = time.monotonic() + seconds
    while not _ping(app):
        assert process is None or process.poll() is None, log_path.read_text()
        assert time.monotonic() < give_up, f"no worker answered in {seconds:.0f} s:\n" + log_path.read_text()


def _ping(app: object) -> bool:
    try:
        return bool(app.control.ping(timeout=0.5))  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - the broker is not up yet
        time.sleep(0.5)
        return False
