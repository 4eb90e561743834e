"""scripts/setup.sh (issue 17 item 9): no setuptools warning box, one line per step.

The script runs here on a scratch tree whose ``.venv/bin/python`` is a fake
that prints what pip and setuptools print (a warning box) or fails: the real
install is not redone by the tests.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETUP = ROOT / "scripts" / "setup.sh"
NOISE = """WARNING: Location 'file:///somewhere/' is ignored
  !!
          ********************************************************************************
          Please be careful with folders in your working directory
          ********************************************************************************
"""
pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("git", "bwrap", "redis-server", "sha1sum"))
    or not Path("/usr/bin/chromium").is_file(),
    reason="the system packages are not all installed: setup.sh would try apt-get",
)


def test_license_is_an_spdx_string_for_setuptools_77():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"  # the table form prints a deprecation box
    assert "setuptools>=77" in project["build-system"]["requires"]  # the first to read the string


def scratch(tmp_path: Path, python: str, stamped: bool) -> Path:
    """A tree with setup.sh, pyproject.toml and a fake .venv/bin/python running ``python``."""
    (tmp_path / "scripts").mkdir()
    shutil.copyfile(SETUP, tmp_path / "scripts" / "setup.sh")
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text("#!/bin/sh\n" + python)
    (bin_dir / "python").chmod(0o755)
    if stamped:
        digest = hashlib.sha1((tmp_path / "pyproject.toml").read_bytes()).hexdigest()[:12]
        (tmp_path / ".venv" / f".installed-{digest}").touch()
    return tmp_path


def setup(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHON"}
    return subprocess.run(["bash", str(tree / "scripts" / "setup.sh")], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=60)


def test_an_installed_tree_prints_three_step_lines(tmp_path):
    result = setup(scratch(tmp_path, "exit 0\n", stamped=True))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "setup: [1/3] system packages (git, bubblewrap, redis-server, chromium) ... already installed",
        "setup: [2/3] virtual environment .venv ... already there",
        "setup: [3/3] Python packages in .venv ... up to date",
    ]


def test_pip_noise_is_kept_in_a_log_not_printed(tmp_path):
    tree = scratch(tmp_path, f"cat <<'EOF' >&2\n{NOISE}EOF\nexit 0\n", stamped=False)
    result = setup(tree)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 3 and "*****" not in result.stderr and "WARNING" not in result.stderr
    assert lines[2].startswith("setup: [3/3] pip install the project and its dependencies into .venv "
                               "(a minute or two the first time) ... done")
    assert "Please be careful" in (tree / ".venv" / "setup-pip.log").read_text()
    assert list((tree / ".venv").glob(".installed-*"))  # stamped: the next run says "up to date"


def test_a_failing_pip_shows_its_log_and_stops(tmp_path):
    result = setup(scratch(tmp_path, "echo 'ERROR: no matching distribution for nbgrader' >&2\nexit 1\n",
                           stamped=False))
    assert result.returncode == 1
    # the step's time follows when it took a second or more (a loaded machine)
    assert re.search(r"\.\.\. FAILED( \(\d+ s\))?\n", result.stderr), result.stderr
    assert "ERROR: no matching distribution for nbgrader" in result.stderr
    assert not list((tmp_path / ".venv").glob(".installed-*"))
