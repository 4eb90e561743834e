"""Run a command as a child subreaper, kill it once its process tree is deep enough, report survivors.

    python reaper.py SIGNAL DEPTH STDERR_FILE -- COMMAND...

The reaper marks itself a child subreaper (``PR_SET_CHILD_SUBREAPER``), so
every process of COMMAND's tree that loses its parent is re-parented here
instead of to init: nothing of the tree can get away, ``setsid`` or not.
It starts COMMAND, waits until the tree is DEPTH levels deep (for ``course
grade``: pool worker, hidden suite, sandbox launcher), records every
descendant by pid and start time, sends SIGNAL to COMMAND's own pid (not its
group), waits for it, and then gives the recorded processes ``SURVIVAL_WAIT``
seconds to end (a process told by the kernel that its parent died ends at
once; one left alone would still be grading). It prints one JSON object:
COMMAND's return code, the processes seen, and those still alive after that
time, which it then kills (they are its own children by then) so that no
test leaves anything behind.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36
SURVIVAL_WAIT = 3.0
TREE_WAIT = 240.0


def stat(pid: int) -> tuple[int, str, str] | None:
    """(parent pid, state, start time) of ``pid``; None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    return int(fields[1]), fields[0], fields[19]


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:160]
    except OSError:
        return "?"


def descendants(root: int) -> dict[int, int]:
    """pid -> depth below ``root`` of every live descendant of ``root``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            info = stat(int(entry.name))
            if info is not None:
                children.setdefault(info[0], []).append(int(entry.name))
    found, frontier, depth = {}, [root], 0
    while frontier:
        depth += 1
        frontier = [child for pid in frontier for child in children.get(pid, [])]
        found.update({pid: depth for pid in frontier})
    return found


def reap() -> None:
    """Collect every exited child (orphans re-parented here become zombies until then)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def alive(pid: int, started: str) -> bool:
    info = stat(pid)
    return info is not None and info[2] == started and info[1] != "Z"


def main() -> int:
    signum, depth, stderr_file = getattr(signal, sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    command = sys.argv[sys.argv.index("--") + 1:]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
    with open(stderr_file, "w") as errors:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, start_new_session=True)
    seen: dict[int, tuple[str, int, str]] = {}
    give_up = time.monotonic() + TREE_WAIT
    deepest = 0
    while deepest < depth and process.poll() is None and time.monotonic() < give_up:
        for pid, level in descendants(process.pid).items():
            info = stat(pid)
            if info is not None and pid not in seen:
                seen[pid] = (info[2], level, command_line(pid))
            deepest = max(deepest, level)
        time.sleep(0.05)
    reached = deepest >= depth
    if process.poll() is None:
        os.kill(process.pid, signum)
    returncode = process.wait()
    until = time.monotonic() + SURVIVAL_WAIT
    survivors = list(seen)
    while survivors and time.monotonic() < until:
        reap()
        survivors = [pid for pid in seen if alive(pid, seen[pid][0])]
        time.sleep(0.1)
    report = {"returncode": returncode, "reached": reached,
              "seen": [[pid, level, line] for pid, (_, level, line) in seen.items()],
              "alive": [[pid, seen[pid][2]] for pid in survivors]}
    for pid in survivors:  # the test's own leftovers, by pid
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    time.sleep(0.5)
    reap()
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
