"""CPU seconds of this process and of everything it starts, sandboxes included, for the benches.

``getrusage(RUSAGE_CHILDREN)`` counts only children that were waited for, with what they had
counted of their own waited children. A sandbox's processes are not among them: the zygote and
its children are killed with their PID namespace when a sandbox closes, and nobody in the
grader's line waits for them, so their CPU (the launch, every fresh child, the answers) is
lost to that count. A cgroup counts every process that ever ran in it, dead or alive, so the
benches move themselves into a cgroup of their own in the cgroup v1 ``cpuacct`` hierarchy and
read its ``cpuacct.usage``: the sandboxes are started below the bench, so they are in it. (That
hierarchy is separate from the ``memory`` and ``pids`` ones the sandboxes' own cgroups live in,
so moving the bench changes nothing the sandboxes do.)

Without it (not root, or a host with the unified cgroup v2 hierarchy only, where moving the bench
into a child cgroup would stop the grader from enabling the memory controller for its sandboxes)
a :class:`CpuCounter` falls back to ``getrusage`` and says so (:attr:`CpuCounter.complete` is
False).
"""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path

V1_ROOT = Path("/sys/fs/cgroup/cpuacct")
PREFIX = "solitaire-bench-"


class CpuCounter:
    """CPU seconds used so far by this process and its descendants (see the module docstring)."""

    def __init__(self) -> None:
        self._group: Path | None = None
        self.complete = False
        try:
            self.complete = self._join_v1()
        except OSError:
            self._group = None

    def seconds(self) -> float:
        if self._group is not None:
            return int((self._group / "cpuacct.usage").read_text()) / 1e9
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime

    def _join_v1(self) -> bool:
        own = _own_path("cpuacct")
        if own is None or not (V1_ROOT / "cpuacct.usage").exists():
            return False
        parent = V1_ROOT / own.lstrip("/")
        _remove_stale(parent)
        group = parent / f"{PREFIX}{os.getpid()}"
        group.mkdir(exist_ok=True)
        (group / "cgroup.procs").write_text(str(os.getpid()))
        self._group = group
        return True

    def close(self) -> None:
        """Move this process back to its parent cgroup and remove the bench's (once empty)."""
        group, self._group = self._group, None
        if group is None:
            return
        try:
            (group.parent / "cgroup.procs").write_text(str(os.getpid()))
            for _ in range(50):  # sandboxes of the last run may still be dying
                try:
                    group.rmdir()
                    return
                except OSError:
                    time.sleep(0.1)
        except OSError:
            pass


def _remove_stale(parent: Path) -> None:
    """Remove the empty cgroups of benches that ended without :meth:`CpuCounter.close`."""
    for group in parent.glob(f"{PREFIX}*"):
        pid = group.name.removeprefix(PREFIX)
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            try:
                group.rmdir()
            except OSError:
                pass  # still holds processes


def _own_path(controller: str) -> str | None:
    """This process's cgroup path in the v1 hierarchy of ``controller``."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if controller in names.split(","):
            return path
    return None
