# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Ignore SIGALRM, SIGTERM, SIGINT, SIGXCPU and SIGHUP, then loop forever: only SIGKILL stops this."""
import signal

for number in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT, signal.SIGXCPU, signal.SIGHUP, signal.SIGUSR1):
    signal.signal(number, signal.SIG_IGN)


def _loop(rule):
    def method(self, *args):
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            try:
                pass
            except BaseException:  # noqa: BLE001 - swallow anything a timeout might raise
                continue
    return method


patch_every_rule(_loop)
