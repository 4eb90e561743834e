"""Dedicated sandbox uids leased machine-wide, the grader's private state directory, and cleanup.

As root, every worker runs as its own uid from a pool no account uses
(1700000..1700999, gid = uid), so that ``RLIMIT_NPROC`` counts exactly one
worker's processes and, after the worker ends, every process of that uid can
be killed without touching anything else. That holds only if no two workers
on the machine ever share a uid, whichever grader (installation, ``$TMPDIR``,
user) started them. So leases live in ONE directory for the machine
(:data:`MACHINE_DIRS`, ``/run/solitaire-lab/uids``, root-owned, mode 0700):

* a lease is an ``flock`` on ``uid-N.lock`` holding ``pid start-time boot-id``
  of the process that holds it; the kernel drops the lock when that process
  dies;
* a lock still held while the recorded process is gone (or is another process
  with the same pid: different start time) can only be a copy of the fd
  inherited by a fork: that lease is stale and is reclaimed (a new file
  replaces it), unless a process of that uid is still alive;
* a uid whose processes are still alive (left by a grader that died) is
  never leased, and never swept by someone else: cleanup signals only
  processes of a uid leased by this very process (:func:`kill_all_of`);
* nor is a uid with processes ended but not reaped (:func:`in_use`): they
  still count against the next sandbox's ``RLIMIT_NPROC``.

Leasing takes ``pool.lock`` for the scan, so reclaiming cannot race. A forked
child gets no lease of its parent (:func:`_after_fork`): it leases its own.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import signal
import stat
import sys
import tempfile
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger("grader.sandbox")

UID_POOL_START = 1_700_000  # dedicated sandbox uids (gid = uid); no account uses them
UID_POOL_SIZE = 1000
SHARED_UID = 65534  # nobody/nogroup, when the pool is not mapped (a container's short uid map)
# The machine-wide directory of the sandbox as root, first that works (a tmpfs cleared at boot first).
MACHINE_DIRS = (Path("/run/solitaire-lab"), Path("/var/lib/solitaire-lab"))
OPEN_FLAGS = os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC


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


# -- private directories ------------------------------------------------------------------


def private_dir(path: Path) -> Path | None:
    """``path`` as a directory only this user can enter (made 0700 if missing); None if it is not.

    A directory someone else owns or can write, or a symlink, is refused: whoever
    could write it could forge leases or probe results.
    """
    try:
        path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        path.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(path)
        parent = os.stat(path.parent)
    except OSError:
        return None
    euid = os.geteuid()
    parent_safe = parent.st_uid in (0, euid) and (not parent.st_mode & 0o022 or parent.st_mode & stat.S_ISVTX)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != euid or info.st_mode & 0o077 or not parent_safe:
        log.warning("sandbox: %s is not a private directory (not used)", path)
        return None
    return path


def _user_dirs() -> list[Path]:
    """Where a non-root grader keeps its state: its runtime directory, else its cache directory."""
    found = []
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime):
        found.append(Path(runtime) / "solitaire-lab")
    home = os.path.expanduser("~")
    if os.path.isabs(home):
        found.append(Path(home) / ".cache" / "solitaire-lab")
    return found


def machine_dir() -> Path | None:
    """The sandbox's directory for this machine (root) or this user: the same whatever ``$TMPDIR``."""
    for path in (MACHINE_DIRS if is_root() else _user_dirs()):
        if private_dir(path) is not None:
            return path
    return None


def grader_key() -> str:
    """Which grader this is: its installation path, the interpreter and the user."""
    installed = Path(__file__).resolve().parents[1]  # the grader package
    text = f"{installed}\0{os.path.realpath(sys.executable)}\0{os.geteuid()}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def state_dir() -> Path | None:
    """This grader's private directory (probe cache, engine template), None if none is safe.

    ``<machine dir>/grader-<key>`` (see :func:`grader_key`), outside every
    ``$TMPDIR`` and out of any sandbox's reach. Only when no machine directory
    can be had: ``$TMPDIR/solitaire-sandbox-<uid>``, as before.
    """
    base = machine_dir()
    if base is not None:
        return private_dir(base / f"grader-{grader_key()}")
    return private_dir(Path(tempfile.gettempdir()) / f"solitaire-sandbox-{os.geteuid()}")


def uid_lock_dir() -> Path | None:
    """The ONE directory of uid leases of this machine, None without root or without it."""
    if not is_root():
        return None
    base = machine_dir()
    return private_dir(base / "uids") if base is not None else None


# -- who holds a lease --------------------------------------------------------------------


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return "?"


def start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot, /proc/PID/stat field 22), None if it is gone."""
    try:
        data = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = data[data.rfind(b")") + 2:].split()
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


def holder_record(pid: int | None = None) -> str:
    pid = os.getpid() if pid is None else pid
    return f"{pid} {start_time(pid)} {_boot_id()}\n"


def _holder_alive(record: str) -> bool:
    """Whether the process a lease file names still runs (same pid, start time and boot)."""
    parts = record.split()
    if len(parts) != 3 or not parts[0].isdigit() or parts[2] != _boot_id():
        return False
    return str(start_time(int(parts[0]))) == parts[1]


class UidLease:
    """A sandbox uid held by this process (an flock on its file in the machine's lease directory)."""

    def __init__(self, uid: int, lock_fd: int | None) -> None:
        self.uid = uid
        self.gid = uid
        self.lock_fd = lock_fd
        self.dedicated = lock_fd is not None
        self.pid = os.getpid()
        if lock_fd is not None:
            _held.add(self)

    def held(self) -> bool:
        """Whether THIS process holds the lease (not a forked copy, not released)."""
        return self.lock_fd is not None and self.pid == os.getpid()

    def release(self) -> None:
        if self.lock_fd is not None:
            if self.pid == os.getpid():  # never in a forked copy: that would free the parent's lease
                with contextlib.suppress(OSError):
                    os.ftruncate(self.lock_fd, 0)
                with contextlib.suppress(OSError):  # before closing: a child forked meanwhile
                    fcntl.flock(self.lock_fd, fcntl.LOCK_UN)  # shares the open file until it execs
            os.close(self.lock_fd)
            self.lock_fd = None
        _held.discard(self)


_held: weakref.WeakSet[UidLease] = weakref.WeakSet()


_pool_fds: set[int] = set()  # the pool lock, while this process holds it


def _after_fork() -> None:
    """In a forked child: drop the parent's leases (closing the copies keeps the parent's locks)."""
    for fd in list(_pool_fds):
        with contextlib.suppress(OSError):
            os.close(fd)
    _pool_fds.clear()
    for lease in list(_held):
        if lease.lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(lease.lock_fd)
            lease.lock_fd = None
    _held.clear()


os.register_at_fork(after_in_child=_after_fork)


@contextlib.contextmanager
def _pool_locked(lock_dir: Path) -> Iterator[None]:
    fd = os.open(lock_dir / "pool.lock", os.O_CREAT | OPEN_FLAGS, 0o600)
    _pool_fds.add(fd)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        _pool_fds.discard(fd)
        fcntl.flock(fd, fcntl.LOCK_UN)  # not left to close: a child forked meanwhile shares the file
        os.close(fd)


def _locked(path: Path, flags: int = os.O_CREAT) -> int | None:
    fd = os.open(path, flags | OPEN_FLAGS, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _try_lease(lock_dir: Path, uid: int) -> UidLease | None:
    """Lease ``uid`` if it is free or its lease is stale and nothing of it runs (pool lock held)."""
    path = lock_dir / f"uid-{uid}.lock"
    fd = _locked(path)
    if fd is None:
        try:
            record = path.read_text()
        except OSError:
            return None
        if _holder_alive(record) or in_use(uid):
            return None
        log.info("sandbox: uid %d: reclaiming a stale lease (%s)", uid, record.strip() or "empty")
        try:
            path.unlink()
            fd = _locked(path, os.O_CREAT | os.O_EXCL)
        except OSError:
            return None
        if fd is None:
            return None
    leftovers = in_use(uid)
    if leftovers:  # left by a grader that died (or not reaped yet): not ours to kill, so not ours to use
        alive = processes_of(uid)
        if alive:
            log.warning("sandbox: uid %d not leased: its processes %s outlived their grader", uid, alive[:8])
        else:  # a killed sandbox's orphans, waiting for a slow init: usual, and over in seconds
            log.debug("sandbox: uid %d not leased: %d of its processes not reaped yet", uid, len(leftovers))
        os.close(fd)
        return None
    os.ftruncate(fd, 0)
    os.pwrite(fd, holder_record().encode(), 0)
    return UidLease(uid, fd)


def lease_uid(prefer: int | None = None) -> UidLease:
    """A dedicated uid no other worker on this machine uses now (only meaningful as root).

    ``prefer``: the uid to try first (tests); by default the scan starts at a
    place given by the pid. Without a lease directory or a mapped pool: the
    shared ``nobody`` uid, which is never swept.
    """
    lock_dir = uid_lock_dir() if _mapped(UID_POOL_START, UID_POOL_SIZE) else None
    if lock_dir is None:
        return UidLease(SHARED_UID, None)
    first = (prefer - UID_POOL_START) if prefer is not None else os.getpid()
    with _pool_locked(lock_dir):
        for step in range(UID_POOL_SIZE):
            lease = _try_lease(lock_dir, UID_POOL_START + (first + step) % UID_POOL_SIZE)
            if lease is not None:
                return lease
    log.warning("sandbox: every uid of the pool is leased; using the shared uid %d", SHARED_UID)
    return UidLease(SHARED_UID, None)


# -- processes of a uid ---------------------------------------------------------------------


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


def _owned_by(pid: int, uid: int, zombies: bool = False) -> bool:
    """Whether ``pid`` exists with ``uid`` as its real, effective or saved uid (alive, or also a
    zombie with ``zombies``)."""
    fields = _status_of(pid)
    if "State" not in fields or (fields["State"].startswith("Z") and not zombies):
        return False
    return str(uid) in fields.get("Uid", "").split()[:3]


def processes_of(uid: int, zombies: bool = False) -> list[int]:
    """Pids of the live processes whose real, effective or saved uid is ``uid`` (from /proc);
    with ``zombies``, also those ended but not reaped yet."""
    return [int(entry) for entry in os.listdir("/proc")
            if entry.isdigit() and _owned_by(int(entry), uid, zombies)]


def in_use(uid: int) -> list[int]:
    """Pids that keep ``uid`` from being leased: its live processes AND its zombies. A zombie
    still counts against ``RLIMIT_NPROC`` until it is reaped, so a sandbox started as that uid
    could fail its first fork (EAGAIN) where enough of them are left."""
    return processes_of(uid, zombies=True)


def kill_all_of(lease: UidLease, rounds: int = 20, reap_s: float = 0.5) -> bool:
    """SIGKILL every process of the lease's DEDICATED uid (setsid or not), pid by pid.

    Only for a lease held by this very process (never a forked copy, never
    after release), never for the shared uid, never for uid 0. Each process is
    pinned with a pidfd before its uid is checked, so a reused pid can never be
    hit; rounds repeat while a fork storm adds processes. Then it waits (up to ``reap_s``) for
    them to be reaped too: a zombie still counts against the next sandbox's ``RLIMIT_NPROC``.
    Whether none is left, zombies included (an orphan's zombie waits for the init of the PID
    namespace, which may reap only every few seconds: the caller then uses another uid).
    """
    if not lease.dedicated or not lease.held() or not is_root() or lease.uid < UID_POOL_START:
        return True
    for _ in range(rounds):
        pids = processes_of(lease.uid)
        if not pids:
            return _reaped(lease.uid, reap_s)
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
    return False


def _reaped(uid: int, wait_s: float) -> bool:
    """Wait up to ``wait_s`` until no zombie of ``uid`` is left (their parents, the sandbox's own
    init last, reap them a moment after the kill); whether none is."""
    deadline = time.monotonic() + wait_s
    while in_use(uid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True
