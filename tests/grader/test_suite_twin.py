"""Replays ahead by a forked process on the second sandbox (grader/suite/twin.py, ahead.py): the
same checks as one trace after the other, whichever replay is used."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from grader.grade import graded_traces, run_suite, sandbox_available
from grader.sandbox.limits import Budget
from grader.suite import twin as twin_module
from grader.suite.ahead import AheadProcess
from grader.suite.twin import Twin
from solitaire import catalog
from solitaire.protocol import LocalWorker, Worker, WorkerError
from solitaire.replay import Check, Summary, replay

REFERENCE = Path(__file__).resolve().parents[2] / "reference"
TWO_CPUS = hasattr(os, "sched_getaffinity") and len(os.sched_getaffinity(0)) >= 2


class _Slow(Worker):
    """A trusted worker whose ``is_won`` answers "timeout" in the traces dealt ``hanging``, as a
    sandbox's does when the method hangs (the replay then marks it dead)."""

    def __init__(self, name: str, hanging: set[tuple[str, ...]], delay: float = 0.0) -> None:
        self.inner = LocalWorker(type(catalog.load(name))())
        self.hanging = hanging
        self.delay = delay
        self.hangs = False

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        if message.get("op") != "batch":
            return self._one(message, [])
        answered: list[dict[str, Any]] = []
        for inner in message["requests"]:
            answered.append(self._one(inner, answered))
        return {"ok": True, "replies": answered}

    def _one(self, message: dict[str, Any], answered: list[dict[str, Any]]) -> dict[str, Any]:
        if message.get("op") == "start":
            self.hangs = tuple(message.get("cards", ())) in self.hanging
        if self.hangs and message.get("op") == "won":
            time.sleep(self.delay)
            raise WorkerError("timeout", "no answer in time", answered=answered)
        return self.inner.request(message)


class _Crashing(Worker):
    """A trusted worker whose process "crashes" at the first ``won`` it is asked (the sandbox is
    then launched again: ``restarts`` counts it)."""

    def __init__(self, name: str, restarts: list[int], crashes: bool = True) -> None:
        self.inner = LocalWorker(type(catalog.load(name))())
        self.restarts = restarts
        self.crashed = not crashes

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        inner = message["requests"] if message.get("op") == "batch" else [message]
        answered: list[dict[str, Any]] = []
        for one in inner:
            if one.get("op") == "won" and not self.crashed:
                self.crashed = True
                self.restarts[0] += 1
                raise WorkerError("crashed", "the worker running your code stopped", answered=answered)
            answered.append(self.inner.request(one))
        return {"ok": True, "replies": answered} if message.get("op") == "batch" else answered[0]


def _graded(checks: list[Check]) -> tuple[list[tuple[Any, ...]], Summary]:
    """What the grade takes from checks (grader/suite/ahead.py, ``pack``): each one's trace,
    step, category and verdict, in order, and the counts and first failures of each cell."""
    summary = Summary()
    for check in checks:
        summary.add(check)
    return [(check.trace, check.step, check.category, check.ok) for check in checks], summary


class _LocalSide:
    """A side of trusted workers for the forked process (:class:`~grader.suite.ahead.Side`);
    ``restarts``: a counter the workers raise when they "crash" (in the forked process's memory)."""

    def __init__(self, source: Any, restarts: list[int] | None = None, exit_at: int | None = None) -> None:
        self.make = source
        self.launched = restarts if restarts is not None else [0]
        self.exit_at = exit_at  # the forked process dies when asked for this many workers
        self.made = 0
        self.budget = Budget(float("inf"))

    def source(self) -> Worker:
        self.made += 1
        if self.exit_at is not None and self.made >= self.exit_at:
            os._exit(3)
        return self.make()

    def restarts(self) -> int:
        return self.launched[0]

    def load_failed(self) -> bool:
        return False

    def close(self) -> None:
        pass


def _run(traces: list[dict[str, Any]], source: Any, with_twin: bool, second: Any = None,
         restarts: list[int] | None = None, trace_timeout: float | None = None,
         exit_at: int | None = None) -> tuple[list[Check], set[str], Any]:
    """The checks of every trace in order as the suite's tests make them, the dead set at the
    end, and the :class:`Twin` (None without). ``second``: the replays ahead's worker source."""
    dead: set[str] = set()
    ahead = AheadProcess.start(lambda: _LocalSide(second or source, restarts, exit_at)) if with_twin else None
    twin = Twin(ahead, traces, dead, trace_timeout) if ahead is not None else None
    checks: list[Check] = []
    try:
        for trace in traces:
            taken = twin.take(trace) if twin is not None else None
            checks.extend(taken if taken is not None else replay(trace, source, dead=dead))
    finally:
        if twin is not None:
            twin.close()
        if ahead is not None:
            ahead.close().join(timeout=10)
    return checks, dead, twin


def test_packed_checks_keep_what_the_grade_takes_from_them():
    """A buggy Bismarck (its ``tableau_accepts`` accepts every card): the answer the forked process
    sends gives the same counts and first failures, the first failure of each cell in full."""
    from grader.suite.ahead import pack, unpack

    name = "bismarck"
    variation = type(catalog.load(name))

    class Accepting(variation):
        def tableau_accepts(self, *args):
            return True

    checks = [c for trace in graded_traces(name)[:6] for c in replay(trace, lambda: LocalWorker(Accepting()))]
    failed = [c for c in checks if not c.ok]
    assert failed and len(failed) < len(checks)  # the case is reached: some fail, some pass
    trace = checks[0].trace
    mine = [c for c in checks if c.trace == trace]
    back = unpack(json.loads(json.dumps(pack(mine))), trace)
    assert _graded(back) == _graded(mine)
    assert next(c for c in back if not c.ok) == next(c for c in mine if not c.ok)  # in full


@pytest.mark.skipif(not TWO_CPUS, reason="replays ahead need two CPUs")
def test_checks_taken_from_ahead_are_those_of_the_replay_in_turn():
    traces = graded_traces("scorpion")
    mask = os.sched_getaffinity(0)
    source = lambda: LocalWorker(type(catalog.load("scorpion"))())  # noqa: E731
    alone, dead_alone, _ = _run(traces, source, with_twin=False)
    together, dead_together, twin = _run(traces, source, with_twin=True)
    assert _graded(together) == _graded(alone) and dead_together == dead_alone == set()
    # the traces are shared, not all replayed by the tests' thread
    assert twin.voided == 0 and twin.taken >= len(traces) // 4
    assert os.sched_getaffinity(0) == mask  # the tests' thread has its CPUs back


@pytest.mark.skipif(not TWO_CPUS, reason="replays ahead need two CPUs")
def test_a_method_that_hangs_meanwhile_voids_the_replay_ahead():
    """``is_won`` hangs in the first trace (its time-out takes a moment): from the second trace on
    it is dead (not asked, failed). The second trace, replayed ahead meanwhile, still asked it:
    that replay must not be used, and the checks must be those of the traces in turn."""
    dealt = [trace for trace in graded_traces("indian") if "cards" in trace["start"]]
    traces = dealt[:5]
    hanging = {tuple(traces[0]["start"]["cards"])}
    source = lambda: _Slow("indian", hanging, delay=0.3)  # noqa: E731
    alone, dead_alone, _ = _run(traces, source, with_twin=False)
    together, dead_together, twin = _run(traces, source, with_twin=True)
    assert dead_alone == {"is_won"}
    assert _graded(together) == _graded(alone) and dead_together == dead_alone
    assert twin.voided >= 1 and twin.taken == 0  # voided, then one trace after the other
    dead_checks = [c for c in alone if c.category == "is_won" and not c.ok and c.trace == traces[1]["name"]]
    assert dead_checks  # the second trace's is_won checks fail as dead ones: the case was reached


@pytest.mark.skipif(not TWO_CPUS, reason="replays ahead need two CPUs")
@pytest.mark.skipif(not TWO_CPUS, reason="replays ahead need two CPUs")
def test_a_replay_ahead_that_restarted_its_sandbox_is_not_used():
    """The second sandbox's worker crashes once in every trace it replays (a crash depends on
    timing and counts towards the restart cap): none of those replays is used; every trace's
    checks are those of the first sandbox's worker, which never crashes."""
    traces = graded_traces("bismarck")[:6]
    restarts = [0]
    source = lambda: LocalWorker(type(catalog.load("bismarck"))())  # noqa: E731
    made = iter(range(10_000))
    # the first worker of a trace crashes once, the one replacing it does not: one crash a trace,
    # so no method goes dead (that takes three), and only the restart tells
    crashing = lambda: _Crashing("bismarck", restarts, crashes=next(made) % 2 == 0)  # noqa: E731
    alone, _, _ = _run(traces, source, with_twin=False)
    together, _, twin = _run(traces, source, with_twin=True, second=crashing, restarts=restarts)
    # (the crashes are counted in the forked process's memory: accepting a replay that
    # restarted its sandbox makes taken > 0)
    assert _graded(together) == _graded(alone) and twin.taken == 0 and twin.voided >= 1
    assert not twin.dead


@pytest.mark.skipif(not TWO_CPUS, reason="replays ahead need two CPUs")
def test_a_replay_ahead_slower_than_a_third_of_the_trace_timeout_is_not_used():
    """Replayed by its test, a trace that slow might have been stopped by the per-trace timeout."""
    traces = graded_traces("bismarck")[:4]
    source = lambda: LocalWorker(type(catalog.load("bismarck"))())  # noqa: E731
    alone, _, _ = _run(traces, source, with_twin=False)
    together, _, twin = _run(traces, source, with_twin=True, trace_timeout=0.0003)
    assert _graded(together) == _graded(alone) and twin.taken == 0 and twin.voided >= 1
    assert Twin(twin.ahead, traces, set(), 60.0).slow_s == 20.0
    assert Twin(twin.ahead, traces, set(), None).slow_s == twin_module.SLOW_S


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_replay_ahead_that_breaks_leaves_no_test_waiting(monkeypatch):
    """The background thread dies in the middle of a replay (a bug of the grader's own): the test
    of that trace replays it itself, at once, and the rest follow in turn."""
    def broken(self, trace, ahead):
        raise RuntimeError("a bug")

    monkeypatch.setattr(Twin, "_replay", broken)
    traces = graded_traces("bismarck")[:4]
    source = lambda: LocalWorker(type(catalog.load("bismarck"))())  # noqa: E731
    alone, _, _ = _run(traces, source, with_twin=False)
    together, _, twin = _run(traces, source, with_twin=True)
    assert _graded(together) == _graded(alone) and twin.taken == 0 and twin.stopped
    twin.thread.join(timeout=5)


@pytest.mark.skipif(not TWO_CPUS, reason="replays ahead need two CPUs")
def test_a_replaying_process_that_dies_leaves_no_test_waiting():
    """The forked process dies when it starts its second replay: that trace's test replays it
    itself, and the rest follow in turn; the process is reaped."""
    traces = graded_traces("bismarck")[:5]
    source = lambda: LocalWorker(type(catalog.load("bismarck"))())  # noqa: E731
    alone, _, _ = _run(traces, source, with_twin=False)
    together, _, twin = _run(traces, source, with_twin=True, exit_at=2)
    assert _graded(together) == _graded(alone) and twin.stopped and twin.voided == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(twin.ahead.pid, os.WNOHANG)


def test_nothing_runs_ahead_on_one_cpu(monkeypatch):
    traces = graded_traces("bismarck")[:3]
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    source = lambda: LocalWorker(type(catalog.load("bismarck"))())  # noqa: E731
    alone, _, _ = _run(traces, source, with_twin=False)
    together, _, twin = _run(traces, source, with_twin=True)
    assert twin.taken == 0 and twin.thread is None and _graded(together) == _graded(alone)


def test_the_switch_reads_the_environment(monkeypatch):
    monkeypatch.setenv(twin_module.AHEAD_ENV, "0")
    assert not twin_module.ahead_wanted()
    monkeypatch.setenv(twin_module.AHEAD_ENV, "1")
    assert twin_module.ahead_wanted()
    monkeypatch.delenv(twin_module.AHEAD_ENV)
    assert twin_module.ahead_wanted()


@pytest.mark.skipif(not (sandbox_available() and TWO_CPUS and shutil.which("bwrap")),
                    reason="two zygote sandboxes need bwrap and two CPUs")
def test_a_sandboxed_grade_is_the_same_with_and_without_replays_ahead(tmp_path, monkeypatch):
    """Through the real suite: a submission whose ``is_won`` never returns (dead after its first
    time-out) gets the same counts, first failures and dead methods either way."""
    source = (REFERENCE / "indian.py").read_text(encoding="utf-8")
    hang = "    def is_won(self, state):\n        while True:\n            pass\n\n    def _was_is_won("
    source = source.replace("    def is_won(", hang, 1)
    submission = tmp_path / "sub"
    submission.mkdir()
    (submission / "indian.py").write_text(source, encoding="utf-8")
    monkeypatch.setenv("SOLITAIRE_SANDBOX_CALL_S", "0.5")
    found = {}
    for ahead in ("0", "1"):
        monkeypatch.setenv(twin_module.AHEAD_ENV, ahead)
        work = tmp_path / f"work{ahead}"
        work.mkdir()
        counts, output = run_suite(submission / "indian.py", "indian", "sandbox", work, 600.0, 60.0)
        assert counts is not None, output
        found[ahead] = {key: counts[key] for key in ("cells", "first_failures", "traces", "dead")}
    assert found["1"]["dead"] == ["is_won"]
    assert found["1"] == found["0"]


def test_the_trace_timeout_is_pytest_timeouts_option_else_its_ini_value():
    from grader.suite.plugin import _trace_timeout

    def config(option, ini):
        def getini(name):
            if ini is None:
                raise ValueError("unknown ini")
            return ini
        return SimpleNamespace(getoption=lambda name, default=None: option, getini=getini)

    assert _trace_timeout(config(7.0, "60")) == 7.0
    assert _trace_timeout(config(None, "60")) == 60.0
    assert _trace_timeout(config(None, "")) is None
    assert _trace_timeout(config(None, None)) is None
    assert _trace_timeout(config(0.0, "60")) is None  # 0: no timeout
