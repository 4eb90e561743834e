# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Raise SystemExit(0) at import, hoping the grader treats it as a normal end."""
raise SystemExit(0)
