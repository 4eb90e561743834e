"""Fixtures of the starter tests: one generated student repo per variation."""

from __future__ import annotations

from pathlib import Path

import pytest
from starter_support import PRESENT

from grader.starter.build import STARTER_DIR
from grader.starter.repo import make_repo


@pytest.fixture(scope="session")
def repos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One generated student repo per variation, made once per test session."""
    made: dict[str, Path] = {}
    for name in PRESENT:
        if (STARTER_DIR / f"{name}.py").is_file():
            dest = tmp_path_factory.mktemp(f"repo-{name}")
            make_repo(name, dest)
            made[name] = dest
    return made
