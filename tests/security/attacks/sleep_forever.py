# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Sleep in every rule method (no CPU used, so CPU limits alone would not stop it)."""
import time


def _sleep(rule):
    def method(self, *args):
        time.sleep(3600)
    return method


patch_every_rule(_sleep)
