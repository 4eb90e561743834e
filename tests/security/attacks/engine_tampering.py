# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Rewrite the grader's engine copy and the repository's files on disk (the worker's memory is its own)."""
import os

import solitaire

WRITES = []
engine_dir = os.path.dirname(solitaire.__file__)
for name in ("engine.py", "protocol.py", "__init__.py"):
    try:
        with open(os.path.join(engine_dir, name), "a") as handle:
            handle.write("\n# PWNED\n")
        WRITES.append(name)
    except OSError:
        pass
for path in ("@REPO@/solitaire/engine.py", "@REPO@/reference/scorpion.py"):
    try:
        with open(path, "a") as handle:
            handle.write("\n# PWNED\n")
        WRITES.append(path)
    except OSError:
        pass
TAMPER = "TAMPER:" + (",".join(WRITES) or "readonly")


def _report(rule):
    def method(self, *args):
        raise RuntimeError(TAMPER)
    return method


patch_every_rule(_report)
