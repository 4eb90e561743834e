"""Dedicated sandbox uids, the grader's private state directory, and killing a uid's processes.

As root, every worker runs as its own uid from a pool no account uses
(1700000..1700999, gid = uid), leased with an ``flock`` on a file in a
directory private to the grading user, so that parallel graders never share
one: ``RLIMIT_NPROC`` then counts exactly one worker's processes, and after a
worker ends every process of its uid can be killed without touching anything
else.
"""

from __future__ import annotations

import fcntl
import logging
import os
import signal
import stat
import tempfile
import time
from pathlib import Path

log = logging.getLogger("grader.sandbox")

UID_POOL_START = 1_700_000  # dedicated sandbox uids (gid = uid); no account uses them
UID_POOL_SIZE = 1000
SHARED_UID = 65534  # nobody/nogroup, when the pool is not mapped (a container's short uid map)


def is_root() -> bool:
    return os.geteuid() == 0


def _mapped(uid: int, count: int = 1) -> bool:
    try:
        lines = Path("/proc/self/uid_map").read_text().split("\n")
    except OSError:
        return uid == SHARED_UID
    for line in lines:
        parts = line.split()
        if len(parts) == 3:
            inside, _outside, length = (int(p) for p in parts)
            if inside <= uid and uid + count <= inside + length:
                return True
    return False


def state_dir() -> Path | None:
    """A private directory of this user for uid locks and the probe cache (None if unsafe)."""
    path = Path(tempfile.gettempdir()) / f"solitaire-sandbox-{os.geteuid()}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        log.warning("sandbox: %s is not a private directory (not used)", path)
        return None
    return path


class UidLease:
    """A sandbox uid held by this process (an flock on a file in a private directory)."""

    def __init__(self, uid: int, lock_fd: int | None) -> None:
        self.uid = uid
        self.gid = uid
        self.lock_fd = lock_fd
        self.dedicated = lock_fd is not None

    def release(self) -> None:
        if self.lock_fd is not None:
            os.close(self.lock_fd)
            self.lock_fd = None


def lease_uid() -> UidLease:
    """A dedicated uid no other worker uses now (only meaningful as root)."""
    lock_dir = state_dir() if _mapped(UID_POOL_START, UID_POOL_SIZE) else None
    if lock_dir is not None:
        first = os.getpid() % UID_POOL_SIZE
        for step in range(UID_POOL_SIZE):
            uid = UID_POOL_START + (first + step) % UID_POOL_SIZE
            flags = os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(lock_dir / f"uid-{uid}.lock", flags, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            lease = UidLease(uid, fd)
            kill_all_of(lease)  # leftovers of a grader that died
            return lease
    return UidLease(SHARED_UID, None)


def _status_of(pid: int) -> dict[str, str]:
    fields = {}
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if key in ("State", "Uid"):
                    fields[key] = value.strip()
    except OSError:
        pass
    return fields


def _owned_by(pid: int, uid: int) -> bool:
    """Whether ``pid`` is alive (not a zombie) with ``uid`` as its real, effective or saved uid."""
    fields = _status_of(pid)
    return not fields.get("State", "Z").startswith("Z") and str(uid) in fields.get("Uid", "").split()[:3]


def processes_of(uid: int) -> list[int]:
    """Pids of the live processes whose real, effective or saved uid is ``uid`` (from /proc)."""
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit() and _owned_by(int(entry), uid)]


def kill_all_of(lease: UidLease, rounds: int = 20) -> None:
    """SIGKILL every process of the lease's DEDICATED uid (setsid or not), pid by pid.

    Each process is pinned with a pidfd before its uid is checked, so a reused
    pid can never hit anything else; rounds repeat while a fork storm adds
    processes. Never for a shared uid, never for uid 0.
    """
    if not lease.dedicated or not is_root() or lease.uid < UID_POOL_START:
        return
    for _ in range(rounds):
        pids = processes_of(lease.uid)
        if not pids:
            return
        for pid in pids:
            try:
                pidfd = os.pidfd_open(pid)
            except OSError:
                continue
            try:
                if _owned_by(pid, lease.uid):
                    signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            except OSError:
                pass
            finally:
                os.close(pidfd)
        time.sleep(0.005)
    log.warning("sandbox: processes of uid %d survived %d rounds of SIGKILL", lease.uid, rounds)
