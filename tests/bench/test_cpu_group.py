"""The benches' CPU counter counts processes nobody waits for (a sandbox's are such)."""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from cpu_group import CpuCounter  # noqa: E402

SPIN = "import time\nwhile time.process_time() < 0.4:\n    pass\n"


def test_an_orphan_that_nobody_waits_for_is_counted() -> None:
    counter = CpuCounter()
    try:
        if not counter.complete:
            pytest.skip("no cgroup of our own here (not root): the counter falls back to getrusage")
        before = counter.seconds()
        # a grandchild that spins until it has used 0.4 s of CPU (not of wall time: the other test
        # worker may share the CPU); its parent exits at once, so it is reparented and never waited
        # for by this process (as a sandbox's zygote and children are not)
        spin = f"{shlex.quote(sys.executable)} -c {shlex.quote(SPIN)}"
        subprocess.run(["sh", "-c", f"({spin} &) ; exit 0"], check=True)
        deadline = time.monotonic() + 10
        while counter.seconds() - before < 0.3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert counter.seconds() - before >= 0.3
    finally:
        counter.close()
