"""The worker sees the interpreter and its standard library only (issue 11, point 2).

The grader runs from a venv made with ``--system-site-packages`` over the very interpreter the
worker runs, with a ``.pth`` overlay that makes ``grader`` and ``reference`` importable there
(and pytest is importable too). A submission then searches everything it can see, puts every
directory it finds or can guess on ``sys.path`` and imports: it must find none of ``reference``,
``grader``, ``pytest``, nor a trace file; its command line, its namespace's pid 1 and its
environment must name no host path.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest
from security_support import ATTACKS, REPO

ATTACK = '''
import importlib, json, os, sys

GUESSES = @GUESSES@
MARKERS = @MARKERS@


def _won(self, state):
    seen, candidates = [], list(GUESSES)
    for root, dirs, files in os.walk("/"):
        if root in ("/proc", "/sys", "/dev"):
            dirs[:] = []
            continue
        for name in dirs:
            if name in ("site-packages", "dist-packages", "grader", "reference", "traces", "data"):
                candidates += [os.path.join(root, name), root]
        seen += [os.path.join(root, f) for f in files if f.endswith((".py", ".json"))
                 and any(d in root + "/" for d in ("/traces/", "/grader/", "/reference/", "/_pytest/"))]
    sys.path[:0] = candidates
    imported = []
    for name in ("reference", "reference.scorpion", "grader", "grader.traces", "pytest", "_pytest"):
        try:
            module = importlib.import_module(name)
        except BaseException:
            continue
        if getattr(module, "__file__", None):  # not an empty namespace package (any directory of that name)
            imported.append(name)
    texts = {"cmdline": open("/proc/self/cmdline", "rb").read().decode(errors="replace"),
             "pid1": open("/proc/1/cmdline", "rb").read().decode(errors="replace"),
             "environ": " ".join(k + "=" + v for k, v in os.environ.items())}
    leaks = sorted({f"{where}:{m}" for where, text in texts.items() for m in MARKERS if m in text})
    try:
        site = os.listdir(os.path.dirname(os.__file__) + "/site-packages")[:2]
    except OSError as error:
        site = type(error).__name__
    raise RuntimeError("VIEW " + json.dumps({"imported": imported, "files": seen[:2], "leaks": leaks,
                                            "site": site,
                                            "executable": sys.executable}))


Scorpion.is_won = _won
'''

DRIVER = '''
import json, sys
sys.path.insert(0, {support!r})
import grader, pytest, reference.scorpion  # the premise: all importable in the grader's Python
from security_support import DEALT
from grader.sandbox import Limits, SandboxWorker
from solitaire.protocol import WorkerError

with SandboxWorker({rules!r}, Limits(call_s=60, startup_s=20, wall_s=120, isolation={layer!r})) as worker:
    worker.load(DEALT)
    try:
        worker.won()
    except WorkerError as error:
        print("RESULT " + str(error).split("VIEW ", 1)[1])
    print("LAYER " + worker.isolation.name)
'''


def _overlay_venv(tmp_path: Path) -> Path:
    """A venv over the worker's interpreter, seeing its site-packages and, through a .pth, the project."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
                   check=True, capture_output=True)
    site = Path(subprocess.run([str(venv / "bin" / "python"), "-c",
                                "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "solitaire-overlay.pth").write_text(f"{REPO}\n")
    return venv


@pytest.mark.skipif(os.geteuid() != 0, reason="the layers drop to a sandbox uid only as root")
@pytest.mark.parametrize("layer", ["bwrap", "unshare"])
def test_a_submission_finds_neither_grader_nor_reference_nor_pytest(layer, tmp_path, isolation):
    if shutil.which(layer) is None:
        pytest.skip(f"{layer} missing")
    venv = _overlay_venv(tmp_path)
    base_site = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_prefix})["purelib"]
    venv_site = str(next((venv / "lib").glob("python*/site-packages")))
    guesses = [str(REPO), str(REPO.parent), base_site, venv_site, sys.base_prefix, sys.prefix]
    markers = [str(REPO), os.path.realpath(sys.base_prefix), str(venv), "solitaire-sandbox-", "/root",
               "/work", "/home"]
    if layer == "unshare":  # its command line names the host interpreter: only the view is checked here
        markers = [str(REPO), "solitaire-sandbox-"]
    rules = tmp_path / "submission" / "scorpion.py"
    rules.parent.mkdir()
    rules.write_text((ATTACKS / "_prelude.py").read_text() + "\n" + ATTACK
                     .replace("@GUESSES@", json.dumps(guesses)).replace("@MARKERS@", json.dumps(markers)))
    driver = textwrap.dedent(DRIVER.format(support=str(Path(__file__).parent), rules=str(rules), layer=layer))
    done = subprocess.run([str(venv / "bin" / "python"), "-c", driver], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env={**os.environ, "PYTHONPATH": ""})
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.split("RESULT ", 1)[1].splitlines()[0])
    print(f"\n{layer}: {result}")
    assert f"LAYER {layer}" in done.stdout
    assert result["imported"] == []
    assert result["files"] == []
    assert result["leaks"] == []
    # the interpreter's own site-packages is an empty tmpfs (bwrap) or an unreadable one (unshare)
    assert result["site"] == ([] if layer == "bwrap" else "PermissionError")
    if layer == "bwrap":
        assert result["executable"] == "/sandbox/python/bin/python3"
