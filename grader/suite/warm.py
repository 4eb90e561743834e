"""The hidden suite's sources of sandboxed workers, startable before pytest is even imported.

:func:`prelaunch` makes the submission's sandbox factory and starts its sandboxes in the
background (:class:`ZygoteWorkers` under bwrap, :class:`WarmWorkers` elsewhere). The suite's
entry (:mod:`grader.suite.run`) calls it first thing, so that bwrap, the worker's interpreter
and its engine import run while this process imports pytest and collects the traces; the
plugin (:mod:`grader.suite.plugin`) takes what was started (:func:`take_prelaunched`) or, run
by plain ``pytest -p grader.suite.plugin``, calls :func:`prelaunch` itself at configure.

This module does not import pytest. :func:`mark` keeps the suite's timeline for the profile of
a grade (bench/sandbox_profile.py).
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

from solitaire.protocol import Worker, WorkerError

from .ahead import AheadProcess, SandboxSide

#: when set, a file the suite writes its timeline to at the end (bench/sandbox_profile.py)
PROFILE_ENV = "SOLITAIRE_SUITE_PROFILE"
_timeline: list[tuple[str, float]] = []


def mark(event: str) -> None:
    """Note when ``event`` happened (wall clock), for the profile of a grade; cheap when unused."""
    if PROFILE_ENV in os.environ:
        _timeline.append((event, time.time()))


def prelaunch(submission: str, results: str | None) -> Any:
    """The worker source for ``submission`` (a :class:`ZygoteWorkers` or :class:`WarmWorkers`),
    its sandboxes already launching in the background. ``results``: the suite's results file,
    whose directory the workers must not see. Raises as :func:`grader.sandbox.sandbox_factory`."""
    from grader.sandbox import sandbox_factory
    from grader.sandbox.worker import ZYGOTE_LAYERS

    hidden = [str(Path(results).resolve().parent)] if results else []
    factory = sandbox_factory(submission, hidden_paths=hidden)
    mark("factory made")
    if factory.layer not in ZYGOTE_LAYERS:
        return WarmWorkers(factory)
    sandboxes = sandboxes_wanted()
    if sandboxes == 2 and _ahead_possible():
        # before any thread of ours starts: the fork keeps only this one
        ahead = AheadProcess.start(lambda: SandboxSide(factory))
        if ahead is not None:
            mark("ahead forked")
            return ZygoteWorkers(factory, 1, ahead=ahead)
    return ZygoteWorkers(factory, sandboxes)


def _ahead_possible() -> bool:
    """Whether traces are to be replayed ahead (:mod:`.twin`): wanted, and two CPUs to run on."""
    from .twin import ahead_wanted

    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return False
    return ahead_wanted() and cpus >= 2


_prelaunched: dict[tuple[str, str | None], Any] = {}


def prelaunch_early(submission: str, results: str | None) -> None:
    """:func:`prelaunch` before pytest starts, kept for :func:`take_prelaunched`. A failure is left
    to the plugin, which makes the factory again at configure and reports it as it always did."""
    try:
        _prelaunched[(submission, results)] = prelaunch(submission, results)
    except Exception:  # noqa: BLE001 - raised again, where it is reported, by the plugin's own try
        pass


def take_prelaunched(submission: str, results: str | None) -> Any:
    """What :func:`prelaunch_early` started for these options (once), or None."""
    return _prelaunched.pop((submission, results), None)


def close_untaken() -> None:
    """Close what :func:`prelaunch_early` started and no plugin took (pytest stopped before its
    configure: a usage error, say), so that no sandbox outlives the suite's run."""
    while _prelaunched:
        _key, warm = _prelaunched.popitem()
        warm.close()


class _TraceWorker(Worker):
    """The shared sandboxed worker as one trace sees it: the replay's close at the end of the
    trace must not close the sandbox (the next trace gets a fresh child of it instead).

    ``ahead``: whether another child will be asked for after this one (more traces to come):
    then closing asks the zygote for it at once (:meth:`~grader.sandbox.SandboxWorker.fresh_ahead`),
    so that killing this child, wiping and starting the next overlap this side's own work.

    ``mask``: what :meth:`~grader.sandbox.SandboxWorker.colocate` changed to keep this thread
    beside the child for the trace (:class:`grader.sandbox.affinity.Pinned`), given back at its end."""

    def __init__(self, worker: Any, ahead: bool = False, mask: Any = None) -> None:
        self._worker = worker
        self._ahead = ahead
        self._mask = mask

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        return self._worker.request(message)

    def release(self) -> None:
        """Give this thread its CPU mask back (once)."""
        if self._mask is not None:
            from grader.sandbox import affinity

            affinity.restore(self._mask)
            self._mask = None

    def close(self) -> None:
        """The sandbox stays for the next trace (whose child is asked for now, if one will come)."""
        self.release()
        if self._ahead:
            self._worker.fresh_ahead()
            self._ahead = False


def _launch_in_background(worker: Any, finished: threading.Event) -> threading.Event:
    """Launch ``worker`` in a thread; the event is set once it has started (or failed to load:
    the worker keeps that failure and raises it at its first request)."""
    launched = threading.Event()

    def launch() -> None:
        try:
            worker.launch()
        except Exception:  # noqa: BLE001 - kept by the worker, raised at first use
            pass
        mark("launched")
        launched.set()
        # The worker dies with the thread that started it (bwrap --die-with-parent uses
        # PR_SET_PDEATHSIG, which follows the parent *thread*): stay alive until the end.
        finished.wait()

    threading.Thread(target=launch, name="sandbox-prelaunch", daemon=True).start()
    return launched


#: how many sandboxes serve the traces of one submission in turn under bwrap (1 or 2; default 2)
SANDBOXES_ENV = "SOLITAIRE_SUITE_SANDBOXES"


def sandboxes_wanted() -> int:
    """How many zygote sandboxes a submission gets: ``SOLITAIRE_SUITE_SANDBOXES`` (1 or 2), else 2."""
    value = os.environ.get(SANDBOXES_ENV, "2").strip()
    return 1 if value == "1" else 2


class ZygoteWorkers:
    """Zygote sandboxes (bwrap) for the whole submission; each call gives a fresh child of one.

    With two sandboxes (the default, :func:`sandboxes_wanted`) the traces alternate between
    them: while a child of one replays trace N, the other sandbox's zygote kills the child of
    trace N - 1, wipes what it left and starts the child for trace N + 1, which loads the rules
    file meanwhile; the replay rarely waits for a child. The two sandboxes are as separate from
    each other as the sandboxes of two submissions graded side by side (each its own PID, IPC,
    network and mount namespaces, ``/tmp``, uid and cgroup), and within each the next child
    finds nothing of the last (docs/security.md, "The zygote"). With one sandbox the next
    child is asked for as soon as a trace ends.

    The sandboxes are launched in the background while pytest collects the traces; each
    first child serves a first trace, every later call asks that zygote for a new child
    (:meth:`~grader.sandbox.SandboxWorker.fresh`: a full restart if the zygote fails).

    When traces are replayed ahead (:mod:`.twin`), the second sandbox is not here but in the
    process that replays them (:attr:`ahead`, an :class:`~.ahead.AheadProcess`, closed with
    the sandboxes).
    """

    def __init__(self, factory: Any, sandboxes: int = 1, ahead: AheadProcess | None = None) -> None:
        self.factory = factory
        self.finished = threading.Event()
        self.workers = [factory() for _ in range(sandboxes)]
        self._launched = [_launch_in_background(worker, self.finished) for worker in self.workers]
        self._used = [False] * sandboxes
        self._turn = 0
        # the worker handed out last (the tests' thread gives its CPU mask back)
        self._last: _TraceWorker | None = None
        self.remaining = 1  # traces still to replay (set once collected): children are asked ahead
        self.ahead = ahead

    def __call__(self) -> Worker:
        """A worker whose current child has served no trace yet (the sandboxes in turn)."""
        mark("child asked")
        if self._last is not None:  # (closed by its replay, normally): a pinned thread launches nothing
            self._last.release()
        index, self._turn = self._turn, (self._turn + 1) % len(self.workers)
        self._last = self._child(index)
        return self._last

    def _child(self, index: int) -> _TraceWorker:
        worker = self.workers[index]
        self._launched[index].wait()
        self.remaining -= 1
        # this sandbox serves again after the others have served one trace each (with traces
        # replayed ahead, fewer may be left for it: a spare child, killed at the end, costs little)
        ahead = self.remaining >= len(self.workers)
        if self._used[index]:
            try:
                worker.fresh()
            except WorkerError:
                pass  # a load failure, a spent budget: raised again at the first request
        mark("child ready")
        self._used[index] = True
        return _TraceWorker(worker, ahead=ahead, mask=worker.colocate())

    def close(self) -> None:
        """Kill every sandbox now; wait for their processes to end and remove their cgroups and
        files in a thread the suite's exit waits for (not a daemon), while the results are written
        (nothing of the sandbox can reach them: they are outside its view)."""
        mark("closing")
        if self._last is not None:
            self._last.release()
        for launched in self._launched:
            launched.wait(timeout=self.factory.limits.startup_s)
        for worker in self.workers:
            worker.kill()
        # the process replaying ahead cleans its own sandbox up and exits; the submission's copy,
        # which its sandbox reads too, is removed after that
        ahead = self.ahead.close() if self.ahead is not None else None
        self.finished.set()

        def cleanup() -> None:
            if ahead is not None:
                ahead.join()
            self.factory.close()

        threading.Thread(target=cleanup, name="sandbox-cleanup").start()
        mark("closed")


class WarmWorkers:
    """Fresh sandboxed workers, each launched in the background before it is asked for.

    ``remaining``: how many more workers will be asked for (the traces left); none is
    launched ahead beyond that, and a worker asked for unforeseen (a replacement after a
    crash) starts at its first request.
    """

    def __init__(self, factory: Any) -> None:
        self.factory = factory
        self.finished = threading.Event()
        self.remaining = 1
        self._next: tuple[Worker, threading.Event] | None = self._launch()

    def _launch(self) -> tuple[Worker, threading.Event]:
        worker = self.factory()
        return worker, _launch_in_background(worker, self.finished)

    def __call__(self) -> Worker:
        """A fresh worker (launched, or failed to load); the next one starts launching now."""
        self.remaining -= 1
        if self._next is None:
            return self.factory()
        worker, launched = self._next
        launched.wait()
        self._next = None
        if self.factory.load_failure is None and self.remaining > 0:
            self._next = self._launch()
        return worker

    def close(self) -> None:
        """Close every worker, after the one launching ahead (if any) has started: closing it
        half-way would look like a sandbox that cannot start."""
        if self._next is not None:
            self._next[1].wait(timeout=self.factory.limits.startup_s)
        self.factory.close()
        self.finished.set()


