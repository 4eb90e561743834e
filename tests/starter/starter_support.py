"""Helpers of the starter tests (the fixtures are in conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import reference
from grader.starter.build import REFERENCE_DIR, available_references

PRESENT, MISSING = available_references()


def variation_params() -> list[object]:
    """Every name of reference.VARIATIONS; those without a reference module yet are skipped."""
    return [
        pytest.param(name, marks=pytest.mark.skip(reason=f"reference/{name}.py does not exist yet"))
        if name in MISSING else name
        for name in reference.VARIATIONS
    ]


def clean_env() -> dict[str, str]:
    """The environment for a process in a student repo: nothing points into this project."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST", "SOLITAIRE_"))}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def reference_file(name: str) -> Path:
    return REFERENCE_DIR / f"{name}.py"
