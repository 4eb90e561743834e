"""The course gradebook opened in the background while grading runs, not before it.

Opening it costs seconds (importing nbgrader; for a new database, nbgrader's
``alembic`` run and a commit per row it writes), and the grading processes do
not need it: only this process records their results. So ``course grade``
starts the pool first, then opens the gradebook in a thread of its own
(:meth:`OpeningGradebook.start`) while the results that come in are stored,
published and shown at once; each is recorded in the gradebook as it comes
only once the gradebook is open (:func:`open_now`), and every stored result is
written to it again at the end anyway (``_write_all``, idempotent), so a result
that came in while it was opening is not lost. The thread only opens it: every
use of the gradebook is in the calling thread, after the opening has ended
(SQLAlchemy lets a file database's connections move between threads).

:class:`OpeningGradebook` stands for the gradebook meanwhile: :meth:`~OpeningGradebook.open`
waits for the opening (the phase ``opening the gradebook``; it opens the gradebook there if no
thread was started), and its block's end closes it as the gradebook's own ``with`` block would.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from .config import CourseConfig
from .grade_progress import OPENING, RunProgress
from .gradebook_state import course_gradebook, require_gradebook_extra
from .roster import Student

if TYPE_CHECKING:
    from .gradebook import CourseGradebook


class OpeningGradebook:
    """The gradebook of ``config`` with ``variations`` and ``students`` ensured, opened in the
    background (:meth:`start`) or when first needed. A missing nbgrader is said at once."""

    def __init__(self, config: CourseConfig, variations: list[str], students: list[Student],
                 progress: RunProgress) -> None:
        require_gradebook_extra()
        self._config = config
        self._variations = variations
        self._students = students
        self._progress = progress
        self._stack = ExitStack()
        self._gradebook: CourseGradebook | None = None
        self._failure: BaseException | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> OpeningGradebook:
        return self

    def __exit__(self, *exc: Any) -> bool | None:
        if self._thread is not None:
            self._thread.join()  # its ExitStack entry must be in before the stack closes
        return self._stack.__exit__(*exc)

    def start(self) -> None:
        """Begin opening the gradebook in a thread (once; nothing if it is open already)."""
        if self._thread is None and self._gradebook is None:
            self._thread = threading.Thread(target=self._open_in_thread, name="gradebook-opening",
                                            daemon=True)
            self._thread.start()

    @property
    def is_open(self) -> bool:
        """Whether the gradebook is open now (no waiting)."""
        return self._gradebook is not None

    def open(self) -> CourseGradebook:
        """The open gradebook: waits for the opening begun by :meth:`start`, else opens it now.
        A failure of the opening is raised here, in the caller's thread."""
        if self._gradebook is None:
            self._progress.phase(OPENING)
            if self._thread is None:
                self._open_now()
            else:
                self._thread.join()
        if self._failure is not None:  # the thread's: said in every call, never opened twice
            raise self._failure
        assert self._gradebook is not None
        return self._gradebook

    def _open_in_thread(self) -> None:
        try:
            self._open_now()
        except BaseException as failure:  # noqa: BLE001 - raised again by open(), in the caller's thread
            self._failure = failure

    def _open_now(self) -> None:
        gradebook = self._stack.enter_context(course_gradebook()(self._config))
        gradebook.ensure_structure(self._variations)
        gradebook.ensure_students(self._students)
        self._gradebook = gradebook

    def __getattr__(self, name: str) -> Any:
        return getattr(self.open(), name)


def opened(gradebook: Any) -> Any:
    """``gradebook`` open: an :class:`OpeningGradebook` is waited for (or opened) now; any other is
    returned as is."""
    return gradebook.open() if isinstance(gradebook, OpeningGradebook) else gradebook


def start_opening(gradebook: Any) -> None:
    """Begin opening an :class:`OpeningGradebook` in the background; nothing for any other."""
    if isinstance(gradebook, OpeningGradebook):
        gradebook.start()


def open_now(gradebook: Any) -> Any:
    """``gradebook`` if it can be used without waiting (open, or not an :class:`OpeningGradebook`),
    else None."""
    if isinstance(gradebook, OpeningGradebook):
        return gradebook.open() if gradebook.is_open else None
    return gradebook
