# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Loop forever in every rule method."""


def _loop(rule):
    def method(self, *args):
        while True:
            pass
    return method


patch_every_rule(_loop)
