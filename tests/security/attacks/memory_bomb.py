# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Allocate memory without bound in every rule method."""


def _bomb(rule):
    def method(self, *args):
        hoard = []
        while True:
            hoard.append(bytearray(64 * 1024 * 1024))
    return method


patch_every_rule(_bomb)
