# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Exit at import with os._exit(0): a clean exit status must not read as success."""
import os

os._exit(0)
