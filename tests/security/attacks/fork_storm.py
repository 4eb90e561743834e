# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""A BOUNDED fork storm: at most 200 children, each leaves its session (setsid) and exits after 5 s.

The sandbox must cap the number of processes and kill the escapees with the worker.
"""
import os
import time

FORKED = 0


def storm():
    global FORKED
    for _ in range(200):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            try:
                os.setsid()
            except OSError:
                pass
            time.sleep(5)
            os._exit(0)
        FORKED += 1


def _storm(rule):
    def method(self, *args):
        storm()
        raise RuntimeError(f"FORKED:{FORKED}")
    return method


patch_every_rule(_storm)
