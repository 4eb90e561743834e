"""The process that replays traces ahead (:mod:`.twin`): forked from the suite before pytest is
imported, with its own sandbox, so that its half of each round trip (encoding requests,
checking answers) does not wait for the suite's interpreter lock.

:meth:`AheadProcess.start` forks. The forked process (trusted: the grader's own code, never the
submission's) opens its side (:class:`SandboxSide`: the submission's second zygote sandbox,
launched from the same factory while the suite imports pytest), says it is ready and then
replays each trace it is sent, one at a time, answering with the checks and whether the replay
may stand for the sequential one (:func:`replay_aside`). Orders and answers are JSON lines on
two pipes; nothing is unpickled. An answer carries what the grade takes from a trace's checks
(:func:`pack`): each check's category and verdict, and in full the first failure of each
category (what the results file keeps); the rest of a check (the state it was asked in, what
was expected and answered) is used nowhere, and sending it all cost more than the second
process gained (Indian's checks are 12 MB of JSON). The process ends when the order pipe
closes (its sandbox killed and cleaned up first) or, through ``PR_SET_PDEATHSIG``, when the
suite dies.

Why a process: a thread of the suite shared its interpreter lock with the tests' thread, and
both spend half of every round trip in Python (docs/performance.md, "Two traces at once").
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import IO, Any, Protocol

from solitaire.protocol import Worker, WorkerError

#: how long the suite waits at its end for the process to clean its sandbox up before killing it
CLOSE_S = 10.0


class Side(Protocol):
    """What the forked process replays on: a fresh worker per trace, and what voids a replay."""

    def source(self) -> Worker: ...

    def restarts(self) -> int: ...

    def load_failed(self) -> bool: ...

    #: the wall budget its workers charge (:class:`~grader.sandbox.limits.Budget`)
    budget: Any

    def close(self) -> None: ...


def replay_aside(side: Side, trace: dict[str, Any], dead: frozenset[str],
                 slow_s: float) -> tuple[list[Any], bool]:
    """Replay ``trace`` from the rule methods ``dead`` on ``side``: (the checks, whether they may
    stand for the sequential replay). They may only if the replay ended normally, within
    ``slow_s``, with the rules file loaded, nothing added to ``dead``, the sandbox never
    launched again (no time-out, crash or broken answer) and at least ``slow_s`` of the wall
    budget left: a replay that met any of these depends on timing or on what came before it, so
    its test replays it."""
    from solitaire.replay import replay

    hung = set(dead)
    restarts = side.restarts()
    started = time.monotonic()
    checks: list[Any] = []
    try:
        for check in replay(trace, side.source, dead=hung):
            checks.append(check)
    except BaseException:  # noqa: BLE001 - not used; the test replays the trace itself
        return checks, False
    usable = (time.monotonic() - started < slow_s and not side.load_failed()
              and hung == dead and side.restarts() == restarts and side.budget.remaining() >= slow_s)
    return checks, usable


def pack(checks: list[Any]) -> dict[str, Any]:
    """The checks as the grade uses them (see the module docstring): ``[[category, ok, step],
    ...]`` and ``{index: check}`` for the first failure of each category."""
    firsts: dict[str, Any] = {}
    for index, check in enumerate(checks):
        if not check.ok and check.category not in firsts:
            firsts[check.category] = index
    return {"checks": [[check.category, check.ok, check.step] for check in checks],
            "full": {str(index): asdict(checks[index]) for index in firsts.values()}}


def unpack(packed: dict[str, Any], trace: str) -> list[Any]:
    """The checks of :func:`pack` again: the first failure of each category in full, the others
    with their category, verdict and step only."""
    from solitaire.replay import Check

    full = packed["full"]
    return [Check(**full[str(index)]) if str(index) in full else Check(trace, step, category, ok, "")
            for index, (category, ok, step) in enumerate(packed["checks"])]


class SandboxSide:
    """The submission's second zygote sandbox, made in the forked process from the suite's
    factory: each :meth:`source` call gives a fresh child that has seen no trace, kept on this
    process's CPU (:meth:`~grader.sandbox.SandboxWorker.colocate`)."""

    def __init__(self, factory: Any) -> None:
        self.factory = factory
        self.budget = factory.budget
        self.worker = factory()
        self.used = False
        self.last: Any = None
        try:
            self.worker.launch()
        except WorkerError:
            pass  # a load failure: raised again at the first request, and the replay voided

    def source(self) -> Worker:
        from .warm import _TraceWorker

        if self.last is not None:
            self.last.release()
        if self.used:
            try:
                self.worker.fresh()
            except WorkerError:
                pass  # raised again at the first request
        self.used = True
        self.last = _TraceWorker(self.worker, ahead=True, mask=self.worker.colocate())
        return self.last

    def restarts(self) -> int:
        return int(self.worker.relaunches)

    def load_failed(self) -> bool:
        return self.factory.load_failure is not None

    def close(self) -> None:
        """Kill the sandbox and remove its cgroups (this process's only; the submission's copy
        is the suite's to remove)."""
        self.worker.kill()
        self.worker.close()
        self.factory.submission.release_cgroups(wait_s=2.0, everything=True)


def _serve(open_side: Callable[[], Side], orders: IO[bytes], answers: IO[bytes]) -> None:
    """The forked process's loop: one answer line per order line, until the orders end."""
    side = open_side()
    try:
        answers.write(b'{"ready": true}\n')
        answers.flush()
        while line := orders.readline():
            order = json.loads(line)
            if order.get("cpu") is not None:
                try:
                    os.sched_setaffinity(0, {order["cpu"]})
                except OSError:
                    pass
            side.budget.used = before = order["used"]  # the suite's, at this trace
            checks, usable = replay_aside(side, order["trace"], frozenset(order["dead"]), order["slow_s"])
            answer = {**pack(checks), "usable": usable, "spent": side.budget.used - before}
            answers.write(json.dumps(answer).encode("utf-8") + b"\n")
            answers.flush()
    finally:
        side.close()


class AheadProcess:
    """The suite's handle on the forked process (see the module docstring)."""

    def __init__(self, pid: int, orders: IO[bytes], answers: IO[bytes]) -> None:
        self.pid = pid
        self._orders = orders
        self._answers = answers
        self._ready: bool | None = None
        self._waiter: threading.Thread | None = None

    @classmethod
    def start(cls, open_side: Callable[[], Side]) -> AheadProcess | None:
        """Fork the process, whose side ``open_side()`` makes; None if it cannot be forked.
        Call it while the suite has no other thread (a fork keeps only the calling one)."""
        orders_r, orders_w = os.pipe()
        answers_r, answers_w = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            for fd in (orders_r, orders_w, answers_r, answers_w):
                os.close(fd)
            return None
        if pid == 0:  # the forked process: never returns
            status = 1
            try:
                os.close(orders_w)
                os.close(answers_r)
                from grader.sandbox.entry import _die_with_parent  # (it exits if the suite is gone)

                _die_with_parent()
                _serve(open_side, os.fdopen(orders_r, "rb"), os.fdopen(answers_w, "wb"))
                status = 0
            except Exception as error:  # noqa: BLE001 - said once; the traces are then replayed in turn
                os.write(2, f"grader: the process replaying traces ahead stopped ({type(error).__name__}: "
                            f"{error}); the traces are replayed one after the other\n".encode())
            finally:
                os._exit(status)  # no atexit handler or finalizer of the suite's runs here
        os.close(orders_r)
        os.close(answers_w)
        return cls(pid, os.fdopen(orders_w, "wb"), os.fdopen(answers_r, "rb"))

    def ready(self) -> bool:
        """Wait until the process has opened its side (its sandbox launched); False if it died."""
        if self._ready is None:
            self._ready = self._read() is not None
        return self._ready

    def replay(self, trace: dict[str, Any], dead: frozenset[str], slow_s: float, used: float,
               cpu: int | None = None) -> tuple[list[Any], bool, float]:
        """Have the process replay ``trace`` from ``dead`` with ``used`` seconds of the wall budget
        gone (pinned to ``cpu``): (the checks, whether usable, the budget it spent). A process
        that died gives ([], False, 0.0)."""
        order = {"trace": trace, "dead": sorted(dead), "slow_s": slow_s, "used": used, "cpu": cpu}
        try:
            self._orders.write(json.dumps(order).encode("utf-8") + b"\n")
            self._orders.flush()
        except (OSError, ValueError):
            return [], False, 0.0
        answer = self._read()
        if answer is None:
            return [], False, 0.0
        return unpack(answer, trace["name"]), bool(answer["usable"]), float(answer["spent"])

    def _read(self) -> dict[str, Any] | None:
        try:
            line = self._answers.readline()
            return json.loads(line) if line else None
        except (OSError, ValueError):
            return None

    def close(self, wait_s: float = CLOSE_S) -> threading.Thread:
        """End the process: close its orders (it finishes the replay it is on, kills and cleans up
        its sandbox, then exits) and wait for it in a thread the suite's exit waits for (not a
        daemon); past ``wait_s`` it is killed. Returns that thread (the same one every call)."""
        if self._waiter is None:
            try:
                self._orders.close()
            except OSError:
                pass
            self._waiter = threading.Thread(target=self._reap, args=(wait_s,), name="ahead-cleanup")
            self._waiter.start()
        return self._waiter

    def _reap(self, wait_s: float) -> None:
        deadline = time.monotonic() + wait_s
        try:
            while time.monotonic() < deadline:
                done, _status = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    return
                time.sleep(0.01)
            os.kill(self.pid, signal.SIGKILL)  # our own child, by its PID
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        finally:
            # (closed only now: a thread may still be reading the last answer)
            try:
                self._answers.close()
            except OSError:
                pass
