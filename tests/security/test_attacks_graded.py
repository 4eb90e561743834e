"""Every attack graded for real: the hidden suite (a pytest subprocess) against the sandboxed submission.

Each attack is graded on a small subset of the hidden traces (all eight rule
categories, 46 checks) to keep the run short; the correct submission is graded
on the whole hidden suite. Limits come from the environment, as for
``solitaire grade`` (``SOLITAIRE_SANDBOX_*``, see grader/sandbox/limits.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from security_support import ATTACK_NAMES, REPO, SECRET, Guard, compose, reference_copy

grade = pytest.importorskip("grader.grade")

HIDDEN = REPO / "grader" / "traces" / "data" / "scorpion"
SMALL_SET = ("deal-default-3.json", "near-won-1.json")  # every category, few checks
LIMITS_ENV = {"SOLITAIRE_SANDBOX_CALL_S": "1", "SOLITAIRE_SANDBOX_WALL_S": "4",
              "SOLITAIRE_SANDBOX_STARTUP_S": "5", "SOLITAIRE_SANDBOX_CPU_S": "5",
              "SOLITAIRE_SANDBOX_MEMORY_BYTES": str(512 * 1024 * 1024), "SOLITAIRE_SANDBOX_PROCESSES": "24"}
SUITE_OVERHEAD_S = 15.0  # pytest start-up and the replay itself, on a loaded machine
GRADER_FILES = {"results.json", "feedback.md", "feedback.html", "feedback.json"}
# Text that would show a leak if an attack's own error message carried it into the feedback. (An attack's
# messages may name files it wrote: those went to its private /tmp; the Guard checks the real ones.)
LEAK_MARKS = ("BEGIN SOLUTION", "LEAK:/", "IMPORT:reference", "IMPORT:grader", "INTRO:gc", "INTRO:frame",
              "INTRO:env", "INTRO:proc", '"steps"', "PYTEST:patched", "TAMPER:/", "NET:1", "NET:8")
RULE_METHODS = {"deal", "can_pick_up", "tableau_accepts", "space_accepts", "special_moves", "apply_special",
                "after_move", "is_won"}
PARALLEL = 3  # attacks graded at once (most of their time is spent waiting on deadlines)


@pytest.fixture(scope="module")
def small_traces(tmp_path_factory):
    if not all((HIDDEN / name).is_file() for name in SMALL_SET):
        pytest.skip("the hidden scorpion traces are not built")
    directory = tmp_path_factory.mktemp("traces")
    for name in SMALL_SET:
        shutil.copy(HIDDEN / name, directory / name)
    return directory


@pytest.fixture
def sandbox_env(monkeypatch):
    for key, value in LIMITS_ENV.items():
        monkeypatch.setenv(key, value)


def _check_outcome(out: Path, results: dict, guard: Guard, elapsed: float, limit: float) -> str:
    assert sorted(p.name for p in out.iterdir()) == sorted(GRADER_FILES)  # no grader-error.log either
    on_disk = json.loads((out / "results.json").read_text())
    assert on_disk == results and "internal_error" not in json.dumps(results)
    # The grader's own results: every rule method scored, 100 points in all (grader/rubric.py).
    assert {test["tags"][0] for test in results["tests"]} == RULE_METHODS
    assert sum(test["max_score"] for test in results["tests"]) == 100
    text = "".join((out / name).read_text() for name in sorted(GRADER_FILES))
    assert SECRET not in text
    for mark in LEAK_MARKS:
        assert mark not in text, mark
    assert guard.changes() == []
    assert elapsed <= limit, elapsed
    return text


@dataclass
class Graded:
    out: Path
    results: dict | None
    elapsed: float
    error: str = ""


@pytest.fixture(scope="module")
def graded_attacks(tmp_path_factory, small_traces, isolation):
    """Every attack graded once, PARALLEL at a time; the tests below check one each."""
    root = tmp_path_factory.mktemp("graded")
    watched = Guard(REPO / "reference", HIDDEN)

    def one(attack: str) -> Graded:
        submission, out = root / attack / "submission", root / attack / "out"
        compose(attack, submission, out=out)
        started = time.monotonic()
        try:
            results = grade.grade_submission(submission, "scorpion", out, traces_dir=small_traces)
        except Exception as error:  # noqa: BLE001 - reported by the attack's own test
            return Graded(out, None, time.monotonic() - started, f"{type(error).__name__}: {error}")
        return Graded(out, results, time.monotonic() - started)

    with pytest.MonkeyPatch.context() as patch:
        for key, value in LIMITS_ENV.items():
            patch.setenv(key, value)
        with ThreadPoolExecutor(PARALLEL) as pool:
            graded = dict(zip(ATTACK_NAMES, pool.map(one, ATTACK_NAMES), strict=True))
    return graded, watched


@pytest.mark.parametrize("attack", ATTACK_NAMES)
def test_attack_scores_zero(attack, graded_attacks):
    graded, guard = graded_attacks
    result = graded[attack]
    assert result.results is not None, result.error  # the grading process did not break
    assert result.results["score"] == 0, [(t["name"], t["score"]) for t in result.results["tests"]]
    limit = float(LIMITS_ENV["SOLITAIRE_SANDBOX_WALL_S"]) + SUITE_OVERHEAD_S * PARALLEL
    _check_outcome(result.out, result.results, guard, result.elapsed, limit)


def _cli_grade(submission: Path, out: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "solitaire", "grade", str(submission), "--variation", "scorpion",
               "--out", str(out)]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=submission.parent)


def _cli_has_grade() -> bool:
    probe = subprocess.run([sys.executable, "-m", "solitaire", "grade", "--help"], capture_output=True,
                           text=True, timeout=120)
    return probe.returncode == 0


def test_correct_submission_gets_full_marks_through_solitaire_grade(tmp_path, isolation):
    if not HIDDEN.is_dir():
        pytest.skip("the hidden scorpion traces are not built")
    submission, out = tmp_path / "submission", tmp_path / "out"
    reference_copy(submission)
    guard = Guard(submission, REPO / "reference", HIDDEN)
    started = time.monotonic()
    if _cli_has_grade():
        finished = _cli_grade(submission, out)
        assert finished.returncode == 0, finished.stderr[-2000:]
        results = json.loads((out / "results.json").read_text())
    else:  # the command is not wired yet: the same function it calls
        results = grade.grade_submission(submission, "scorpion", out)
    elapsed = time.monotonic() - started
    assert results["score"] == 100, [(t["name"], t["score"]) for t in results["tests"]]
    assert all(t["score"] == t["max_score"] for t in results["tests"])
    _check_outcome(out, results, guard, elapsed, 300)


@pytest.mark.parametrize("attack", ["forge_results", "kill_parent", "os_exit_at_import"])
def test_attack_through_the_command_line(attack, tmp_path, sandbox_env, isolation):
    """The whole command: exit status, results.json in --out, nothing else touched."""
    if not _cli_has_grade():
        pytest.skip("`solitaire grade` is not wired into the CLI yet")
    submission, out = tmp_path / "submission", tmp_path / "out"
    compose(attack, submission, out=out)
    guard = Guard(submission, REPO / "reference", HIDDEN)
    started = time.monotonic()
    finished = _cli_grade(submission, out)
    elapsed = time.monotonic() - started
    assert finished.returncode == 0, finished.stderr[-2000:]
    results = json.loads((out / "results.json").read_text())
    assert results["score"] == 0
    _check_outcome(out, results, guard, elapsed, 600)
