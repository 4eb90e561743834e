"""The worker side of ``course grade``: grade one submission in a pool process.

Kept small and free of heavy imports (no nbgrader, no SQLite): a spawned
worker imports only this module and the grader it runs. It returns its
result to the parent, which alone writes the results store and the gradebook.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..lifeline import die_with_parent
from ..suite.warm import SANDBOXES_ENV
from .graders import get as get_grader
from .results import Key


@dataclass(frozen=True)
class GradeTask:
    """One submission to grade; plain data, sent to a worker process."""

    student: str
    assignment: str
    variation: str
    sha: str
    grader_version: str
    grader: str
    submission: str
    out_dir: str
    timeout: float
    points: dict[str, float]

    @property
    def key(self) -> Key:
        return Key(self.student, self.assignment, self.sha, self.grader_version)


@dataclass(frozen=True)
class GradeOutcome:
    task: GradeTask
    results: dict[str, Any] | None
    error: str
    seconds: float


def sandboxes_per_submission(jobs: int) -> int:
    """How many zygote sandboxes each submission of a pool of ``jobs`` processes gets: one when
    the pool keeps every CPU busy with other submissions (a second, and the traces it replays
    ahead, would only add CPU there), else two (a free CPU replays the next trace meanwhile)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return 1 if jobs >= cpus else 2


def start_pool_process(parent: int, sandboxes: int) -> None:
    """The initializer of a grading pool's process: it dies with ``parent``, and its submissions
    get ``sandboxes`` zygote sandboxes each (unless ``SOLITAIRE_SUITE_SANDBOXES`` says otherwise)."""
    die_with_parent(parent)
    os.environ.setdefault(SANDBOXES_ENV, str(sandboxes))


def grade_one(task: GradeTask) -> GradeOutcome:
    """Grade one submission (runs in a worker process); never raises."""
    started = time.monotonic()
    out = Path(task.out_dir)
    try:
        if out.exists():
            shutil.rmtree(out)  # a run killed half-way may have left files
        out.mkdir(parents=True)
        grade, _ = get_grader(task.grader)
        results = grade(Path(task.submission), task.variation, out, task.timeout, points=task.points)
        return GradeOutcome(task, results, "", time.monotonic() - started)
    except Exception as error:  # noqa: BLE001 - reported per student; the class goes on
        return GradeOutcome(task, None, f"{type(error).__name__}: {error}", time.monotonic() - started)
