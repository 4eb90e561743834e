"""setup.sh of the Gradescope zip on the Ubuntu releases Gradescope builds on.

* Fast: the interpreter choice of setup.sh, run by bash against stand-in
  interpreters on ``PATH``: a Python 3.11+ without its ``venv`` module (Ubuntu
  24.04's ``python3``) gets its ``python3.X-venv`` package; an old ``python3``
  alone (Ubuntu 22.04's 3.10) gets ``python3.11`` and ``python3.11-venv``.
* Slow (root and the Ubuntu archive needed): the whole zip in debootstrapped
  Ubuntu 22.04 and 24.04 roots, ``scripts/gradescope_chroot_check.py``:
  setup.sh as Gradescope's image build runs it, then run_autograder on a
  sample submission, checking results.json.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from grader.course.gradescope import SETUP_SH

ROOT = Path(__file__).resolve().parents[2]
#: setup.sh up to its apt step: the interpreter choice and the list of what is missing
CHOICE = 'PYTHON=""' + SETUP_SH.split('\nPYTHON=""', 1)[1].split("command -v git", 1)[0]


def choose(bin_dir: Path) -> tuple[str, str]:
    """(the PYTHON setup.sh picks, the apt packages it asks for) with only ``bin_dir`` on PATH."""
    script = "set -eu\n" + CHOICE + 'echo "$PYTHON"\necho "${missing[*]:-}"\n'
    done = subprocess.run(["/bin/bash", "-c", script], env={"PATH": str(bin_dir)}, capture_output=True,
                          text=True, check=True)
    python, packages = done.stdout.splitlines()
    return python, packages


def test_a_python_without_venv_gets_its_venv_package(tmp_path: Path) -> None:
    """Ubuntu 24.04: python3 is 3.12 but ``venv``/``ensurepip`` are in python3.12-venv."""
    blocker = tmp_path / "site"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text("import sys\nsys.modules['ensurepip'] = None\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "python3"
    wrapper.write_text(f"#!/bin/sh\nPYTHONPATH={blocker} exec {sys.executable} \"$@\"\n")
    wrapper.chmod(0o755)
    python, packages = choose(bin_dir)
    assert python == "python3"
    assert packages == f"python{sys.version_info[0]}.{sys.version_info[1]}-venv"


def test_an_old_python3_alone_gets_python_3_11(tmp_path: Path) -> None:
    """Ubuntu 22.04: python3 is 3.10; python3.11 comes from jammy-updates (universe)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    old = bin_dir / "python3"
    old.write_text("#!/bin/sh\nexit 1\n")  # answers no to "3.11 or newer?"
    old.chmod(0o755)
    assert choose(bin_dir) == ("python3.11", "python3.11 python3.11-venv")


def test_a_complete_python_needs_no_package(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    if subprocess.run([sys.executable, "-c", "import venv, ensurepip"], capture_output=True).returncode:
        pytest.skip("this Python has no ensurepip (a Debian python3 without python3-venv)")
    assert choose(bin_dir) == ("python3", "")


def _chroot_check_unavailable() -> str | None:
    if sys.platform != "linux" or os.geteuid() != 0:
        return "needs root on Linux (debootstrap, mounts, pivot_root)"
    if not shutil.which("unshare"):
        return "needs unshare (util-linux)"
    if not shutil.which("debootstrap") and not shutil.which("apt-get"):
        return "needs debootstrap, or apt-get to install it"
    try:
        urllib.request.urlopen("http://archive.ubuntu.com/ubuntu/dists/jammy/Release", timeout=10).close()
    except OSError as error:
        return f"the Ubuntu archive is not reachable ({error})"
    return None


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_the_zip_builds_and_grades_on_ubuntu_22_04_and_24_04() -> None:
    """Minutes: a debootstrap per release the first time (kept in $SOLITAIRE_UBUNTU_ROOTS, default
    /var/tmp/solitaire-roots), then setup.sh and two submissions in each."""
    why = _chroot_check_unavailable()
    if why:
        pytest.skip(why)
    roots = os.environ.get("SOLITAIRE_UBUNTU_ROOTS", "/var/tmp/solitaire-roots")
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "gradescope_chroot_check.py"),
                           "--roots", roots], capture_output=True, text=True, timeout=3500)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Ubuntu 22.04 (jammy): passed" in done.stdout and "Ubuntu 24.04 (noble): passed" in done.stdout
