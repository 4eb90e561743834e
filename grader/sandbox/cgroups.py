"""A cgroup per worker launch: one memory and process limit for everything the worker starts.

RLIMIT_AS bounds each process; a cgroup bounds them together, and also what outlives a
mapping in a process: pages of the private /tmp (tmpfs), System V shared memory, memfd files.
All of it is charged to the cgroup of the process that touched it, so a worker can never hold
more than ``Limits.group_memory_bytes`` of the machine's memory; over it, the kernel's OOM
killer kills inside that cgroup only (the worker then "stopped", like any crash).

cgroup v2 is used where the unified hierarchy offers the memory controller (and this process
may enable it for a child of its own cgroup); otherwise the v1 ``memory`` (and ``pids``)
hierarchies. The cgroup is made as a child of the grader's own cgroup in each hierarchy,
named ``solitaire-<grader pid>-<n>``, written directly in cgroupfs. The launch wrapper
(:mod:`.launcher`) writes its own pid into ``cgroup.procs`` before it execs the layer, so every
process of the worker starts inside. :meth:`WorkerCgroup.remove` deletes it once its
processes are gone; cgroups of graders that died are removed at the next creation.

Without root (or without a writable cgroupfs) there is no cgroup: :func:`create` returns
None and logs it once; System V IPC stays bounded by the IPC namespace's sysctls.
"""

from __future__ import annotations

import functools
import itertools
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger("grader.sandbox")

PREFIX = "solitaire-"
_counter = itertools.count(1)


def cgroup_mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, fs type, super options) of every cgroup mount of this process."""
    found: list[tuple[str, str, set[str]]] = []
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            found.append((fields[4].replace("\\040", " "), tail[0], set(tail[2].split(","))))
    return found


def own_paths() -> dict[str, str]:
    """This process's cgroup path per controller ("" key: the unified hierarchy)."""
    paths: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return paths
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) == 3:
            for controller in parts[1].split(",") if parts[1] else [""]:
                paths[controller] = parts[2]
    return paths


def _write(path: Path, value: str) -> None:
    with open(path, "w") as handle:
        handle.write(value)


@dataclass(frozen=True)
class Hierarchy:
    """Where to make worker cgroups: version, the parent directories, the limit files."""

    version: int
    parents: tuple[Path, ...]  # v2: one directory; v1: memory (and pids) parents

    def describe(self) -> str:
        return f"cgroup v{self.version} ({', '.join(str(p) for p in self.parents)})"


def _v2(mounts: list[tuple[str, str, set[str]]] | None = None, own: str | None = None) -> Hierarchy | None:
    """The unified hierarchy, if it offers the memory controller to a child of this process's
    cgroup (enabling it in ``cgroup.subtree_control`` fails where this cgroup holds processes
    and is not the root: the "no internal processes" rule)."""
    own = own_paths().get("") if own is None else own
    for point, kind, _options in cgroup_mounts() if mounts is None else mounts:
        if kind != "cgroup2" or own is None:
            continue
        parent = Path(point + own.rstrip("/")) if own != "/" else Path(point)
        try:
            available = (parent / "cgroup.controllers").read_text().split()
            if "memory" not in available:
                return None
            wanted = [c for c in ("memory", "pids") if c in available]
            enabled = (parent / "cgroup.subtree_control").read_text().split()
            missing = [c for c in wanted if c not in enabled]
            if missing:
                _write(parent / "cgroup.subtree_control", " ".join("+" + c for c in missing))
        except OSError:
            return None
        return Hierarchy(2, (parent,))
    return None


def _v1() -> Hierarchy | None:
    own = own_paths()
    parents = []
    for controller in ("memory", "pids"):
        for point, kind, options in cgroup_mounts():
            if kind == "cgroup" and controller in options and controller in own:
                parent = Path(point + own[controller].rstrip("/"))
                if os.access(parent, os.W_OK):
                    parents.append(parent)
                break
        if controller == "memory" and not parents:
            return None
    return Hierarchy(1, tuple(parents))


@functools.cache
def hierarchy() -> Hierarchy | None:
    """The cgroup hierarchy worker cgroups go into here (None: no cgroup can be had)."""
    if os.geteuid() != 0:
        found = None
    else:
        found = _v2() or _v1()
    if found is None:
        log.warning("sandbox: no cgroup available (not root, or no writable memory controller): "
                    "memory is bounded per process (RLIMIT_AS) and System V IPC per namespace only")
    else:
        log.info("sandbox: worker memory limited by %s", found.describe())
    return found


@dataclass
class WorkerCgroup:
    """The cgroup directories of one worker launch (one per v1 hierarchy, one for v2)."""

    version: int
    directories: list[Path] = field(default_factory=list)
    marker: Path | None = None  # exists until the launch wrapper has joined the cgroup

    @property
    def joined(self) -> bool:
        return self.marker is None or not self.marker.exists()

    @property
    def procs_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.directories]

    def _memory_dir(self) -> Path:
        for directory in self.directories:
            if (directory / ("memory.current" if self.version == 2 else "memory.usage_in_bytes")).exists():
                return directory
        raise FileNotFoundError("no memory cgroup")

    def usage_bytes(self) -> int:
        """Memory charged now to the worker's processes, its tmpfs pages, shared memory ..."""
        name = "memory.current" if self.version == 2 else "memory.usage_in_bytes"
        return int((self._memory_dir() / name).read_text())

    def processes(self) -> list[int]:
        pids: set[int] = set()
        for directory in self.directories:
            try:
                pids.update(int(p) for p in (directory / "cgroup.procs").read_text().split())
            except OSError:
                continue
        return sorted(pids)

    def remove(self, wait_s: float = 2.0) -> bool:
        """Delete the cgroup once its processes are gone (waiting up to ``wait_s``)."""
        deadline = time.monotonic() + wait_s
        while self.processes() and time.monotonic() < deadline:
            time.sleep(0.01)
        left = []
        for directory in self.directories:
            try:
                directory.rmdir()
            except FileNotFoundError:
                continue
            except OSError:
                left.append(directory)
        self.directories = left
        return not left


def _sweep(parent: Path) -> None:
    """Remove empty worker cgroups of graders that are gone."""
    try:
        entries = list(parent.glob(PREFIX + "*"))
    except OSError:
        return
    for entry in entries:
        owner = entry.name[len(PREFIX):].split("-", 1)[0]
        if owner.isdigit() and int(owner) != os.getpid() and not Path(f"/proc/{owner}").exists():
            try:
                entry.rmdir()
            except OSError:
                pass


def create(memory_bytes: int, processes: int, found: Hierarchy | None = None) -> WorkerCgroup | None:
    """A new cgroup limited to ``memory_bytes`` (no swap) and ``processes`` tasks, or None
    (``found``: where to make it; default :func:`hierarchy`)."""
    found = found or hierarchy()
    if found is None:
        return None
    name = f"{PREFIX}{os.getpid()}-{next(_counter)}"
    group = WorkerCgroup(found.version)
    try:
        for parent in found.parents:
            _sweep(parent)
            directory = parent / name
            directory.mkdir(mode=0o755)
            group.directories.append(directory)
            if found.version == 2:
                _write(directory / "memory.max", str(memory_bytes))
                if (directory / "memory.swap.max").exists():
                    _write(directory / "memory.swap.max", "0")
                if (directory / "pids.max").exists():
                    _write(directory / "pids.max", str(processes))
            elif (directory / "memory.limit_in_bytes").exists():
                _write(directory / "memory.limit_in_bytes", str(memory_bytes))
                if (directory / "memory.memsw.limit_in_bytes").exists():
                    try:
                        _write(directory / "memory.memsw.limit_in_bytes", str(memory_bytes))
                    except OSError:  # swap accounting off
                        pass
            elif (directory / "pids.max").exists():
                _write(directory / "pids.max", str(processes))
    except OSError as error:
        log.warning("sandbox: cannot make a worker cgroup (%s): this worker runs without one", error)
        group.remove(0)
        return None
    return group
