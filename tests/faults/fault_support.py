"""Helpers of the fault tests shared by their modules (a module of its own: ``conftest`` is a
name tests/workflow uses too, so ``from conftest import ...`` picks whichever was loaded first)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def cli_env(**extra: str) -> dict[str, str]:
    """The environment of a ``solitaire`` subprocess: this checkout (and tests/faults) first."""
    path = os.pathsep.join([str(ROOT), str(HERE), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path, **extra)


def solitaire(*args: str, env: dict[str, str] | None = None, timeout: float = 300
              ) -> subprocess.CompletedProcess[str]:
    """Run ``python -m solitaire ARGS`` to completion."""
    return subprocess.run([sys.executable, "-m", "solitaire", *args], env=env or cli_env(),
                          capture_output=True, text=True, timeout=timeout)
