"""One course command that changes a course at a time: a lock file with its holder's pid and start.

``course grade``, ``course collect`` and ``course publish`` hold
``.work/course.lock`` while they run. The lock is the kernel's (``flock``) on
an open file, so it dies with its process: after a crash (kill -9, a power
cut) the next run takes it at once; the pid and start time written into the
file only serve the message a second run prints. It is released explicitly on the
way out, so a child forked while it was held cannot keep it.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from solitaire.errors import UserError

LOCK_NAME = "course.lock"


class CourseBusy(UserError):
    """Another course command holds the course's lock (the message names it)."""


@contextmanager
def course_lock(work_dir: Path, command: str) -> Iterator[None]:
    """Hold the course's lock for ``command``; CourseBusy at once if another process holds it."""
    work_dir.mkdir(parents=True, exist_ok=True)
    path = work_dir / LOCK_NAME
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(descriptor, 512, 0).decode("utf-8", "replace").split()
            pid, since, what = (holder + ["?", "?", "a course command"])[:3]
            raise CourseBusy(f"{what} is already running on this course since {since} (pid {pid}); "
                             f"wait for it to finish, or stop it, then run {command} again") from None
        started = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()} {started} course-{command}\n".encode(), 0)
        yield
    finally:
        # unlock before closing: a child forked meanwhile by one of this process's threads
        # shares the open file until it execs, and closing alone would leave it the lock
        fcntl.flock(descriptor, fcntl.LOCK_UN)
        os.close(descriptor)
