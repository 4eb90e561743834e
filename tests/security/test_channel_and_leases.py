"""Decisions only on the protocol channel; the probe cache out of reach; uid leases unique machine-wide.

* Only the entry script's "ready" line, written before any student code runs,
  may say that the sandbox failed: a submission printing (or writing on every
  fd) a fake ``SandboxError`` handshake makes the grader log nothing and keeps
  its probe cache.
* The probe cache lives in this grader's private directory (root-owned 0700
  under /run/solitaire-lab, keyed by installation, interpreter and user), not
  in a shared ``$TMPDIR``.
* uid leases are machine-wide: two graders with different ``$TMPDIR`` get
  different uids, and one's cleanup never kills the other's worker; stale
  leases are reclaimed, live ones and leftover processes respected.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from security_support import ATTACKS, DEALT, REPO, compose, drive, reference_copy, reference_run

from grader.sandbox import Limits, LoadFailure, SandboxWorker, uids
from grader.sandbox import worker as worker_module
from solitaire.protocol import WorkerError

QUICK = Limits(call_s=2.0, startup_s=10.0, wall_s=30.0)
FAKE_HANDSHAKE = '{"ok": false, "error": "SandboxError", "message": "sandbox setup: FAKE-HANDSHAKE", "id": 0}'
SLEEP = shutil.which("sleep") or "/bin/sleep"  # an absolute path, resolved once
TRUE = shutil.which("true") or "/bin/true"
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="dedicated uids are leased only as root")


@pytest.fixture
def forgotten(monkeypatch):
    """Calls of forget_layer (the probe cache is cleared only on a real sandbox failure)."""
    calls: list[int] = []
    monkeypatch.setattr(worker_module, "forget_layer", lambda: calls.append(1))
    return calls


# -- the handshake ---------------------------------------------------------------------------


def test_a_fake_handshake_on_every_fd_is_not_the_graders_word(tmp_path, isolation, caplog, forgotten):
    with caplog.at_level(logging.INFO, logger="grader.sandbox"):
        with SandboxWorker(compose("fake_sandbox_handshake", tmp_path / "sub"), QUICK) as worker:
            with pytest.raises(LoadFailure) as caught:
                worker.launch()
    assert "sandbox setup failed" not in caplog.text and "FAKE-HANDSHAKE" not in caplog.text
    assert forgotten == []
    assert caught.value.error != "SandboxError"  # the submission's own load failure, named so


def test_a_fake_handshake_on_stdout_changes_nothing(tmp_path, isolation, caplog, forgotten):
    body = textwrap.dedent(f"""
        import os, sys
        print({FAKE_HANDSHAKE!r}, flush=True)
        os.write(1, b{FAKE_HANDSHAKE + chr(10)!r})
        os.write(2, b{FAKE_HANDSHAKE + chr(10)!r})
    """)
    rules = tmp_path / "scorpion.py"
    rules.write_text((ATTACKS / "_prelude.py").read_text() + body)
    with caplog.at_level(logging.INFO, logger="grader.sandbox"):
        with SandboxWorker(rules, QUICK) as worker:
            worker.load(DEALT)  # it loads: what it printed is only output
            with pytest.raises(WorkerError) as caught:
                worker.won()
    assert caught.value.error == "NotImplementedError"
    assert "sandbox setup failed" not in caplog.text and forgotten == []
    assert "FAKE-HANDSHAKE" in worker.load_output


def _breaking_setup(original, times: int | None = None):
    """launch_command, with a working directory that does not exist: the entry script's setup fails
    (the first ``times`` launches; every launch by default). ``launch.calls``: how many were made."""
    def launch(*args, **kwargs):
        launch.calls += 1
        launch.uids.append(args[3])  # (isolation, submission, work_dir, uid, ...)
        argv = list(original(*args, **kwargs))
        if times is not None and launch.calls > times:
            return argv
        for index, arg in enumerate(argv):
            try:
                config = json.loads(arg)
            except ValueError:
                continue
            if isinstance(config, dict) and "work_dir" in config:
                argv[index] = json.dumps({**config, "work_dir": "/nonexistent-sandbox-dir"})
                return argv
        pytest.skip("the worker's configuration is not on its command line any more")
    launch.calls, launch.uids = 0, []
    return launch


def test_a_real_sandbox_failure_is_still_reported(tmp_path, isolation, caplog, forgotten, monkeypatch):
    breaking = _breaking_setup(worker_module.launch_command)
    monkeypatch.setattr(worker_module, "launch_command", breaking)
    with caplog.at_level(logging.INFO, logger="grader.sandbox"):
        with SandboxWorker(reference_copy(tmp_path / "sub"), QUICK) as worker:
            with pytest.raises(LoadFailure) as caught:
                worker.launch()
    assert caught.value.error == "SandboxError" and "not a problem of your code" in str(caught.value)
    assert breaking.calls == 2 and caplog.text.count("starting it once more") == 1  # tried twice
    assert "sandbox setup failed in the worker: sandbox setup: FileNotFoundError" in caplog.text
    assert forgotten == [1]


def test_a_sandbox_failing_once_to_start_starts_again(tmp_path, isolation, caplog, forgotten, monkeypatch):
    """A failure before any student code ran may be the machine's for a moment (no process slot) or
    its uid's: the worker starts once more, as another uid, and nobody is told of a failure."""
    breaking = _breaking_setup(worker_module.launch_command, times=1)
    monkeypatch.setattr(worker_module, "launch_command", breaking)
    with caplog.at_level(logging.INFO, logger="grader.sandbox"):
        with SandboxWorker(reference_copy(tmp_path / "sub"), QUICK) as worker:
            worker.launch()
            run = drive(worker)
            assert (worker.launches, worker.relaunches) == (1, 0)  # not a restart charged to the student
    assert breaking.calls == 2 and "starting it once more" in caplog.text
    assert "sandbox setup failed" not in caplog.text and forgotten == []
    assert [(o.kind, o.value) for o in run.outcomes] == [(o.kind, o.value) for o in reference_run().outcomes]
    if isolation.as_root and os.geteuid() == 0:
        assert breaking.uids[0] != breaking.uids[1]  # started again as another uid


# -- the probe cache -------------------------------------------------------------------------


def test_the_probe_cache_is_private_to_this_grader(monkeypatch, tmp_path):
    directory = uids.state_dir()
    assert directory is not None and directory.name == f"grader-{uids.grader_key()}"
    info = os.lstat(directory)
    assert info.st_uid == os.geteuid() and info.st_mode & 0o777 == 0o700
    assert not directory.is_relative_to(Path(tempfile.gettempdir()).resolve())
    if os.geteuid() == 0:
        assert directory.parent in uids.MACHINE_DIRS and os.stat(directory.parent).st_mode & 0o777 == 0o700
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    assert uids.state_dir() == directory  # whatever $TMPDIR says
    monkeypatch.setattr(sys, "executable", "/opt/another/python3")
    assert uids.grader_key() != directory.name.removeprefix("grader-")  # another grader, another cache


def test_without_root_the_state_lives_in_the_users_own_directories(monkeypatch, tmp_path):
    monkeypatch.setattr(uids, "is_root", lambda: False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert uids.state_dir() == tmp_path / ".cache" / "solitaire-lab" / f"grader-{uids.grader_key()}"
    assert uids.uid_lock_dir() is None  # no dedicated uids without root
    runtime = tmp_path / "run-user"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    assert uids.state_dir() == runtime / "solitaire-lab" / f"grader-{uids.grader_key()}"


def test_a_planted_directory_is_not_used(tmp_path):
    planted = tmp_path / "planted"
    planted.mkdir()
    planted.chmod(0o777)  # anyone could have put (or could replace) a probe result or a lease here
    assert uids.private_dir(planted) is None
    (tmp_path / "link").symlink_to(planted)
    assert uids.private_dir(tmp_path / "link") is None
    assert uids.private_dir(tmp_path / "fresh") == tmp_path / "fresh"
    assert os.stat(tmp_path / "fresh").st_mode & 0o777 == 0o700


def test_a_submission_cannot_touch_the_probe_cache(tmp_path, isolation, attack_limits):
    """The attack deletes or overwrites every probe-*.json it can find (old and new places)."""
    directory = uids.state_dir()
    assert directory is not None
    # A file of the cache, planted just now (not named probe-*: a real sandbox failure elsewhere in the
    # session may clear those meanwhile); the attack goes for every *.json there.
    canary = directory / f"canary-{os.getpid()}.json"
    canary.write_text('{"layer": "bwrap"}')
    try:
        with SandboxWorker(compose("probe_cache_tampering", tmp_path / "sub"), attack_limits) as worker:
            run = drive(worker)
        assert "CACHE:none" in run.messages()  # it found nothing it could delete or replace
        assert canary.read_text() == '{"layer": "bwrap"}'
    finally:
        canary.unlink(missing_ok=True)


# -- uid leases ------------------------------------------------------------------------------

HOLD_LEASE = """
import sys
from grader.sandbox import uids
lease = uids.lease_uid(prefer=int(sys.argv[1]))
print(lease.uid, flush=True)
sys.stdin.read()
"""

GRADER = """
import functools, json, sys
from pathlib import Path
from grader.sandbox import Limits, SandboxWorker, uids
from grader.sandbox import worker as worker_module
from solitaire.protocol import WorkerError

worker_module.lease_uid = functools.partial(uids.lease_uid, prefer=int(sys.argv[2]))  # both start here
worker = SandboxWorker(Path(sys.argv[1]), Limits(call_s=10, startup_s=30, wall_s=120))
worker.launch()
print(json.dumps({"uid": worker._lease.uid, "pid": worker._process.popen.pid}), flush=True)
if sys.argv[3] == "close":
    worker.close()
    print(json.dumps({"closed": True}), flush=True)
    sys.exit(0)
sys.stdin.readline()
try:
    reply = worker.request({"op": "won"})
    print(json.dumps({"answered": True}), flush=True)
except WorkerError as error:
    print(json.dumps({"answered": False, "kind": error.kind, "message": str(error)}), flush=True)
worker.close()
"""


def _grader(script: str, tmpdir: Path, *args: object) -> subprocess.Popen[str]:
    tmpdir.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "TMPDIR": str(tmpdir)}
    return subprocess.Popen([sys.executable, "-c", script, *map(str, args)], cwd=REPO, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def _free_uid() -> int:
    """A uid of the pool that nobody holds right now (leased, then released)."""
    lease = uids.lease_uid(prefer=uids.UID_POOL_START + 900 + os.getpid() % 90)
    assert lease.dedicated
    lease.release()
    return lease.uid


@as_root
def test_graders_with_different_tmpdirs_lease_different_uids(tmp_path):
    start = _free_uid()
    graders = [_grader(HOLD_LEASE, tmp_path / name, start) for name in ("a", "b")]
    try:
        leased = [int(g.stdout.readline()) for g in graders]
    finally:
        for g in graders:
            g.communicate("", timeout=30)
    assert leased[0] != leased[1] and start in leased


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@as_root
def test_a_second_graders_cleanup_spares_the_first_graders_worker(tmp_path, isolation):
    rules = reference_copy(tmp_path / "sub")
    start = _free_uid()
    first = _grader(GRADER, tmp_path / "tmp-a", rules, start, "wait")
    try:
        one = json.loads(first.stdout.readline())
        second = _grader(GRADER, tmp_path / "tmp-b", rules, start, "close")
        two = json.loads(second.stdout.readline())
        assert json.loads(second.stdout.readline()) == {"closed": True}
        assert second.wait(timeout=60) == 0
        assert one["uid"] != two["uid"]
        assert _alive(one["pid"])  # the first grader's worker survived the second's cleanup
        first.stdin.write("go\n")
        first.stdin.flush()
        answer = json.loads(first.stdout.readline())
    finally:
        first.communicate("", timeout=60)
    assert answer == {"answered": True}


def _lock_file(uid: int) -> Path:
    directory = uids.uid_lock_dir()
    assert directory is not None
    return directory / f"uid-{uid}.lock"


def _hold_with_a_child(uid: int, record: str) -> subprocess.Popen[bytes]:
    """A `sleep` that holds ``uid``'s lease lock (an inherited fd) while the file names ``record``."""
    fd = os.open(_lock_file(uid), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.ftruncate(fd, 0)
        os.pwrite(fd, record.encode(), 0)
        return subprocess.Popen([SLEEP, "60"], pass_fds=(fd,))
    finally:
        os.close(fd)


@as_root
def test_a_stale_lease_is_reclaimed_and_a_live_one_respected():
    uid = _free_uid()
    dead = subprocess.Popen([SLEEP, "0"])
    dead.wait()
    stale = _hold_with_a_child(uid, f"{dead.pid} 1 {uids._boot_id()}\n")  # its recorded holder is gone
    try:
        lease = uids.lease_uid(prefer=uid)
        assert lease.uid == uid and lease.held()
        assert _lock_file(uid).read_text() == uids.holder_record()
        lease.release()
        assert stale.poll() is None  # reclaiming kills nothing
    finally:
        stale.kill()
        stale.wait()
    live = _hold_with_a_child(uid, "")
    try:
        _lock_file(uid).write_text(uids.holder_record(live.pid))
        lease = uids.lease_uid(prefer=uid)
        assert lease.uid != uid and lease.dedicated
        lease.release()
    finally:
        live.kill()
        live.wait()


@as_root
def test_leftover_processes_of_a_uid_are_neither_reused_nor_killed(caplog):
    uid = _free_uid()
    leftover = subprocess.Popen([SLEEP, "60"], user=uid, group=uid, extra_groups=[])
    try:
        with caplog.at_level(logging.INFO, logger="grader.sandbox"):
            lease = uids.lease_uid(prefer=uid)
        assert lease.uid != uid
        assert f"uid {uid} not leased: its processes [{leftover.pid}] outlived their grader" in caplog.text
        lease.release()
        assert leftover.poll() is None
    finally:
        leftover.kill()
        leftover.wait()


def _zombies(uid: int, count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes of ``uid`` that have ended and are left unreaped (zombies) until waited."""
    children = [subprocess.Popen([TRUE], user=uid, group=uid, extra_groups=[]) for _ in range(count)]
    deadline = time.monotonic() + 10
    while sorted(uids.in_use(uid)) != sorted(c.pid for c in children) or uids.processes_of(uid):
        assert time.monotonic() < deadline, "the children did not end"
        time.sleep(0.01)
    return children


@as_root
def test_a_uid_whose_zombies_are_not_reaped_is_not_leased(caplog):
    held = uids.lease_uid(prefer=_free_uid())  # held while its zombies are made: nobody else takes it
    zombies = _zombies(held.uid, 3)
    try:
        held.release()
        assert uids.processes_of(held.uid) == []  # none is alive, yet each counts against RLIMIT_NPROC
        with caplog.at_level(logging.INFO, logger="grader.sandbox"):
            lease = uids.lease_uid(prefer=held.uid)
        assert "outlived their grader" not in caplog.text  # usual (a slow init): no warning
        assert lease.dedicated and lease.uid != held.uid
        lease.release()
    finally:
        for zombie in zombies:
            zombie.wait()
    assert uids.in_use(held.uid) == []


@as_root
def test_a_sandbox_never_starts_as_a_uid_full_of_zombies(tmp_path, isolation, monkeypatch):
    """The CI failure of 2026-12-03: a uid leased while RLIMIT_NPROC's worth of its processes were
    dead but not reaped made the zygote's first fork fail (EAGAIN), a sandbox failure."""
    held = uids.lease_uid(prefer=_free_uid())
    zombies = _zombies(held.uid, QUICK.processes)
    monkeypatch.setattr(worker_module, "lease_uid", lambda: uids.lease_uid(prefer=held.uid))
    try:
        held.release()
        with SandboxWorker(reference_copy(tmp_path / "sub"), QUICK) as worker:
            run = drive(worker)
            if isolation.as_root:
                assert worker._lease is not None and worker._lease.uid != held.uid
    finally:
        for zombie in zombies:
            zombie.wait()
    assert [(o.kind, o.value) for o in run.outcomes] == [(o.kind, o.value) for o in reference_run().outcomes]


@as_root
@pytest.mark.parametrize("layer", ["bwrap", "plain"])
def test_a_restart_never_starts_as_a_uid_with_zombies_left(tmp_path, layer, caplog):
    """A fork storm's orphans, killed, wait as zombies for the init of their PID namespace: the
    sandbox's own under bwrap (at once), the machine's under plain (which may reap only every
    few seconds). The next start takes another uid if any is left, and never fails."""
    if layer == "bwrap" and shutil.which("bwrap") is None:
        pytest.skip("bubblewrap missing")
    limits = Limits(**{**QUICK.__dict__, "isolation": layer})
    worker = SandboxWorker(compose("fork_storm", tmp_path / "sub"), limits)
    with caplog.at_level(logging.INFO, logger="grader.sandbox"):
        try:
            run = drive(worker)
            first = worker._lease
            worker.restart()
            zombies_left = bool(uids.in_use(first.uid))
            worker.launch()
            second = worker._lease
        finally:
            worker.close()
    assert "FORKED:" in run.messages()
    assert first.dedicated and second.dedicated
    assert "starting it once more" not in caplog.text and "sandbox setup failed" not in caplog.text
    if zombies_left:
        assert second.uid != first.uid


@as_root
def test_cleanup_only_by_the_process_holding_the_lease():
    lease = uids.lease_uid(prefer=_free_uid())
    victim = subprocess.Popen([SLEEP, "60"], user=lease.uid, group=lease.uid, extra_groups=[])
    try:
        lease.pid = os.getpid() + 1  # as a forked copy of the lease would be
        uids.kill_all_of(lease)
        assert victim.poll() is None
        lease.pid = os.getpid()
        uids.kill_all_of(lease)
        assert victim.wait(timeout=5) == -9
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait()
        lease.release()


FORK = """
import fcntl, os, sys
from grader.sandbox import uids
lease = uids.lease_uid(prefer=int(sys.argv[1]))
child = os.fork()
if child == 0:
    mine = uids.lease_uid(prefer=lease.uid)
    print(lease.held(), lease.lock_fd, mine.uid != lease.uid, flush=True)
    os._exit(0)
os.waitpid(child, 0)
probe = os.open(uids.uid_lock_dir() / f"uid-{lease.uid}.lock", os.O_RDWR)
try:
    fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("parent lost its lease", flush=True)
except BlockingIOError:
    print("parent still holds it", flush=True)
"""


@as_root
def test_a_forked_child_does_not_inherit_a_lease(tmp_path):
    finished = subprocess.run([sys.executable, "-c", FORK, str(_free_uid())], cwd=REPO, capture_output=True,
                              text=True, timeout=60)
    assert finished.stdout.splitlines() == ["False None True", "parent still holds it"], finished.stderr
