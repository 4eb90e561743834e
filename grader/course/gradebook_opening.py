"""The course gradebook opened once the grading processes have started, not before them.

Opening it costs seconds of one core (importing nbgrader; for a new database,
nbgrader's ``alembic`` run), and the grading processes do not need it: only
this process records their results. So ``course grade`` starts the pool
first and opens the gradebook while the first submissions are graded (their
results wait in the pool); a run with nothing to grade opens it when it
writes. :class:`OpeningGradebook` stands for the gradebook meanwhile: it opens
it on :meth:`~OpeningGradebook.open` or at its first use, and closes it as
the gradebook's own ``with`` block would.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from .config import CourseConfig
from .grade_progress import OPENING, RunProgress
from .gradebook_state import course_gradebook, require_gradebook_extra
from .roster import Student

if TYPE_CHECKING:
    from .gradebook import CourseGradebook


class OpeningGradebook:
    """The gradebook of ``config`` with ``variations`` and ``students`` ensured, opened when first
    needed (the phase ``opening the gradebook`` starts then). A missing nbgrader is said at once."""

    def __init__(self, config: CourseConfig, variations: list[str], students: list[Student],
                 progress: RunProgress) -> None:
        require_gradebook_extra()
        self._config = config
        self._variations = variations
        self._students = students
        self._progress = progress
        self._stack = ExitStack()
        self._gradebook: CourseGradebook | None = None

    def __enter__(self) -> OpeningGradebook:
        return self

    def __exit__(self, *exc: Any) -> bool | None:
        return self._stack.__exit__(*exc)

    def open(self) -> CourseGradebook:
        """The open gradebook (opened now if it is not yet)."""
        if self._gradebook is None:
            self._progress.phase(OPENING)
            gradebook = self._stack.enter_context(course_gradebook()(self._config))
            gradebook.ensure_structure(self._variations)
            gradebook.ensure_students(self._students)
            self._gradebook = gradebook
        return self._gradebook

    def __getattr__(self, name: str) -> Any:
        return getattr(self.open(), name)


def opened(gradebook: Any) -> Any:
    """``gradebook`` open: an :class:`OpeningGradebook` opens now; any other is returned as is."""
    return gradebook.open() if isinstance(gradebook, OpeningGradebook) else gradebook
