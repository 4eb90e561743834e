# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Flood stdout and stderr with megabytes at import and in every rule method."""
import os
import sys

CHUNK = "x" * 1024 * 1024

for _ in range(8):
    sys.stdout.write(CHUNK)
sys.stdout.flush()


def _flood(rule):
    def method(self, *args):
        for _ in range(64):
            os.write(1, CHUNK.encode())
            os.write(2, CHUNK.encode())
        raise NotImplementedError
    return method


patch_every_rule(_flood)
