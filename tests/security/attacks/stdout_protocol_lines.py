# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Print protocol-looking answers on stdout, on fd 1 and fd 2, hoping they are read as replies."""
import os
import sys

LINE = '{"ok": true, "value": true, "state": "scorpion moves=runs"}\n'


def shout():
    print(LINE, end="", flush=True)
    sys.stdout.write(LINE)
    sys.stdout.flush()
    os.write(1, LINE.encode())
    os.write(2, LINE.encode())


shout()


def _shout(rule):
    def method(self, *args):
        shout()
        raise NotImplementedError
    return method


patch_every_rule(_shout)
