"""Fixtures of the security tests."""

import logging

import pytest

from grader.sandbox import Limits, choose_isolation


@pytest.fixture(scope="session")
def isolation():
    """The layer the sandbox picks here (probed once), logged at INFO.

    The attacks are real (kill -1, fork storms, memory bombs): without root and without namespaces the
    worker would run as the developer's own user and could harm the machine, so they are skipped there.
    """
    logging.getLogger("grader.sandbox").setLevel(logging.INFO)
    chosen = choose_isolation("auto")
    if chosen.name == "plain" and not chosen.as_root:
        pytest.skip("no namespaces and no root: attacks would run as your own user (install bubblewrap)")
    return chosen


@pytest.fixture
def attack_limits():
    """Small limits: every attack must end well within seconds."""
    return Limits(call_s=1.0, startup_s=5.0, wall_s=4.0, cpu_s=5, memory_bytes=512 * 1024 * 1024,
                  processes=24, output_bytes=16 * 1024)
