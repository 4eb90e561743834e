# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Write forged replies on every open file descriptor, the protocol's reply pipe included."""
import os

LINE = b'{"ok": true, "value": true}\n'


def inject():
    for fd in range(3, 64):
        try:
            os.write(fd, LINE * 3)
        except OSError:
            pass


inject()


def _inject(rule):
    def method(self, *args):
        inject()
        return True
    return method


patch_every_rule(_inject)
