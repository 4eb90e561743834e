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

With two sandboxes and two CPUs the traces are also replayed two at a time: a process forked
from the suite before pytest is imported (:mod:`.ahead`) replays a later trace on the second
sandbox while a test replays its own on the first, and that trace's test takes those checks
when they are what the replay in turn would have given (:mod:`.twin`;
``SOLITAIRE_SUITE_AHEAD=0`` turns it off, and the two sandboxes then serve the traces in turn).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from solitaire.protocol import LocalWorker, Worker, WorkerError
from solitaire.replay import Check, Summary, WorkerSource, planned, replay
from solitaire.traces import load_dir

from .twin import Twin, ahead_wanted
from .warm import (  # noqa: F401 - re-exported: the tests and benches name them here
    PROFILE_ENV,
    SANDBOXES_ENV,
    WarmWorkers,
    ZygoteWorkers,
    _timeline,
    _TraceWorker,
    mark,
    prelaunch,
    sandboxes_wanted,
    take_prelaunched,
)

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
        self.twin: Twin | None = None  # the replays ahead on a second sandbox, if any

    def run(self, trace: dict[str, Any], worker: WorkerSource) -> list[Check]:
        """Replay ``trace`` (or take its replay ahead, :mod:`.twin`); checks it could not make (a
        test timeout) count as failed."""
        mark("trace begins")
        made: Counter[str] = Counter()
        failed: list[Check] = []
        finished = False
        try:
            ahead = self.twin.take(trace) if self.twin is not None else None
            checks = ahead if ahead is not None else replay(trace, worker, dead=self.dead)
            for check in checks:
                made[check.category] += 1
                self.summary.add(check)
                if not check.ok:
                    failed.append(check)
            finished = True
        finally:
            status = "passed" if finished and not failed else "failed"
            if not finished:  # interrupted (pytest-timeout, say) before the end
                status = "timeout"
                if self.twin is not None:
                    self.twin.stop()
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
    loads and collects the traces (or, under :mod:`grader.suite.run`, since before pytest was
    imported), each next one while a trace is replayed, so their start-up (namespaces,
    interpreter, engine import) costs little wall time."""
    submission = config.getoption("--solitaire-submission")
    results = config.getoption("--solitaire-results")
    warm = take_prelaunched(submission, results)
    if warm is None:
        warm = prelaunch(submission, results)
    config._solitaire_warm = warm  # type: ignore[attr-defined]


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
        if isinstance(warm, ZygoteWorkers) and warm.ahead is not None and len(traces) > 1 and ahead_wanted():
            collector = _collector(config)
            collector.twin = Twin(warm.ahead, traces, collector.dead, _trace_timeout(config),
                                  warm.factory.budget)


def _trace_timeout(config: pytest.Config) -> float | None:
    """pytest-timeout's per-test timeout in seconds (its option, else its ini value), or None."""
    value = config.getoption("timeout", None)
    if value is None:
        try:
            value = config.getini("timeout")
        except ValueError:  # pytest-timeout not loaded
            return None
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if seconds > 0 else None


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
        twin = _collector(config).twin
        if twin is not None:
            twin.close()
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
