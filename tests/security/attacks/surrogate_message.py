# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Exceptions and answers holding lone surrogates (once crashed feedback writing); undecodable output."""
import os


class Surrogate(Exception):  # (a class name cannot hold a surrogate: the message does)
    pass


def _surrogate(rule):
    def method(self, *args):
        if rule == "special_moves":
            return ["t1>t2\udc80", "\udcff"]
        raise Surrogate(f"SURROGATE:{rule} \udc80 \ud800 undecodable")
    return method


os.write(1, b"printed at import: \xff\xfe\xed\xa0\x80 (undecodable)\n")
patch_every_rule(_surrogate)
