# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Search the process for expected values: frames, gc objects, modules, environment, /proc."""
import gc
import os
import sys

MARK = "HIDDEN" + "-TRACE-"  # the tests plant this in the trusted process (memory and environment)


def planted(value):
    return isinstance(value, str) and MARK in value and value != MARK


def search():
    found = []
    frame = sys._getframe()
    while frame is not None:
        for name, value in list(frame.f_locals.items()):
            if planted(value):
                found.append("frame:" + name)
            if name in ("expected", "expect", "trace", "traces", "check"):
                found.append("frame-name:" + name)
        frame = frame.f_back
    for obj in gc.get_objects():
        if isinstance(obj, dict):
            for value in list(obj.values())[:50]:
                if planted(value):
                    found.append("gc")
                    break
    for name in list(sys.modules):
        if name.startswith(("grader", "reference", "pytest", "_pytest")):
            found.append("module:" + name)
    for key, value in os.environ.items():
        if planted(value) or planted(key):
            found.append("env:" + key)
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        for part in ("environ", "cmdline"):
            try:
                with open(f"/proc/{pid}/{part}", "rb") as handle:
                    data = handle.read()
            except OSError:
                continue
            if any((MARK + digit).encode() in data for digit in "0123456789abcdef") or b"pytest" in data:
                found.append(f"proc:{pid}/{part}")
    return found


def _report(rule):
    def method(self, *args):
        found = search()
        raise RuntimeError("INTRO:" + (",".join(sorted(set(found))) if found else "none"))
    return method


patch_every_rule(_report)
