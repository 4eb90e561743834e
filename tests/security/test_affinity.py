"""grader/sandbox/affinity.py: pinning the calling thread, and giving its mask back."""

from __future__ import annotations

import os
import threading

import pytest

from grader.sandbox import affinity


def test_current_cpu_is_one_this_thread_may_run_on():
    cpu = affinity.current_cpu()
    assert cpu is not None and cpu in os.sched_getaffinity(0)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="pinning needs two CPUs")
def test_pin_here_pins_this_thread_only_and_restore_gives_the_mask_back():
    mask = os.sched_getaffinity(0)
    pinned = affinity.pin_here()
    assert pinned is not None
    cpu, before = pinned
    try:
        assert os.sched_getaffinity(0) == {cpu} and before.mask == mask
        seen: list[set[int]] = []
        other = threading.Thread(target=lambda: seen.append(os.sched_getaffinity(0)))
        other.start()  # a new thread inherits the pin (as a process forked now would) ...
        other.join()
        assert seen == [{cpu}]
    finally:
        affinity.restore(before)
    assert os.sched_getaffinity(0) == mask


def test_a_single_cpu_thread_is_left_alone():
    mask = os.sched_getaffinity(0)
    only = {min(mask)}
    os.sched_setaffinity(0, only)
    try:
        assert affinity.pin_here() is None  # nothing to gain: nothing changed
        assert os.sched_getaffinity(0) == only
    finally:
        os.sched_setaffinity(0, mask)
