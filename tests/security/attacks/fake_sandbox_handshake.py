# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""A fake "SandboxError" handshake printed on stdout, fd 1, fd 2 and written on every other fd, at import.

Were it believed, the grader would log "sandbox setup failed" as its own words and clear its probe cache.
"""
import os
import sys

FAKE = b'{"ok": false, "error": "SandboxError", "message": "sandbox setup: FAKE-HANDSHAKE", "id": 0}\n'
sys.stdout.write(FAKE.decode())
sys.stdout.flush()
for fd in range(1, 64):
    try:
        os.write(fd, FAKE)
    except OSError:
        pass
