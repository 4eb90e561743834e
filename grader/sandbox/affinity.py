"""Keeping the grading thread and the child answering it on one CPU while a trace is replayed.

A replay is a ping-pong: the grading thread sends a batch and sleeps until the worker's child
answers, then the child sleeps until the next batch. When the two sleep and wake on different
CPUs, every wake-up is a cross-CPU one; on the development machine (a virtual machine, 2 vCPUs)
that costs about 100 us a round trip against about 20 us when both run on one CPU
(docs/performance.md, "The price of a round trip"). Nothing is lost by sharing: the two never run
at the same time. So, for one trace, the grading thread is pinned to the CPU it runs on, and the
zygote is asked to pin its child there (:meth:`grader.sandbox.SandboxWorker.colocate`); after the
trace the thread gets its own mask back, so the scheduler can move it again before the next.

Only performance depends on this: a failure (no such CPU any more, a mask the cgroup forbids)
leaves everything where the scheduler put it.
"""

from __future__ import annotations

import os

_STAT_CPU_FIELD = 39  # "processor" in /proc/<pid>/stat (man 5 proc), counted from 1


def current_cpu() -> int | None:
    """The CPU the calling thread runs on now (None if it cannot be told)."""
    try:
        with open("/proc/thread-self/stat", "rb") as stat:
            text = stat.read()
        # the command name (field 2) may hold spaces and parentheses: count from its closing one
        fields = text[text.rindex(b")") + 2:].split()
        return int(fields[_STAT_CPU_FIELD - 3])
    except (OSError, ValueError, IndexError):
        return None


def pin_here() -> tuple[int, Pinned] | None:
    """Pin the calling thread to the CPU it runs on; (that CPU, what to give back to
    :func:`restore`), or None if it could not be done (one CPU only, no /proc, a refused mask):
    then nothing changed.

    (Making the thread ``SCHED_BATCH`` as well, so that each reply line of a batch does not wake
    it and take the CPU from the child, halved the round trip of a 20-line batch on a quiet
    machine but lost to plain pinning under load: a batch thread woken while another
    engineer's job runs waits for that job's time slice. Not done.)
    """
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        mask = os.sched_getaffinity(0)
    except OSError:
        return None
    cpu = current_cpu()
    if cpu is None or len(mask) < 2 or cpu not in mask:
        return None
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError:
        return None
    return cpu, Pinned(mask)


def only_cpu() -> int | None:
    """The CPU the calling thread is bound to, when its mask holds exactly one; else None."""
    try:
        mask = os.sched_getaffinity(0)
    except (AttributeError, OSError):
        return None
    return next(iter(mask)) if len(mask) == 1 else None


class Pinned:
    """What :func:`pin_here` changed for the calling thread: its CPU mask before."""

    def __init__(self, mask: set[int]) -> None:
        self.mask = mask


def restore(pinned: Pinned) -> None:
    """Give the calling thread back what :func:`pin_here` changed."""
    try:
        os.sched_setaffinity(0, pinned.mask)
    except OSError:
        pass
