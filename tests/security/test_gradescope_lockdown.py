"""The Gradescope image keeps the autograder's files from the sandbox's uids, whatever layer it gets.

Where the container blocks namespaces the worker runs in the plain layer and sees the file
system by permissions only; setup.sh therefore ends by making ``/autograder/source`` (the
grader, the hidden traces, course.json with the roster's e-mails, the venv) root's alone.
The lock-down part of setup.sh runs here on a copy of that layout; then a sandbox uid tries
to read it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from grader.course.gradescope import LOCKDOWN_SH, SETUP_SH
from grader.sandbox import uids

PRIVATE = ("source/course.json", "source/grader/traces/data/scorpion/deal-1.json",
           "source/.venv/lib/site-packages/grader/traces/data/scorpion/deal-1.json")


def _as_sandbox_uid(*command: str) -> subprocess.CompletedProcess[str]:
    """``command`` as a uid of the pool (none is root's friend), leased meanwhile: no sandbox of
    another test shares it."""
    lease = uids.lease_uid()
    try:
        return subprocess.run(command, user=lease.uid, group=lease.uid, extra_groups=[],
                              capture_output=True, text=True, timeout=30)
    finally:
        lease.release()


def _layout(root):
    autograder = root / "autograder"
    for name in PRIVATE:
        path = autograder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('{"email": "alice@example.edu", "expected": "SECRET"}')
    python = autograder / "source" / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\necho 'sandbox isolation: plain (stand-in)'\n")
    for path in [autograder, *autograder.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() or path == python else 0o644)
    return autograder


def test_setup_sh_ends_with_the_lockdown():
    assert SETUP_SH.endswith(LOCKDOWN_SH)
    assert 'chmod -R go-rwx "$SOURCE"' in LOCKDOWN_SH and 'chown -R root:root "$SOURCE"' in LOCKDOWN_SH


@pytest.fixture
def open_dir():
    """A directory every uid can traverse (pytest's tmp_path is root's alone)."""
    path = Path(tempfile.mkdtemp(prefix="solitaire-lockdown-"))
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="changes owners and reads as another uid")
def test_no_sandbox_uid_reads_the_autograder_files(open_dir):
    autograder = _layout(open_dir)
    target = str(autograder / PRIVATE[0])
    assert _as_sandbox_uid("cat", target).returncode == 0  # the premise: readable before

    done = subprocess.run(["bash", "-euo", "pipefail", "-c", LOCKDOWN_SH], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "SOURCE": str(autograder / "source")}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "sandbox isolation: plain (stand-in)" in done.stdout  # the build log names the layer

    for name in PRIVATE:
        read = _as_sandbox_uid("cat", str(autograder / name))
        assert read.returncode != 0 and "SECRET" not in read.stdout, name
    listing = _as_sandbox_uid("ls", str(autograder / "source"))
    assert listing.returncode != 0 and "course.json" not in listing.stdout
    assert _as_sandbox_uid("ls", str(autograder)).returncode != 0  # /autograder: traversable, not listable
    assert all((autograder / name).stat().st_mode & 0o077 == 0 for name in PRIVATE)
