"""The launch wrappers work whatever descriptor numbers the worker's pipes get.

The wrappers hold files open on descriptors 3..9 (bwrap's options; the unshare layer's two
directories): they must pick ones the worker's request and reply pipes do not use. The
unshare layer once used 8 and 9 whatever the pipes were, which closed the reply pipe of a
grader with a few more files open (pytest -s was enough). Here the pipes are put on chosen
numbers.
"""

from __future__ import annotations

import fcntl
import os
import shutil

import pytest
from security_support import DEALT, reference_copy

from grader.sandbox import Limits, SandboxWorker, choose_isolation
from grader.sandbox.isolation import free_fds


def test_free_descriptors_avoid_the_pipes():
    assert free_fds((3, 4), 2) == [5, 6]
    assert free_fds((8, 9)) == [3]
    assert free_fds((3, 4, 5, 6, 7), 2) == [8, 9]


def _pipes_on(targets):
    """An os.pipe that moves each new descriptor to the next of ``targets``."""
    real_pipe, numbers = os.pipe, iter(targets)

    def pipe():
        ends = []
        for fd in real_pipe():
            target = next(numbers, None)
            if target is None:  # later pipes (subprocess's own) stay where they are
                ends.append(fd)
                continue
            if fd != target:  # (dup2 onto itself is a no-op: closing fd would close the end)
                os.dup2(fd, target, inheritable=False)
                os.close(fd)
            ends.append(target)
        return tuple(ends)
    return pipe


# where the descriptors found on the target numbers wait meanwhile: above every target (a plain dup
# takes the lowest free number, which in a long test session with many files open can be a target)
PARKING = 100

# request_r, request_w, reply_r, reply_w, output_r, output_w (the order SandboxWorker makes them)
PLACES = {"request on 8, reply on 9": (8, 40, 41, 9, 42, 43),
          "request on 9, reply on 8": (9, 40, 41, 8, 42, 43),
          "request on 3, reply on 5": (3, 40, 41, 5, 42, 43)}


@pytest.mark.skipif(os.geteuid() != 0, reason="the layers drop to a sandbox uid only as root")
@pytest.mark.parametrize("layer", ["bwrap", "unshare"])
@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_worker_starts_whatever_descriptors_its_pipes_get(layer, place, tmp_path, isolation, monkeypatch):
    if shutil.which(layer) is None:
        pytest.skip(f"{layer} missing")
    targets = PLACES[place]
    limits = Limits(call_s=5, wall_s=30, isolation=layer)
    choose_isolation(layer)  # probed now, with ordinary descriptors
    moved = []
    for fd in targets:  # park whatever uses the target numbers, and give it back afterwards
        try:
            os.fstat(fd)
        except OSError:
            continue
        moved.append((fd, fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, PARKING), os.get_inheritable(fd)))
    monkeypatch.setattr("grader.sandbox.worker.os.pipe", _pipes_on(targets))
    try:
        with SandboxWorker(reference_copy(tmp_path), limits) as worker:
            worker.load(DEALT)
            assert worker.state() == DEALT
    finally:
        monkeypatch.undo()
        for fd, saved, inheritable in moved:
            os.dup2(saved, fd, inheritable=inheritable)
            os.close(saved)
