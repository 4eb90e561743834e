# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Import the instructor's reference and the grader, by name and by adding the repository to sys.path."""
import importlib
import sys

GOT = []
for name in ("reference.scorpion", "reference", "grader", "grader.sandbox", "grader.suite"):
    try:
        importlib.import_module(name)
        GOT.append(name)
    except BaseException:  # noqa: BLE001
        pass
sys.path.insert(0, "@REPO@")
for name in ("reference.scorpion", "grader"):
    try:
        sys.modules.pop(name, None)
        module = importlib.import_module(name)
        GOT.append(name + "@" + str(getattr(module, "__file__", "")))
    except BaseException:  # noqa: BLE001
        pass
REPORT = "IMPORT:" + (",".join(GOT) if GOT else "none")


def _copy(rule):
    def method(self, *args):
        module = sys.modules.get("reference.scorpion")
        if module is not None:  # answer with the instructor's code
            return getattr(module.Scorpion, rule)(self, *args)
        raise RuntimeError(REPORT)
    return method


patch_every_rule(_copy)
