"""What one sandboxed worker, and one submission, may use.

:class:`Limits` holds every bound; :class:`Budget` is the per-submission wall
clock shared by all the workers (and restarts) of one submission.

Each limit can be overridden from the environment (handy for tests and for
``solitaire grade`` without new flags): ``SOLITAIRE_SANDBOX_<FIELD>`` in upper
case, e.g. ``SOLITAIRE_SANDBOX_CALL_S=1``, ``SOLITAIRE_SANDBOX_WALL_S=10``,
``SOLITAIRE_SANDBOX_ISOLATION=plain``, ``SOLITAIRE_SANDBOX_ALLOW_WEAK=1``.
:meth:`Limits.from_env` applies them.
"""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from dataclasses import dataclass

ENV_PREFIX = "SOLITAIRE_SANDBOX_"
ISOLATIONS = ("auto", "bwrap", "unshare", "plain")
MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Bounds for a worker. Times in seconds, sizes in bytes."""

    call_s: float = 2.0  # per request: deadline for one answer
    startup_s: float = 10.0  # starting the process and loading the rules file
    wall_s: float = 300.0  # per submission: total time of all requests and restarts
    cpu_s: int = 60  # RLIMIT_CPU of each worker process
    memory_bytes: int = 1024 * MiB  # RLIMIT_AS
    processes: int = 8  # RLIMIT_NPROC per sandbox uid (threads count); worst memory = processes x memory
    open_files: int = 64  # RLIMIT_NOFILE
    file_bytes: int = 1 * MiB  # RLIMIT_FSIZE
    tmp_bytes: int = 16 * MiB  # size of the sandbox's private /tmp (bwrap, unshare)
    group_memory_bytes: int = 1024 * MiB  # the worker's cgroup: all its processes, tmpfs, shared memory
    ipc_bytes: int = 16 * MiB  # System V shared memory in the worker's IPC namespace (shmmax, shmall)
    output_bytes: int = 64 * 1024  # student stdout+stderr kept (the rest is drained and dropped)
    reply_bytes: int = 256 * 1024  # longest reply line accepted
    rules_bytes: int = 256 * 1024  # largest rules file accepted
    max_restarts: int = 200  # worker launches within one trace before giving up on it
    isolation: str = "auto"  # auto | bwrap | unshare | plain (force a layer; auto = strongest)
    allow_weak: bool = False  # grade even when only the weak layer (plain) works: the instructor's call

    def __post_init__(self) -> None:
        if self.isolation not in ISOLATIONS:
            raise ValueError(f"isolation must be one of {', '.join(ISOLATIONS)}, not {self.isolation!r}")
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value <= 0:
                raise ValueError(f"sandbox limit {field.name} must be positive, not {value}")

    @classmethod
    def from_env(cls, base: Limits | None = None, environ: dict[str, str] | None = None) -> Limits:
        """``base`` (default: the defaults) with ``SOLITAIRE_SANDBOX_*`` overrides applied."""
        base = base or cls()
        environ = dict(os.environ if environ is None else environ)
        changes: dict[str, object] = {}
        for field in dataclasses.fields(cls):
            text = environ.get(ENV_PREFIX + field.name.upper())
            if text is None:
                continue
            kind = type(getattr(base, field.name))
            if kind is bool:
                if text.strip().lower() not in ("1", "0", "true", "false", "yes", "no", ""):
                    raise ValueError(f"{ENV_PREFIX}{field.name.upper()}={text!r} is not 1 or 0")
                changes[field.name] = text.strip().lower() in ("1", "true", "yes")
                continue
            try:
                changes[field.name] = kind(text) if kind is not int else int(float(text))
            except ValueError:
                raise ValueError(
                    f"{ENV_PREFIX}{field.name.upper()}={text!r} is not a valid {kind.__name__}"
                ) from None
        return dataclasses.replace(base, **changes) if changes else base  # type: ignore[arg-type]


class Budget:
    """The wall-clock time one submission may still use, shared across restarts.

    Timing only bounds how long untrusted code may run; it never decides a
    verdict by itself (a step that runs out of time fails as "did not answer").
    """

    def __init__(self, seconds: float) -> None:
        self.total = seconds
        self.used = 0.0
        self.restarts = 0
        self._lock = threading.Lock()  # the tests' thread and the replays ahead's (add) charge it

    def remaining(self) -> float:
        return max(0.0, self.total - self.used)

    def exhausted(self) -> bool:
        return self.remaining() <= 0.0

    def add(self, seconds: float) -> None:
        """Count ``seconds`` spent elsewhere (by the process replaying traces ahead, which charged
        its own copy of this budget: grader/suite/ahead.py)."""
        with self._lock:
            self.used += max(0.0, seconds)

    def charge(self, started: float) -> None:
        """Count the time since ``started`` (a :func:`time.monotonic` reading). Time used by two
        workers at once (a trace replayed ahead, grader/suite/twin.py) is counted for each."""
        spent = max(0.0, time.monotonic() - started)
        with self._lock:
            self.used += spent
