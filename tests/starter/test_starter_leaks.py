"""No solution text, reference import or hidden trace reaches starter/ or a student repo."""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path

import pytest
from starter_support import PRESENT, reference_file, variation_params

import grader
from grader.starter.build import BEGIN_SOLUTION, END_SOLUTION, STARTER_DIR
from grader.starter.repo import ENGINE_DIR

MIN_LENGTH = 8  # shorter lines ("else:", "break") say nothing about a solution
GRADER_DIR = Path(grader.__file__).resolve().parent


def _split(source: str) -> tuple[list[str], list[str]]:
    """(lines inside solution regions, lines outside), stripped."""
    inside, outside, in_region = [], [], False
    for line in source.splitlines():
        if BEGIN_SOLUTION in line:
            in_region = True
        elif END_SOLUTION in line:
            in_region = False
        else:
            (inside if in_region else outside).append(line.strip())
    return inside, outside


@cache
def solution_lines() -> dict[str, str]:
    """Distinctive solution lines of every reference module, each with the variation it comes from.

    A line also found outside the regions (in any reference module) or in the
    engine, which students receive anyway, is not distinctive.
    """
    public: set[str] = set()
    regions: dict[str, str] = {}
    for name in PRESENT:
        inside, outside = _split(reference_file(name).read_text(encoding="utf-8"))
        public.update(outside)
        for line in inside:
            regions.setdefault(line, name)
    for path in ENGINE_DIR.rglob("*.py"):
        public.update(line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return {
        line: name for line, name in regions.items()
        if len(line) >= MIN_LENGTH and line not in public and not line.startswith("#")
    }


def _text_files(root: Path) -> list[Path]:
    return [p for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts]


def _leaks(paths: list[Path]) -> list[str]:
    secret = solution_lines()
    found = []
    for path in paths:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(lines, start=1):
            if line.strip() in secret:
                found.append(f"{path}:{number}: {line.strip()!r} (solution of {secret[line.strip()]})")
    return found


def test_the_solution_lines_are_a_real_sample() -> None:
    """Every reference contributes distinctive lines (a line shared by two references, such as
    Peek's and Osmosis's, is credited to the first in the sample but counts for both here)."""
    secret = solution_lines()
    by_variation = {}
    for name in PRESENT:
        inside, _ = _split(reference_file(name).read_text(encoding="utf-8"))
        by_variation[name] = sum(line in secret for line in set(inside))
    assert all(count >= 3 for count in by_variation.values()), by_variation


def test_no_solution_line_in_starter() -> None:
    files = [p for p in _text_files(STARTER_DIR) if "traces" not in p.relative_to(STARTER_DIR).parts]
    assert files, "starter/ is empty: run `solitaire starter build`"
    assert _leaks(files) == []


@pytest.mark.parametrize("name", variation_params())
def test_no_solution_line_in_student_repo(name: str, repos: dict[str, Path]) -> None:
    assert _leaks(_text_files(repos[name])) == []


def test_the_leak_check_finds_a_pasted_solution(repos: dict[str, Path], tmp_path: Path) -> None:
    line, name = next(iter(solution_lines().items()))
    pasted = tmp_path / "copy.py"
    pasted.write_text(f"x = 1\n        {line}\n")
    assert _leaks([pasted]) == [f"{pasted}:2: {line!r} (solution of {name})"]


def _imported_packages(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("name", variation_params())
def test_student_repo_imports_neither_reference_nor_grader(name: str, repos: dict[str, Path]) -> None:
    offenders = {
        str(path.relative_to(repos[name])): sorted(_imported_packages(path) & {"reference", "grader"})
        for path in repos[name].rglob("*.py")
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", variation_params())
def test_no_grader_file_or_hidden_trace_in_student_repo(name: str, repos: dict[str, Path]) -> None:
    """No file of grader/ (hidden traces included) is copied into a repo, under any name.

    The starter templates are meant to be rendered into repos, so they do not count.
    """
    templates = GRADER_DIR / "starter" / "templates"
    grader_files = {
        _digest(p): p for p in _text_files(GRADER_DIR)
        if p.stat().st_size > 0 and templates not in p.parents
    }
    copied = [
        f"{p.relative_to(repos[name])} = {grader_files[_digest(p)]}"
        for p in _text_files(repos[name]) if p.stat().st_size > 0 and _digest(p) in grader_files
    ]
    assert copied == []
    assert not any("hidden" in part for p in _text_files(repos[name]) for part in p.parts[-3:])
