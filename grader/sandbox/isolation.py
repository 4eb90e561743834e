"""Isolation layers for the worker process, strongest first (choosing one: :mod:`.probe`).

``bwrap``
    bubblewrap: new network, PID, IPC, UTS (and cgroup) namespaces; a mount
    view of only the interpreter, its standard library (no site-packages) and
    the shared libraries they load (:mod:`.view`), the engine copy, the rules
    copy and the entry script (read-only), a private size-capped ``/tmp`` that
    is the working directory, a fresh ``/proc`` and a minimal ``/dev``; its
    options come on a descriptor, so no command line shows a host path. ``--die-with-parent``
    plus the PID namespace: killing the bwrap process kills every process the
    student started, ``setsid`` or not. As root, bwrap runs without a user
    namespace and keeps only CAP_SETUID/CAP_SETGID, which the entry script
    uses to drop to the sandbox uid before any student code runs (with a user
    namespace, root could not switch to an unmapped uid).
``unshare``
    util-linux ``unshare``: new network, PID (with ``--kill-child``), IPC,
    UTS, cgroup and mount namespaces, a fresh ``/proc``; :data:`HIDE_SCRIPT`
    bounds System V IPC, covers the grader's project directory, ``grader/``,
    ``reference/``, the caller's hidden paths, every site-packages and
    :data:`SHARED_DIRS` with empty read-only tmpfs mounts,
    gives the worker a private ``/tmp`` and mounts the sandbox copy (and the
    Python installation, if it sits under a directory others cannot enter)
    read-only. The rest of the file system is protected by permissions only
    (the sandbox uid owns nothing).
``plain``
    no namespaces: a new session and process group, the sandbox uid when the
    grader is root (then every process of that uid is killed after the
    worker, which catches ``setsid`` escapees too: :mod:`.uids`), rlimits. Without root,
    the worker runs as the grader's own user: it could read the grader's
    files and signal the grader. This is logged as a warning.

Every layer adds the entry script's own hardening (rlimits, uid drop) and, as
root, a memory cgroup per launch (:mod:`.cgroups`, joined by :mod:`.launcher`).
Only ``bwrap`` and ``unshare`` are :attr:`Isolation.strong`: a factory refuses
``plain`` unless the instructor allowed it (:class:`WeakSandboxRefused`).
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from solitaire.errors import UserError

from .uids import is_root
from .view import PACKAGE_DIRS, SANDBOX_PYTHON, python_view, view_args

log = logging.getLogger("grader.sandbox")

ISOLATION_NAMES = ("bwrap", "unshare", "plain")
SANDBOX_ROOT = "/sandbox"  # where bwrap mounts the engine, rules and entry copies
# Run as (namespace) root inside unshare's new namespaces: $1 = the submission's temp dir,
# $2 = size of the private /tmp, $3 = the Python installation, $4 = its topmost ancestor that others
# cannot traverse (or ""), $5 and $6 = two free descriptors (not the worker's pipes) to hold $1
# and $3 open, then "key=value" IPC sysctls (key under /proc/sys), "--", the directories to hide,
# "--", the worker command. The Python installation is re-mounted first,
# so that its site-packages can be hidden inside it.
HIDE_SCRIPT = """
root=$1; size=$2; python=$3; locked=$4; rfd=$5; pfd=$6; shift 6
eval "exec $rfd<\\"\\$root\\"" || exit 97
eval "exec $pfd<\\"\\$python\\"" || exit 97
while [ "$1" != "--" ]; do
  printf '%s\\n' "${1#*=}" > "/proc/sys/${1%%=*}" || exit 97; shift
done
shift
if [ -n "$locked" ]; then
  mount -t tmpfs -o size=64k,mode=0755 sandbox-python "$locked" && mkdir -p "$python" || exit 97
  mount --no-canonicalize --bind /proc/self/fd/$pfd "$python" && mount -o remount,bind,ro "$python" || exit 97
fi
while [ "$1" != "--" ]; do
  if [ -d "$1" ]; then mount -t tmpfs -o ro,size=4k,mode=000 sandbox-hidden "$1" || exit 97; fi; shift
done
shift
mount -t tmpfs -o size="$size",mode=1777 sandbox-tmp /tmp || exit 97
mkdir -m 0755 /tmp/.sandbox || exit 97
mount --no-canonicalize --bind /proc/self/fd/$rfd /tmp/.sandbox || exit 97
mount -o remount,bind,ro /tmp/.sandbox || exit 97
eval "exec $rfd<&- $pfd<&-"
cd /tmp || exit 97
exec "$@"
"""
# Shared places hidden by the unshare layer besides the grader's own directories (when they exist
# and do not hold the Python installation).
SHARED_DIRS = ("/var/tmp", "/dev/shm", "/home", "/srv", "/mnt", "/media", "/run", "/opt", "/root")
UNSHARE_SANDBOX = "/tmp/.sandbox"
MQUEUE_DIR = "/dev/mqueue"  # (bwrap) the IPC namespace's POSIX message queues


@dataclass(frozen=True)
class Isolation:
    """One layer: its name, whether it runs as root, and whether it kills every descendant."""

    name: str  # "bwrap" | "unshare" | "plain"
    as_root: bool
    kills_descendants: bool  # a PID namespace (or a dedicated uid) reaches setsid escapees
    detail: str

    @property
    def strong(self) -> bool:
        """Namespaces for everything (bwrap, or unshare with all of them); ``plain`` is weak: the
        worker sees the file system by permissions only and reaches the network."""
        return self.name in STRONG_LAYERS

    def describe(self) -> str:
        return f"sandbox isolation: {self.name} ({self.detail})"


STRONG_LAYERS = ("bwrap", "unshare")


class WeakSandboxRefused(UserError):
    """Only a weak layer works here and the instructor did not accept the risk (one line)."""

    def __init__(self, isolation: Isolation) -> None:
        self.isolation = isolation
        super().__init__(
            f"refusing to run student code: only the '{isolation.name}' sandbox layer works here (no "
            "namespaces: student code could read world-readable files and use the network); install "
            "bubblewrap or allow user namespaces, or accept the risk with --allow-weak-sandbox")



def bwrap_options(root: Path, tmp_bytes: int, as_root: bool, ipc_ready: bool) -> list[str]:
    """bwrap's options, without the program: the launcher hands them over on a file descriptor
    (``--args``), so that no command line inside the sandbox shows a host path.

    ``ipc_ready``: the launcher already made a new IPC namespace with bounded System V IPC
    (as root); bwrap then keeps it instead of making a fresh, unbounded one.
    """
    args = ["--die-with-parent", "--new-session",
            "--unshare-net", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try"]
    if not ipc_ready:
        args.append("--unshare-ipc")
    if as_root:
        args += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        args += ["--unshare-user"]
    mounts, env = view_args()
    args += mounts
    args += [
        "--proc", "/proc", "--dev", "/dev",
        # the IPC namespace's POSIX message queues, listed so the zygote can remove them between children
        "--mqueue", MQUEUE_DIR,
        "--perms", "1777", "--size", str(tmp_bytes), "--tmpfs", "/tmp",
        "--perms", "0755", "--dir", SANDBOX_ROOT,
        "--ro-bind", str(root / "lib"), f"{SANDBOX_ROOT}/lib",
        "--ro-bind", str(root / "rules"), f"{SANDBOX_ROOT}/rules",
        "--ro-bind", str(root / "boot"), f"{SANDBOX_ROOT}/boot",
        "--chdir", "/tmp",
        "--clearenv", "--setenv", "PATH", f"{SANDBOX_PYTHON}/bin", "--setenv", "LANG", "C.UTF-8",
        "--setenv", "HOME", "/tmp",
    ]
    for name, value in env.items():
        args += ["--setenv", name, value]
    return args


def ipc_sysctls(ipc_bytes: int) -> list[str]:
    """System V and POSIX IPC bounds for a new IPC namespace, as "key=value" under /proc/sys.

    Shared memory: at most ``ipc_bytes`` in all (``shmall`` pages) and per segment, 16 segments;
    message queues: 16 of 16 KiB; semaphores: a few. Written as root before the uid drop.
    """
    page = os.sysconf("SC_PAGE_SIZE")
    return [
        f"kernel/shmmax={ipc_bytes}", f"kernel/shmall={max(1, ipc_bytes // page)}", "kernel/shmmni=16",
        "kernel/msgmax=8192", "kernel/msgmnb=16384", "kernel/msgmni=16", "kernel/sem=32 256 32 16",
        "fs/mqueue/queues_max=4", "fs/mqueue/msg_max=10", "fs/mqueue/msgsize_max=8192",
    ]


def free_fds(used: Sequence[int], count: int = 1) -> list[int]:
    """Descriptor numbers a POSIX shell can redirect (3..9) that ``used`` (the worker's pipes) leaves free."""
    return [fd for fd in range(3, 10) if fd not in used][:count]


def unshare_prefix(root: Path, tmp_bytes: int, hidden: list[str], as_root: bool,
                   ipc_bytes: int = 16 * 1024 * 1024, used_fds: Sequence[int] = ()) -> list[str]:
    """The unshare command line: namespaces, then HIDE_SCRIPT, then (after "--") the worker.
    ``used_fds``: the worker's pipes, which the script must not reuse."""
    args = [
        shutil.which("unshare") or "unshare",
        "--net", "--pid", "--fork", "--kill-child", "--ipc", "--uts", "--cgroup",
        "--mount", "--propagation", "private", "--mount-proc",
    ]
    if not as_root:
        args += ["--user", "--map-root-user"]
    python = os.path.realpath(sys.base_prefix)
    locked = _first_locked_ancestor(Path(python))
    root_fd, python_fd = free_fds(used_fds, 2)
    return [*args, "--", "/bin/sh", "-c", HIDE_SCRIPT, "sandbox-hide", str(root), str(tmp_bytes),
            python, str(locked or ""), str(root_fd), str(python_fd), *ipc_sysctls(ipc_bytes), "--",
            *hidden, "--"]


def package_dirs() -> list[Path]:
    """Every site-packages/dist-packages directory of this interpreter, its venv and the system's."""
    import site
    import sysconfig

    found: set[str] = set()
    for base in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
        paths = sysconfig.get_paths(vars={"base": base, "platbase": base})
        found.update((paths["purelib"], paths["platlib"]))
    try:
        found.update(site.getsitepackages())
    except AttributeError:
        pass
    found.add(site.getusersitepackages())
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    for prefix in ("/usr", "/usr/local"):
        found.update(f"{prefix}/lib/{lib}/{name}" for lib in ("python3", version) for name in PACKAGE_DIRS)
    return sorted(Path(p) for p in found if os.path.isdir(p))


def _first_locked_ancestor(path: Path) -> Path | None:
    """The topmost directory above ``path`` that others cannot traverse (e.g. /root), if any."""
    for step in reversed(path.parents):
        if step != Path("/") and not os.stat(step).st_mode & stat.S_IXOTH:
            return step
    return None


#: top-level directories a worker needs; the unshare layer covers every other one
WORKER_TOP_DIRS = frozenset({"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "proc", "sys",
                         "dev", "tmp"})


def other_top_level_dirs() -> list[Path]:
    """Every directory at / but the system ones: other checkouts of the project (a CI clone
    next to a work tree, say) must not be readable either, wherever they are."""
    root = Path("/")
    return [root / name for name in sorted(os.listdir(root))
            if name not in WORKER_TOP_DIRS and (root / name).is_dir() and not (root / name).is_symlink()]


def unshare_hidden(extra: list[Path]) -> list[str]:
    """Directories the unshare layer covers: the grader's, the caller's, shared ones and every
    other non-system top-level directory; never the one holding Python."""
    python = Path(os.path.realpath(sys.base_prefix))
    wanted = [*default_hidden_paths(), *extra, *(Path(p) for p in SHARED_DIRS), *other_top_level_dirs(),
              *package_dirs()]
    usable = [p.resolve() for p in wanted if p.is_dir()]
    usable = [p for p in usable
              if not (python.is_relative_to(p) or p == Path("/tmp") or Path("/tmp").is_relative_to(p))]
    return [str(p) for p in outermost(usable)]


def default_hidden_paths() -> list[Path]:
    """The grader's own code and data: its project directory, grader/ and reference/."""
    paths: list[Path] = []
    for package in ("grader", "reference"):
        module = sys.modules.get(package)
        if module is None:
            try:
                module = __import__(package)
            except ImportError:
                continue
        for location in getattr(module, "__path__", []):
            package_dir = Path(location).resolve()
            paths.append(package_dir)
            if (package_dir.parent / "pyproject.toml").exists():
                paths.append(package_dir.parent)
    return outermost(paths)


def outermost(paths: list[Path]) -> list[Path]:
    """``paths`` without duplicates and without those inside another one (hiding the parent hides them)."""
    result: list[Path] = []
    for path in sorted(set(paths), key=lambda p: len(p.parts)):
        if not any(path.is_relative_to(kept) for kept in result):
            result.append(path)
    return result


# -- choosing a layer ----------------------------------------------------------


def candidates(requested: str) -> list[str]:
    if requested != "auto":
        return [requested]
    found = []
    if shutil.which("bwrap") and _view_available():
        found.append("bwrap")
    if shutil.which("unshare"):
        found.append("unshare")
    return [*found, "plain"]


def _view_available() -> bool:
    """Whether bwrap's mount view can be computed here (it needs ``ldd``)."""
    try:
        python_view()
    except (RuntimeError, OSError) as error:
        log.warning("sandbox: bwrap cannot be used: %s", error)
        return False
    return True


def layer(name: str) -> Isolation:
    root = is_root()
    if name == "bwrap":
        detail = ("namespaces net, pid, ipc, uts, cgroup; "
                  "mount view: interpreter + standard library + its shared libraries + engine copy + "
                  "rules copy; private /tmp; " + ("dedicated uid, caps dropped" if root else "user namespace")
                  + "; rlimits" + _memory_detail(ipc=root))
        return Isolation("bwrap", root, True, detail)
    if name == "unshare":
        detail = ("namespaces net, pid, ipc, uts, cgroup, mount; private /tmp; grader, reference, project, "
                  "shared and site-packages directories hidden by tmpfs; "
                  + ("dedicated uid" if root else "user namespace, grader's uid outside") + "; rlimits"
                  + _memory_detail(ipc=True))
        return Isolation("unshare", root, True, detail)
    if name == "plain":
        if root:
            return Isolation("plain", True, True,
                             "NO namespaces: network and file system reachable by permissions; dedicated uid "
                             "(its processes are killed pid by pid after the worker), rlimits"
                             + _memory_detail(ipc=False))
        return Isolation("plain", False, False,
                         "NO namespaces and NO uid change: the worker runs as the grader's user and could "
                         "read its files, use the network and signal it; processes started with setsid may "
                         "outlive the worker; rlimits only")
    raise ValueError(f"unknown isolation {name!r}")


def _memory_detail(ipc: bool) -> str:
    """How the worker's memory is bounded besides RLIMIT_AS (a cgroup, an IPC namespace's sysctls)."""
    from .cgroups import hierarchy

    found = hierarchy()
    text = f"; memory cgroup v{found.version}" if found is not None else "; NO memory cgroup"
    return text + ("; System V IPC bounded" if ipc else "; System V IPC unbounded")


def readable_by_others(path: Path) -> bool:
    """Whether a user with no special rights can reach and read directory ``path``."""
    path = path.resolve()
    for step in [*reversed(path.parents), path]:
        try:
            mode = os.stat(step).st_mode
        except OSError:
            return False
        if not mode & stat.S_IXOTH:
            return False
    return bool(os.stat(path).st_mode & stat.S_IROTH)


@functools.cache
def _logged(text: str, warn: bool) -> None:
    log.log(logging.WARNING if warn else logging.INFO, text)


def announce(isolation: Isolation) -> None:
    """Log (once per process and layer) which isolation is active, and what the plain layer exposes."""
    _logged(isolation.describe(), isolation.name == "plain")
    if isolation.name == "plain":
        exposed = [str(p) for p in default_hidden_paths() if readable_by_others(p)]
        if exposed:
            _logged("sandbox: plain layer: student code can read " + ", ".join(exposed)
                    + " (world-readable; install bubblewrap)", True)
