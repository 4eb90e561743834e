"""Choosing and filling a worker's cgroup, on a stand-in cgroupfs (this machine's is v1).

The real hierarchy is exercised by test_memory_bounds.py; these pin the cgroup v2 path,
which the development machine cannot take (its unified hierarchy has no memory controller).
"""

from __future__ import annotations

import os

import pytest

from grader.sandbox import cgroups
from grader.sandbox.files import Submission

MiB = 1024 * 1024


def _unified(tmp_path, controllers: str):
    root = tmp_path / "unified"
    own = root / "grader.slice"
    own.mkdir(parents=True)
    (own / "cgroup.controllers").write_text(controllers + "\n")
    (own / "cgroup.subtree_control").write_text("")
    return root, own


def test_v2_hands_memory_and_pids_to_a_child_cgroup(tmp_path):
    root, own = _unified(tmp_path, "cpu io memory pids")
    found = cgroups._v2([(str(root), "cgroup2", {"rw"})], "/grader.slice")
    assert found == cgroups.Hierarchy(2, (own,))
    assert (own / "cgroup.subtree_control").read_text() == "+memory +pids"
    group = cgroups.create(64 * MiB, 12, found)
    assert group is not None and group.version == 2 and len(group.directories) == 1
    made = group.directories[0]
    assert made.parent == own and made.name.startswith(cgroups.PREFIX)
    assert (made / "memory.max").read_text() == str(64 * MiB)
    assert group.procs_files == [str(made / "cgroup.procs")]


def test_v2_without_a_memory_controller_is_not_used(tmp_path):
    root, _own = _unified(tmp_path, "cpu hugetlb")
    assert cgroups._v2([(str(root), "cgroup2", {"rw"})], "/grader.slice") is None


def test_v2_where_the_controller_cannot_be_handed_down_is_not_used(tmp_path):
    root, own = _unified(tmp_path, "memory pids")
    (own / "cgroup.subtree_control").unlink()
    (own / "cgroup.subtree_control").mkdir()  # writing it fails, as EBUSY does on a busy cgroup
    assert cgroups._v2([(str(root), "cgroup2", {"rw"})], "/grader.slice") is None


def test_a_failed_creation_leaves_nothing(tmp_path):
    parent = tmp_path / "memory"
    parent.mkdir()
    (parent / "memory.limit_in_bytes").write_text("")
    found = cgroups.Hierarchy(1, (parent, tmp_path / "missing-pids-hierarchy"))
    assert cgroups.create(64 * MiB, 12, found) is None
    assert list(parent.glob(cgroups.PREFIX + "*")) == []


def test_a_starting_launchs_cgroup_survives_another_launch_ending(tmp_path):
    """Workers of one submission start and stop in different threads: the cleanup after one
    launch must not remove the cgroup made for another that its wrapper has not joined yet."""
    if cgroups.hierarchy() is None:
        pytest.skip("no cgroup can be had here")
    rules = tmp_path / "scorpion.py"
    rules.write_text("X = 1\n")
    submission = Submission(rules, 1024)
    try:
        starting = cgroups.create(64 * MiB, 12)
        starting.marker = submission.new_private_file("cgroup-unjoined")
        submission.track_cgroup(starting)
        ended = cgroups.create(64 * MiB, 12)  # its wrapper joined (no marker), its processes gone
        submission.track_cgroup(ended)
        submission.remove_work_dir(None)  # what the worker calls after stopping a launch
        assert all(d.exists() for d in starting.directories)
        assert not any(d.exists() for d in ended.directories)
        os.unlink(starting.marker)  # the wrapper joined, then its launch ended
        submission.remove_work_dir(None)
        assert not any(d.exists() for d in starting.directories) and submission.cgroups == []
    finally:
        submission.remove()
