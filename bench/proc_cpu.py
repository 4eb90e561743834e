"""CPU seconds of a process tree, read from /proc (Linux), for the sandbox benches."""

from __future__ import annotations

import os

TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int, reaped: bool = False) -> float:
    """CPU seconds of every living process below ``root`` (utime + stime from /proc/<pid>/stat);
    with ``reaped``, also what each has counted for the children it reaped (cutime + cstime)."""
    last = 15 if reaped else 13
    children: dict[int, list[tuple[int, float]]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                text = stat.read()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        cpu = sum(int(field) for field in fields[11:last]) / TICK
        children.setdefault(int(fields[1]), []).append((int(name), cpu))
    total, todo = 0.0, [root]
    while todo:
        for pid, cpu in children.get(todo.pop(), []):
            total += cpu
            todo.append(pid)
    return total
