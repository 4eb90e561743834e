"""Fault injection for the fault tests (tests/faults): a real ``kill -9`` at a chosen moment.

``SOLITAIRE_FAULT=<point>`` in the environment makes the process that reaches
:func:`checkpoint` ``(point)`` send itself SIGKILL there: no cleanup, no
``finally``, exactly as an operator's ``kill -9`` or a power cut at that
moment. Unset (always, outside the tests) it does nothing.

Points: ``stored`` (``course grade``: a result committed to the results
store, its feedback not yet published).
"""

from __future__ import annotations

import os
import signal

ENV = "SOLITAIRE_FAULT"


def checkpoint(point: str) -> None:
    """SIGKILL this process when ``SOLITAIRE_FAULT`` names ``point``."""
    if os.environ.get(ENV) == point:
        os.kill(os.getpid(), signal.SIGKILL)
