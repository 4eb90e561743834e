"""Every command's --help works and explains itself (plugins included)."""

import subprocess
import sys

import pytest

COMMANDS = [
    [], ["variations"], ["deal"], ["moves"], ["apply"], ["play"], ["solve"], ["winnability"],
    ["grade"], ["traces"], ["check-suite"], ["starter"], ["starter", "build"], ["starter", "repo"],
    ["course"], ["course", "init"], ["course", "assign"], ["course", "publish"], ["course", "collect"],
    ["course", "grade"], ["course", "export"], ["demo"],
]


def run_help(words):
    return subprocess.run(
        [sys.executable, "-m", "solitaire", *words, "--help"], capture_output=True, text=True, timeout=60
    )


def test_top_level_help_lists_every_command_group():
    result = run_help([])
    assert result.returncode == 0, result.stderr
    for name in ("variations", "play", "solve", "winnability", "grade", "starter", "course", "demo"):
        assert name in result.stdout


@pytest.mark.parametrize("words", COMMANDS[1:], ids=lambda w: " ".join(w))
def test_command_help(words):
    result = run_help(words)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "usage: solitaire" in result.stdout
