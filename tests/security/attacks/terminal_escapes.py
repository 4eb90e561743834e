# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Terminal escape codes (clear screen, cursor, window title, OSC 8 link, bell) in messages and output."""
import os
import sys

ESCAPES = ("\x1b[2J\x1b[H\x1b]0;graded: 100/100\x07\x1b[1;32mTotal: 100 / 100\x1b[0m"
           "\x1b]8;;http://example.com\x1b\\link\x1b]8;;\x1b\\\r\x08\x08\x9b31m")


def _escape(rule):
    def method(self, *args):
        sys.stdout.write(ESCAPES)
        os.write(2, ESCAPES.encode())
        raise RuntimeError(ESCAPES)
    return method


patch_every_rule(_escape)
