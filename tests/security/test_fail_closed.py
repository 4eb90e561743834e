"""Grading fails closed without a strong sandbox layer (issue 11, point 3).

``SOLITAIRE_SANDBOX_ISOLATION=plain`` forces the weak layer, as on a machine where neither
bwrap nor unshare can make namespaces (a Docker container with the default profile):
``solitaire grade`` and ``solitaire course grade`` then refuse with one line and status 2,
unless the instructor passes ``--allow-weak-sandbox``; the layer in use is on the
instructor's console and on the factory (``SandboxFactory.layer``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from security_support import DEALT, reference_copy

from grader.sandbox import Limits, WeakSandboxRefused, sandbox_factory

WEAK = {"SOLITAIRE_SANDBOX_ISOLATION": "plain"}


def _solitaire(*args: str, env: dict[str, str], cwd) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SOLITAIRE_SANDBOX_")}
    return subprocess.run([sys.executable, "-m", "solitaire", *args], capture_output=True, text=True,
                          timeout=900, cwd=cwd, env={**environ, **env})


def _refused(done: subprocess.CompletedProcess[str]) -> None:
    """Status 2 and one error line (after the layer's own warnings, which say what it would expose)."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and [line for line in lines if "error" in line] == lines[-1:]
    assert lines[-1].startswith(
        "solitaire: error: refusing to run student code: only the 'plain' sandbox layer works here")
    assert "--allow-weak-sandbox" in lines[-1]
    assert "sandbox layer:" not in done.stderr  # nothing was graded


def test_solitaire_grade_refuses_the_weak_layer_without_the_flag(tmp_path):
    submission = reference_copy(tmp_path / "alice").parent
    out = tmp_path / "out"
    _refused(_solitaire("grade", str(submission), "--variation", "scorpion", "--out", str(out),
                        env=WEAK, cwd=tmp_path))
    assert not (out / "results.json").exists()


def test_course_grade_refuses_the_weak_layer_without_the_flag(tmp_path):
    """In a real course (a mistyped folder is said first, without probing the sandbox)."""
    course = tmp_path / "course"
    init = _solitaire("course", "init", str(course), "--deadline", "2030-03-14T23:59Z", env={}, cwd=tmp_path)
    assert init.returncode == 0, init.stderr
    _refused(_solitaire("course", "grade", str(course), env=WEAK, cwd=tmp_path))


@pytest.mark.skipif(os.geteuid() != 0, reason="the weak layer runs hostile code safely only as root")
def test_with_the_flag_solitaire_grade_grades_and_names_the_layer(tmp_path):
    submission = reference_copy(tmp_path / "alice").parent
    out = tmp_path / "out"
    done = _solitaire("grade", str(submission), "--variation", "scorpion", "--out", str(out),
                      "--allow-weak-sandbox", env=WEAK, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert ("solitaire: sandbox layer: plain (WEAK, allowed by --allow-weak-sandbox: NO namespaces"
            in done.stderr)
    results = json.loads((out / "results.json").read_text())
    assert results["score"] == sum(t["max_score"] for t in results["tests"]) > 0


def test_the_factory_refuses_the_weak_layer_and_records_the_layer(tmp_path):
    rules = reference_copy(tmp_path / "alice")
    with pytest.raises(WeakSandboxRefused, match="only the 'plain' sandbox layer works here"):
        sandbox_factory(rules, Limits(isolation="plain"))
    layers = ["plain"] + [name for name in ("unshare", "bwrap") if shutil.which(name)]
    for layer in layers if os.geteuid() == 0 else []:
        with sandbox_factory(rules, Limits(isolation=layer, allow_weak=layer == "plain")) as factory:
            assert factory.layer == layer and factory.isolation.strong == (layer != "plain")
            with factory() as worker:
                worker.load(DEALT)
                assert worker.isolation.name == layer and worker.state() == DEALT


def test_the_flag_reaches_grading_processes_through_the_environment():
    assert Limits.from_env(environ={"SOLITAIRE_SANDBOX_ALLOW_WEAK": "1"}).allow_weak is True
    assert Limits.from_env(environ={"SOLITAIRE_SANDBOX_ALLOW_WEAK": "0"}).allow_weak is False
    assert Limits.from_env(environ={}).allow_weak is False
    with pytest.raises(ValueError):
        Limits.from_env(environ={"SOLITAIRE_SANDBOX_ALLOW_WEAK": "perhaps"})
