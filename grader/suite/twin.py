"""Two traces at once: the next trace replayed ahead by a second process on a second sandbox,
kept only if it is what the sequential run would have given.

A replay is a ping-pong between the grading thread and the sandbox's child, so one grade
keeps one CPU busy at a time. With two CPUs, :class:`Twin` has a process forked from the suite
(:class:`~.ahead.AheadProcess`, with the submission's second zygote sandbox) replay a later
trace no test has started yet (chosen by :meth:`Twin._next`), while the test in progress
replays its own on the first sandbox. A background thread of the suite hands it the trace
and waits for its checks; the test of a trace replayed ahead takes those checks instead of
replaying it again.

**The same grade as one trace after the other.** A trace's replay depends on the trace, on
a fresh child that has seen nothing (either sandbox gives one: the two are alike, see
:class:`~.warm.ZygoteWorkers`) and on the set of rule methods that hung in earlier traces
(``dead``, which only grows). The replay ahead starts from a copy of ``dead`` as it then is;
its checks are taken only if that copy equals ``dead`` when the trace's test runs, that is
after every earlier trace (each earlier trace's own methods that hung are added by its test,
in order). Otherwise (a method hung meanwhile), or if the replay ahead did not end normally,
took longer than a third of the suite's per-trace timeout (:data:`SLOW_SHARE`: replayed by
its test, it might have been stopped), met a time-out, a crash or a broken answer itself
(which depend on timing, and restart the sandbox, whose restarts are capped) or left less
than that much of the wall budget (:func:`~.ahead.replay_aside`), the test replays the trace
itself as before. After any of these no more traces are replayed ahead, so a submission that
hangs, crashes or crawls is graded one trace after the other. Timing decides which replay is
used, never what a trace scores.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any

from solitaire.replay import Check

from .ahead import AheadProcess
from .warm import mark

#: "0" turns the replays ahead off (two sandboxes then take the traces in turn, as before)
AHEAD_ENV = "SOLITAIRE_SUITE_AHEAD"


def ahead_wanted() -> bool:
    """Whether the suite replays traces ahead when it can: ``SOLITAIRE_SUITE_AHEAD`` is not "0"."""
    return os.environ.get(AHEAD_ENV, "1").strip() != "0"


#: a replay ahead is not used if it took longer than this share of the suite's per-trace
#: timeout (pytest-timeout's, 60 s by default): replayed by its test, it might have been stopped
SLOW_SHARE = 1 / 3
SLOW_S = 20.0  # without a per-trace timeout


def cost(trace: dict[str, Any]) -> int:
    """A trace's replay time, roughly: its steps (each one to three round trips) and the start."""
    return 1 + len(trace.get("steps", ()))


@dataclass
class _Ahead:
    """One trace replayed ahead: the ``dead`` it started from and what it gave."""

    start_dead: frozenset[str]
    checks: list[Check] = field(default_factory=list)
    usable: bool = False  # ended normally, in time
    done: bool = False


class Twin:
    """The background replays of one suite run (see the module docstring).

    ``ahead``: the process that replays; ``traces``: the traces in the order their tests run;
    ``dead``: the suite's set of methods that hung (the :class:`~.plugin.Collector`'s), which
    only the tests' thread changes; ``budget``: the submission's wall budget, charged with what
    the replays ahead spent (:class:`~grader.sandbox.limits.Budget`; None: not charged).
    """

    def __init__(self, ahead: AheadProcess, traces: list[dict[str, Any]], dead: set[str],
                 trace_timeout: float | None = None, budget: Any = None) -> None:
        self.ahead = ahead
        self.budget = budget
        self.slow_s = trace_timeout * SLOW_SHARE if trace_timeout else SLOW_S
        self.traces = traces
        self.index = {trace["name"]: i for i, trace in enumerate(traces)}
        self.costs = [cost(trace) for trace in traces]
        self.dead = dead
        self.lock = threading.Condition()
        self.claimed: dict[int, str] = {}  # trace index -> "test" or "ahead"
        self.results: dict[int, _Ahead] = {}
        self.current = -1  # the index of the trace whose test runs now
        self.stopped = False
        self.taken = 0  # traces whose replay ahead was used
        self.voided = 0  # traces replayed ahead but replayed again by their test
        self.thread: threading.Thread | None = None
        self._mask: set[int] | None = None
        self._cpu: int | None = None  # the CPU the replays ahead run on

    # -- the tests' side ------------------------------------------------------------------
    def take(self, trace: dict[str, Any]) -> list[Check] | None:
        """The checks of ``trace`` replayed ahead, if they stand for the sequential replay; None
        if the test must replay it itself."""
        index = self.index.get(trace.get("name"), -1)
        with self.lock:
            if self.thread is None and not self.stopped:
                self._start()
            if self.claimed.get(index) != "ahead":
                self.claimed[index] = "test"
                self.current = max(self.current, index)
                self.lock.notify_all()
                return None
            self.current = max(self.current, index)
            mark("waiting for the trace ahead")
            while not self.results[index].done:
                self.lock.wait()
            ahead = self.results[index]
        if ahead.usable and ahead.start_dead == frozenset(self.dead):  # (usable: it added nothing)
            self.taken += 1
            mark("trace taken from ahead")
            return ahead.checks
        self.voided += 1
        mark("trace ahead not used")
        self.stop()
        return None

    def stop(self) -> None:
        """No more replays ahead (the one running, if any, ends on its own)."""
        with self.lock:
            self.stopped = True
            self.lock.notify_all()

    def close(self) -> None:
        """Stop and give this thread its CPU mask back."""
        self.stop()
        if self._mask is not None:
            try:
                os.sched_setaffinity(0, self._mask)
            except OSError:
                pass
            self._mask = None

    # -- the background side ---------------------------------------------------------------
    def _start(self) -> None:
        """Pin the tests' thread to the CPU it runs on and start the background thread, whose
        replays ahead run on another (two replays on one CPU would gain nothing); with one CPU,
        do nothing."""
        from grader.sandbox import affinity

        try:
            allowed = os.sched_getaffinity(0)
        except (AttributeError, OSError):
            allowed = set()
        here = affinity.current_cpu()
        others = sorted(allowed - {here})
        if here is None or here not in allowed or not others:
            self.stopped = True
            return
        try:
            os.sched_setaffinity(0, {here})
        except OSError:
            self.stopped = True
            return
        self._mask = allowed
        self._cpu = others[0]
        self.thread = threading.Thread(target=self._run, name="replay-ahead", daemon=True)
        self.thread.start()

    def _next(self) -> int | None:
        """Claim a trace to replay ahead (lock held), only while a test replays its own: the
        first unclaimed trace after it that costs no more than what that test's thread has to
        replay before reaching it (its own trace and the unclaimed ones between, by
        :func:`cost`), so that it is done by then; if none does, the first unclaimed one (the
        test's thread waits for it at most its cost less the work before it). While the tests
        only take replays ahead, nothing is claimed: every claim would be waited for."""
        while not self.stopped:
            if self.claimed.get(self.current) == "test":
                work = self.costs[self.current]
                first = None
                for index in range(self.current + 1, len(self.traces)):
                    if index in self.claimed:
                        continue
                    first = index if first is None else first
                    if self.costs[index] <= work:
                        return self._claim(index)
                    work += self.costs[index]
                if first is not None:
                    return self._claim(first)
            if self.current + 1 >= len(self.traces):
                return None
            self.lock.wait()
        return None

    def _claim(self, index: int) -> int:
        self.claimed[index] = "ahead"
        # (the tests' thread may be adding to dead now: frozenset() copies a set without
        # releasing the GIL, so the copy is one of its states)
        self.results[index] = _Ahead(frozenset(self.dead))
        return index

    def _run(self) -> None:
        try:
            # claim nothing before the second sandbox is up (it starts while pytest is imported,
            # the first one with it): until then the tests' thread replays every trace itself
            if not self.ahead.ready():
                return
            while True:
                with self.lock:
                    index = self._next()
                if index is None:
                    break
                ahead = self.results[index]
                self._replay(self.traces[index], ahead)
                with self.lock:
                    ahead.done = True
                    if not ahead.usable:
                        self.stopped = True
                    self.lock.notify_all()
        finally:  # whatever ends this thread, no test waits for it (an unfinished replay stays unusable)
            with self.lock:
                self.stopped = True
                for ahead in self.results.values():
                    ahead.done = True
                self.lock.notify_all()

    def _replay(self, trace: dict[str, Any], ahead: _Ahead) -> None:
        """Have the process replay ``trace`` into ``ahead`` (usable as
        :func:`~.ahead.replay_aside` says) and charge the wall budget with its time."""
        mark("ahead begins")
        used = self.budget.used if self.budget is not None else 0.0
        checks, usable, spent = self.ahead.replay(trace, ahead.start_dead, self.slow_s, used, self._cpu)
        if self.budget is not None:
            self.budget.add(spent)
        ahead.checks = checks
        ahead.usable = usable
        mark("ahead ends")
