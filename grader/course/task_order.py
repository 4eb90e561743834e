"""The order a class is graded in: the submissions expected to take longest first.

With a pool of J processes the run ends when the last grade ends: a slow
grade started last leaves the other processes idle meanwhile. A rules file
still full of stubs (``raise NotImplementedError``: the untouched starter, a
cheat built on it, a partial solution) fails every check it stubs, and each
failure is followed by a resync, so it takes about twice as long as a correct
one; so those go first, most stubs first, then the variations with more
hidden traces. The order changes no grade (each is graded alone), only when
each finishes.
"""

from __future__ import annotations

from pathlib import Path

from ..traces.build import HIDDEN_ROOT
from .worker import GradeTask

STUB = "raise NotImplementedError"


def _stubs(task: GradeTask) -> int:
    try:
        return (Path(task.submission) / f"{task.variation}.py").read_text(encoding="utf-8",
                                                                          errors="replace").count(STUB)
    except OSError:
        return 0  # missing or unreadable: graded at once (and fast)


def longest_first(tasks: list[GradeTask]) -> list[GradeTask]:
    """``tasks`` sorted by expected grading time, longest first (stable among equals)."""
    traces: dict[str, int] = {}

    def traces_of(variation: str) -> int:
        if variation not in traces:
            directory = HIDDEN_ROOT / variation
            traces[variation] = len(list(directory.glob("*.json"))) if directory.is_dir() else 0
        return traces[variation]

    return sorted(tasks, key=lambda task: (-_stubs(task), -traces_of(task.variation)))
