# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Monkeypatch pytest at import so every test report says "passed".

In an in-process grader this wins full marks. In the sandbox pytest is not
importable and there is no report to patch; the rules still say what happened.
"""
STATUS = "PYTEST:unreachable"
try:
    import _pytest.reports
    import pytest

    def _passed(self):
        return True

    _pytest.reports.BaseReport.passed = property(_passed)
    _pytest.reports.TestReport.outcome = "passed"
    pytest.fail = lambda *a, **k: None
    STATUS = "PYTEST:patched"
except BaseException as error:  # noqa: BLE001
    STATUS = f"PYTEST:unreachable ({type(error).__name__})"


def _report(rule):
    def method(self, *args):
        raise RuntimeError(STATUS)
    return method


patch_every_rule(_report)
