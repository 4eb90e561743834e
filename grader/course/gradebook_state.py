"""What ``course grade`` last wrote to the gradebook, so that a run with nothing new skips it.

Opening nbgrader's gradebook costs seconds before any work (importing nbgrader
pulls in Jupyter's server and a URL grammar compiled at import). Every grading
run used to write the whole class to the gradebook again (idempotent, to heal
a crash between the results store and the gradebook) and every export read it
back. Both can be skipped when nothing would change, which this module decides:

* after a run wrote everything without an error, the store keeps a
  :class:`GradebookState`: a digest of every value written (structure,
  students, one record per graded submission), a digest of the gradebook's
  bytes after closing it, and nbgrader's scores read back at that moment;
* the next run computes the same inputs digest; when it and the file digest
  match, writing again would store the same values in the same file, so the
  gradebook is not opened; an export reads the scores kept here.

Only a SQLite gradebook has bytes to compare; any other URL is always opened.
A gradebook changed by hand (formgrader, a script) has other bytes, so it is
opened and written as before.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solitaire.errors import UserError

from ..nbgrader_import import skip_unused_helpers

if TYPE_CHECKING:
    from .gradebook import CourseGradebook

SQLITE = "sqlite:///"
NEEDS_NBGRADER = ("the course gradebook is nbgrader's, and nbgrader is not installed: "
                  "pip install 'solitaire-lab[gradebook]' (grading one submission, a Gradescope "
                  "autograder and a Celery worker do not need it)")


def require_gradebook_extra() -> None:
    """Raise :data:`NEEDS_NBGRADER` now if nbgrader or nbformat is missing, without importing them
    (a run can say so before it starts grading, although it opens the gradebook later)."""
    for name in ("nbgrader", "nbformat"):
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a module set to None in sys.modules, a broken parent
            found = False
        if not found:
            raise UserError(NEEDS_NBGRADER)


def course_gradebook() -> type[CourseGradebook]:
    """The gradebook class, imported on first use (nbgrader takes seconds to import and is an
    optional extra: only the process that writes or reads the gradebook needs it)."""
    skip_unused_helpers()
    try:
        from .gradebook import CourseGradebook
    except ModuleNotFoundError as missing:
        if (missing.name or "").split(".")[0] in ("nbgrader", "nbformat"):
            raise UserError(NEEDS_NBGRADER) from None
        raise
    return CourseGradebook


@dataclass(frozen=True)
class GradebookState:
    url: str
    inputs: str
    file_digest: str
    scores: dict[str, tuple[float, float]]


def database_file(url: str) -> Path | None:
    """The file of a SQLite gradebook URL, else None."""
    return Path(url[len(SQLITE):]) if url.startswith(SQLITE) and len(url) > len(SQLITE) else None


def copy_database(url: str, target: Path) -> bool:
    """Copy the SQLite gradebook at ``url`` to ``target``, read-only (False: no SQLite file there).

    SQLite's backup API gives a consistent copy even while another connection has the file open.
    """
    path = database_file(url)
    if path is None or not path.is_file():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
    finally:
        copy.close()
        source.close()
    return True


def file_digest(url: str) -> str | None:
    """A digest of the gradebook's bytes (with SQLite's journal files), or None when it has no file."""
    path = database_file(url)
    if path is None or not path.is_file():
        return None
    digest = hashlib.sha256()
    for part in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-journal")):
        if part.is_file():
            digest.update(part.name.encode() + b"\0")
            digest.update(part.read_bytes())
    return digest.hexdigest()


def inputs_digest(values: Any) -> str:
    """A digest of everything a run would write (``values``: JSON-able, in a stable order)."""
    text = json.dumps(values, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def is_current(state: GradebookState | None, url: str, inputs: str | None = None) -> bool:
    """Whether ``state`` describes the gradebook at ``url`` as it is now (and, given, these inputs)."""
    if state is None or state.url != url or (inputs is not None and state.inputs != inputs):
        return False
    current = file_digest(url)
    return current is not None and current == state.file_digest
