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

from grader.sandbox.cgroups import cgroup_mounts, own_paths

PREFIX = "solitaire-bench-"


class CpuCounter:
    """CPU seconds used so far by this process and its descendants (see the module docstring)."""

    def __init__(self) -> None:
        self._group: Path | None = None
        try:
            self._group = _join_cpuacct()
        except OSError:
            self._group = None

    @property
    def complete(self) -> bool:
        """Whether the sandboxes' processes are counted too (a cgroup of the bench's own)."""
        return self._group is not None

    def seconds(self) -> float:
        if self._group is not None:
            return int((self._group / "cpuacct.usage").read_text()) / 1e9
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime

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


def _join_cpuacct() -> Path | None:
    """Make a cgroup for this process below its own in the v1 ``cpuacct`` hierarchy and move it
    there; None where there is no such hierarchy."""
    own = own_paths().get("cpuacct")
    for point, kind, options in cgroup_mounts():
        if own is not None and kind == "cgroup" and "cpuacct" in options:
            parent = Path(point + own.rstrip("/"))
            _remove_stale(parent)
            group = parent / f"{PREFIX}{os.getpid()}"
            group.mkdir(exist_ok=True)
            (group / "cgroup.procs").write_text(str(os.getpid()))
            return group
    return None


def _remove_stale(parent: Path) -> None:
    """Remove the empty cgroups of benches that ended without :meth:`CpuCounter.close`."""
    for group in parent.glob(f"{PREFIX}*"):
        pid = group.name.removeprefix(PREFIX)
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            try:
                group.rmdir()
            except OSError:
                pass  # still holds processes
