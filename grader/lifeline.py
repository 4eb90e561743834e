"""Grading processes die with the process that started them, and take their temporary folders along.

A grading run is a tree: ``course grade`` (or ``solitaire grade``), its pool
workers, the hidden suite each worker starts (pytest, in its own session so
that a submission cannot signal it), and the sandboxed workers the suite
starts. A kill of the top process used to leave the rest running: the pool
workers waited forever, the suite finished its grading for nobody, and their
temporary folders stayed behind. Now:

* every child of the tree asks the kernel to SIGKILL it when its parent dies
  (``prctl(PR_SET_PDEATHSIG)``: :func:`die_with_parent` for pool workers,
  :func:`dies_with_this_process` as a subprocess ``preexec_fn`` for the
  suite; the sandbox's bwrap has ``--die-with-parent``), so a ``kill -9``
  of the top process brings the whole tree down, session or not;
* SIGTERM is turned into :class:`Stopped` (:func:`stop_on_sigterm`), so the
  ``finally`` blocks run: a subprocess being waited for is killed by
  :mod:`subprocess`, pool workers are killed by ``course grade``;
* every temporary folder of the run lives under one run folder,
  ``$TMPDIR/solitaire-run-<pid>-<start time>`` (:func:`run_folder`: ``TMPDIR``
  points there for the run's children), removed when the run ends; a run
  killed with SIGKILL cannot remove it, so every run first removes the run
  folders whose owner process is gone (:func:`sweep`).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from solitaire.errors import SolitaireError

PR_SET_PDEATHSIG = 1
RUN_PREFIX = "solitaire-run-"


class Stopped(SolitaireError):
    """The run was asked to stop (SIGTERM); what was stored before is kept."""


def _prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()  # resolved here, never in a preexec_fn (nothing may be imported or loaded there)


def die_with_parent(parent: int) -> None:
    """In a child of ``parent``: SIGKILL when the parent dies; gone at once if it already has."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request: nobody would send the signal
        os.kill(os.getpid(), signal.SIGKILL)


def dies_with_this_process() -> Callable[[], None]:
    """A ``preexec_fn`` that makes the new subprocess die with the calling process (thread)."""
    parent = os.getpid()
    return lambda: die_with_parent(parent)


def start_time(pid: int) -> str | None:
    """The start time of process ``pid`` (clock ticks since boot), None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]  # field 22; the name in brackets may hold spaces


def _owner_alive(folder: Path) -> bool:
    pid, _, started = folder.name[len(RUN_PREFIX):].partition("-")
    return not pid.isdigit() or start_time(int(pid)) == started  # a name not ours: left alone


def sweep(base: Path) -> list[Path]:
    """Remove the run folders in ``base`` whose owner process is gone; returns them.

    Without ``/proc`` (not Linux) no owner can be checked, and nothing is removed.
    """
    removed: list[Path] = []
    if not Path("/proc/self/stat").exists():
        return removed
    try:
        folders = [p for p in base.iterdir() if p.name.startswith(RUN_PREFIX) and p.is_dir()]
    except OSError:
        return removed
    for folder in folders:
        if not _owner_alive(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


@contextmanager
def run_folder() -> Iterator[Path]:
    """This run's temporary folder: ``TMPDIR`` for its children, removed at the end (see above)."""
    base = Path(tempfile.gettempdir())
    sweep(base)
    folder = base / f"{RUN_PREFIX}{os.getpid()}-{start_time(os.getpid()) or 0}"
    folder.mkdir(mode=0o711, exist_ok=True)
    os.chmod(folder, 0o711)  # the sandbox's own uid passes through to its folders (each 0700 or set)
    old = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = None  # re-read TMPDIR
    try:
        yield folder
    finally:
        if old is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = old
        tempfile.tempdir = None
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def stop_on_sigterm(what: str, after: str) -> Iterator[None]:
    """SIGTERM raises :class:`Stopped`, "``what`` stopped by SIGTERM; ``after``" (in the main thread
    only; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: the cleanup must not be interrupted
        raise Stopped(f"{what} stopped by SIGTERM; {after}")

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def kill_pool_workers() -> None:
    """SIGKILL this process's multiprocessing children (a pool's workers); their own children
    die with them (:func:`die_with_parent`)."""
    import multiprocessing

    for child in multiprocessing.active_children():
        child.kill()


@contextmanager
def grading_run(what: str, after: str) -> Iterator[Path]:
    """A grading run: :func:`stop_on_sigterm` and :func:`run_folder` together."""
    with stop_on_sigterm(what, after), run_folder() as folder:
        yield folder
