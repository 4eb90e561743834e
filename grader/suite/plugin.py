"""The hidden suite's pytest plugin: options, the worker, counting, the results file.

Loaded with ``-p grader.suite.plugin``. Options:

``--solitaire-submission FILE``  the student's rules file (``scorpion.py``)
``--solitaire-variation NAME``   which hidden traces to replay
``--solitaire-worker KIND``      ``sandbox`` (default) or ``local`` (trusted code only)
``--solitaire-results FILE``     where to write the counts (JSON, see :func:`write_results`)
``--solitaire-traces DIR``       another trace directory (tests of the grader)
``--solitaire-checked FILE``     the traces as one JSON list, already validated by the grading
                                 process (:mod:`grader.trace_cache`), instead of a directory
``--solitaire-graded JSON``      ``{"option": [values]}``: replay only traces with these options

This process never imports the submission unless ``--solitaire-worker local``
is given: the sandbox runs it in a separate, isolated process.

Every trace is replayed in a **fresh worker**: nothing the submission learnt
while one trace was replayed (a state sent to resync it, say) survives into
the next. Under bwrap two sandboxes (``SOLITAIRE_SUITE_SANDBOXES``: one or two)
serve the whole submission in turn, their zygotes forking a fresh child per trace,
the next one readied while the other sandbox replays (:class:`ZygoteWorkers`, see
:meth:`grader.sandbox.SandboxWorker.fresh`); under the other layers the next
worker is launched in the background while a trace is replayed
(:class:`WarmWorkers`), so the fresh start costs little wall time. A rule method that hung
is not asked again in any later trace (the replay's ``dead`` set is shared).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from solitaire.protocol import LocalWorker, Worker, WorkerError
from solitaire.replay import Check, Summary, WorkerSource, planned, replay
from solitaire.traces import load_dir

#: when set, a file the suite writes its timeline to at the end (bench/sandbox_profile.py)
PROFILE_ENV = "SOLITAIRE_SUITE_PROFILE"
_timeline: list[tuple[str, float]] = []


def mark(event: str) -> None:
    """Note when ``event`` happened (wall clock), for the profile of a grade; cheap when unused."""
    if PROFILE_ENV in os.environ:
        _timeline.append((event, time.time()))


mark("plugin imported")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("solitaire", "Solitaire Lab hidden suite")
    group.addoption("--solitaire-submission", help="the student's rules file")
    group.addoption("--solitaire-variation", help="the variation graded")
    group.addoption("--solitaire-worker", default="sandbox", choices=("sandbox", "local"))
    group.addoption("--solitaire-results", help="JSON file to write the per-category counts to")
    group.addoption("--solitaire-traces", help="trace directory (default: the hidden traces)")
    group.addoption("--solitaire-checked", help="JSON list of traces the grading process validated")
    group.addoption("--solitaire-graded", default="{}", help="JSON: option name -> graded values")


class Collector:
    """Per-category counts over the whole run, and what each trace test did."""

    def __init__(self) -> None:
        self.summary = Summary()
        self.traces: dict[str, dict[str, Any]] = {}
        self.dead: set[str] = set()  # rule methods that hung: not asked again

    def run(self, trace: dict[str, Any], worker: WorkerSource) -> list[Check]:
        """Replay ``trace``; checks it could not make (a test timeout) count as failed."""
        mark("trace begins")
        made: Counter[str] = Counter()
        failed: list[Check] = []
        finished = False
        try:
            for check in replay(trace, worker, dead=self.dead):
                made[check.category] += 1
                self.summary.add(check)
                if not check.ok:
                    failed.append(check)
            finished = True
        finally:
            status = "passed" if finished and not failed else "failed"
            if not finished:  # interrupted (pytest-timeout, say) before the end
                status = "timeout"
                message = "the grader ran out of time on this trace (is some rule very slow?)"
                for category, count in planned(trace).items():
                    for _ in range(max(0, count - made[category])):
                        self.summary.add(Check(trace["name"], None, category, False,
                                               "the checks left in this trace", message=message, kind="lost"))
            self.traces[trace["name"]] = {"status": status, "failed": len(failed),
                                          "checks": sum(made.values())}
            mark("trace ends")
        return failed


def _collector(config: pytest.Config) -> Collector:
    collector = getattr(config, "_solitaire_collector", None)
    if collector is None:
        collector = Collector()
        config._solitaire_collector = collector  # type: ignore[attr-defined]
    return collector


def pytest_configure(config: pytest.Config) -> None:
    mark("configure")
    _collector(config)
    if config.getoption("--solitaire-submission", None) and config.getoption(
        "--solitaire-worker", None
    ) != "local":
        _prelaunch(config)


def _prelaunch(config: pytest.Config) -> None:
    """Start the sandboxed workers in the background, one ahead of need: the first while pytest
    loads and collects the traces, each next one while a trace is replayed, so their start-up
    (namespaces, interpreter, engine import) costs little wall time."""
    from grader.sandbox import sandbox_factory

    results = config.getoption("--solitaire-results")
    hidden = [str(Path(results).resolve().parent)] if results else []
    from grader.sandbox.worker import ZYGOTE_LAYERS

    factory = sandbox_factory(config.getoption("--solitaire-submission"), hidden_paths=hidden)
    mark("factory made")
    if factory.layer in ZYGOTE_LAYERS:
        config._solitaire_warm = ZygoteWorkers(factory, sandboxes_wanted())  # type: ignore[attr-defined]
    else:
        config._solitaire_warm = WarmWorkers(factory)  # type: ignore[attr-defined]


class _TraceWorker(Worker):
    """The shared sandboxed worker as one trace sees it: the replay's close at the end of the
    trace must not close the sandbox (the next trace gets a fresh child of it instead).

    ``ahead``: whether another child will be asked for after this one (more traces to come):
    then closing asks the zygote for it at once (:meth:`~grader.sandbox.SandboxWorker.fresh_ahead`),
    so that killing this child, wiping and starting the next overlap this side's own work."""

    def __init__(self, worker: Any, ahead: bool = False) -> None:
        self._worker = worker
        self._ahead = ahead

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        return self._worker.request(message)  # type: ignore[no-any-return]

    def close(self) -> None:
        """The sandbox stays for the next trace (whose child is asked for now, if one will come)."""
        if self._ahead:
            self._worker.fresh_ahead()


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
    """

    def __init__(self, factory: Any, sandboxes: int = 1) -> None:
        self.factory = factory
        self.finished = threading.Event()
        self.workers = [factory() for _ in range(sandboxes)]
        self._launched = [_launch_in_background(worker, self.finished) for worker in self.workers]
        self._used = [False] * sandboxes
        self._turn = 0
        self.remaining = 1  # traces still to replay (set once collected): children are asked ahead

    def __call__(self) -> Worker:
        """A worker whose current child has served no trace yet (the sandboxes in turn)."""
        mark("child asked")
        index, self._turn = self._turn, (self._turn + 1) % len(self.workers)
        worker = self.workers[index]
        self._launched[index].wait()
        self.remaining -= 1
        if self._used[index]:
            try:
                worker.fresh()
            except WorkerError:
                pass  # a load failure, a spent budget: raised again at the first request
        mark("child ready")
        self._used[index] = True
        # this sandbox serves again after the others have served one trace each
        return _TraceWorker(worker, ahead=self.remaining >= len(self.workers))

    def close(self) -> None:
        """Kill every sandbox now; wait for their processes to end and remove their cgroups and
        files in a thread the suite's exit waits for (not a daemon), while the results are written
        (nothing of the sandbox can reach them: they are outside its view)."""
        mark("closing")
        for launched in self._launched:
            launched.wait(timeout=self.factory.limits.startup_s)
        for worker in self.workers:
            worker.kill()
        self.finished.set()
        threading.Thread(target=self.factory.close, name="sandbox-cleanup").start()
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
            return self.factory()  # type: ignore[no-any-return]
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


def _graded(trace: dict[str, Any], graded: dict[str, list[Any]]) -> bool:
    return all(trace["options"].get(name) in values for name, values in graded.items())


def _trace_dir(config: pytest.Config) -> Path:
    given = config.getoption("--solitaire-traces")
    if given:
        return Path(given)
    variation = config.getoption("--solitaire-variation")
    if not variation:
        raise pytest.UsageError("--solitaire-variation is required")
    from grader.traces.build import HIDDEN_ROOT

    return HIDDEN_ROOT / variation


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "trace" not in metafunc.fixturenames:
        return
    config = metafunc.config
    graded = json.loads(config.getoption("--solitaire-graded") or "{}")
    checked = config.getoption("--solitaire-checked")
    if checked:  # read and validated by the grading process, which wrote this file
        traces = json.loads(Path(checked).read_text(encoding="utf-8"))
    else:  # committed traces met the schema when built; the semantic checks still run
        traces = load_dir(_trace_dir(config), schema=False)
    traces = [t for t in traces if _graded(t, graded)]
    variation = config.getoption("--solitaire-variation")
    if variation and any(t["variation"] != variation for t in traces):
        raise pytest.UsageError(f"the traces are not all of {variation}")
    metafunc.parametrize("trace", traces, ids=[t["name"] for t in traces])
    mark("collected")
    warm = getattr(config, "_solitaire_warm", None)
    if warm is not None:
        warm.remaining = len(traces)


class _Broken(Worker):
    """A worker for a rules file that cannot even be loaded: every request fails alike."""

    def __init__(self, message: str, error: str) -> None:
        self.message = message
        self.error = error

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        raise WorkerError("error", self.message, self.error)


@pytest.fixture(scope="session")
def solitaire_worker(request: pytest.FixtureRequest) -> Any:
    """A source of fresh workers, one per trace (a function returning a new Worker)."""
    config = request.config
    submission = config.getoption("--solitaire-submission")
    if not submission:
        raise pytest.UsageError("--solitaire-submission is required")
    kind = config.getoption("--solitaire-worker")
    if kind == "local":
        from solitaire.catalog import load_file

        try:
            variation = load_file(submission)
        except Exception as error:  # noqa: BLE001 - a broken file scores 0, with the reason
            broken = _Broken(f"your rules file could not be loaded: {type(error).__name__}: {error}",
                             type(error).__name__)
            config._solitaire_load_failure = {  # type: ignore[attr-defined]
                "error": type(error).__name__, "message": f"{type(error).__name__}: {error}"}
            yield lambda: broken
            return
        yield lambda: LocalWorker(type(variation)())
        return
    warm = config._solitaire_warm  # type: ignore[attr-defined]
    try:
        # What student code prints (worker.output) may echo hidden requests: dropped.
        yield warm
    finally:
        warm.close()


@pytest.fixture(scope="session")
def solitaire_collector(request: pytest.FixtureRequest) -> Collector:
    return _collector(request.config)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = session.config.getoption("--solitaire-results")
    if path:
        write_results(Path(path), _collector(session.config), session.config)
    mark("results written")
    if PROFILE_ENV in os.environ:
        Path(os.environ[PROFILE_ENV]).write_text(json.dumps(_timeline), encoding="utf-8")


def _sandbox_facts(config: pytest.Config) -> dict[str, Any]:
    """The layer the workers ran in, and whether the sandbox itself failed (not the student's
    code: the grade must then not stand)."""
    warm = getattr(config, "_solitaire_warm", None)
    if warm is None:
        facts: dict[str, Any] = {"layer": "local"}
        local = getattr(config, "_solitaire_load_failure", None)
        if local:
            facts["load_failure"] = local
        return facts
    failure = warm.factory.load_failure
    failed = bool(failure is not None and getattr(failure, "error", "") == "SandboxError")
    facts = {"layer": getattr(warm.factory, "layer", "?"), "failed": failed}
    if failure is not None and not failed:  # the rules file itself: the student's, said once
        facts["load_failure"] = {"error": getattr(failure, "error", "") or type(failure).__name__,
                                 "message": str(failure)}
    return facts


def write_results(path: Path, collector: Collector, config: pytest.Config) -> None:
    """Write ``{"variation", "cells": {trace: {category: [passed, total]}}, "first_failures":
    {trace: {category: check}}, "traces": {name: {"status", "failed", "checks"}}, "dead":
    [methods]}`` atomically."""
    data = {
        "variation": config.getoption("--solitaire-variation"),
        "cells": collector.summary.cells,
        "first_failures": {trace: {c: asdict(check) for c, check in per.items()}
                           for trace, per in collector.summary.first_failure.items()},
        "traces": collector.traces,
        "dead": sorted(collector.dead),
        "sandbox": _sandbox_facts(config),
    }
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data), encoding="utf-8")
    os.replace(temporary, path)
