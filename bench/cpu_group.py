"""CPU seconds of this process and of everything it starts, sandboxes included, for the benches.

``getrusage(RUSAGE_CHILDREN)`` counts only children that were waited for, with what they had
counted of their own waited children. A sandbox's processes are not among them: the zygote and
its children are killed with their PID namespace when a sandbox closes, and nobody in the
grader's line waits for them, so their CPU (the launch, every fresh child, the answers) is
lost to that count. A cgroup counts every process that ever ran in it, dead or alive, so the
benches move themselves into a CPU-accounting cgroup of their own (cgroup v1 ``cpuacct``, or
v2 ``cpu.stat``) and read it: the sandboxes are started below the bench, so they are in it.

Without a writable cgroup hierarchy (not root) a :class:`CpuCounter` falls back to
``getrusage`` and says so (:attr:`CpuCounter.complete` is False).
"""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path

V1_ROOT = Path("/sys/fs/cgroup/cpuacct")
V2_ROOT = Path("/sys/fs/cgroup")


class CpuCounter:
    """CPU seconds used so far by this process and its descendants (see the module docstring)."""

    def __init__(self) -> None:
        self._group: Path | None = None
        self._read = self._rusage
        self.complete = False
        for make in (self._v1, self._v2):
            try:
                if make():
                    self.complete = True
                    return
            except OSError:
                continue

    def seconds(self) -> float:
        return self._read()

    @staticmethod
    def _rusage() -> float:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime

    def _join(self, parent: Path) -> Path:
        group = parent / f"solitaire-bench-{os.getpid()}"
        group.mkdir(exist_ok=True)
        (group / "cgroup.procs").write_text(str(os.getpid()))
        self._group = group
        return group

    def _v1(self) -> bool:
        own = _own_path("cpuacct")
        if own is None or not (V1_ROOT / "cpuacct.usage").exists():
            return False
        usage = self._join(V1_ROOT / own.lstrip("/")) / "cpuacct.usage"
        self._read = lambda: int(usage.read_text()) / 1e9
        return True

    def _v2(self) -> bool:
        own = _own_path("")
        if own is None or not (V2_ROOT / "cgroup.controllers").exists():
            return False
        stat = self._join(V2_ROOT / own.lstrip("/")) / "cpu.stat"

        def read() -> float:
            for line in stat.read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value) / 1e6
            raise OSError("no usage_usec in cpu.stat")

        read()
        self._read = read
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


def _own_path(controller: str) -> str | None:
    """This process's cgroup path for ``controller`` ("" for the unified hierarchy)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if (controller == "" and names == "") or controller in names.split(","):
            return path
    return None
