"""Storage errors of a course command as one line: the file, what happened, what to do.

SQLite and the operating system report a full disk, a read-only file system
or a damaged database in their own words, at the bottom of a traceback. A
course command runs inside :func:`guard`, which turns those errors into a
:class:`StorageError` (a :class:`~solitaire.errors.UserError`: the CLI prints
``solitaire: error: <message>`` and exits 2). Nothing here deletes or rewrites
a file: a damaged results store is left in place for the instructor to move
aside, so no recorded grade is lost by the message.

Every ``sqlite3`` error that leaves a guarded block is the results store's:
the gradebook goes through SQLAlchemy, whose errors are its own types.
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from solitaire.errors import UserError

FULL = (errno.ENOSPC, errno.EDQUOT)
DENIED = (errno.EACCES, errno.EPERM)


class StorageError(UserError):
    """A course file could not be read or written (disk full, read-only, damaged)."""


def sqlite_message(path: Path, error: sqlite3.Error, command: str) -> str:
    """The one line for ``error`` of the SQLite database at ``path`` during ``course command``."""
    text = str(error)
    lowered = text.lower()
    again = f"run `solitaire course {command}` again"
    if "full" in lowered:
        return (f"{path}: the disk is full ({text}); nothing after the last stored grade was "
                f"recorded and the grades stored before are kept: free space on that disk, then {again}")
    if "readonly" in lowered or "read-only" in lowered:
        return (f"{path}: cannot write the results store ({text}): make the file and its folder writable "
                f"(chmod u+w, chattr -i, or a read-write mount), then {again}")
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        return (f"{path}: the results store is damaged ({text}); it was left as it is: move it aside "
                f"(mv {path.name} {path.name}.damaged) or put back a backup, then {again} "
                "(without a store every collected submission is graded anew)")
    if "unable to open" in lowered:
        return f"{path}: cannot open the results store ({text}): check that its folder exists and is " \
               f"writable, then {again}"
    if "locked" in lowered:
        return f"{path}: the results store is locked by another program ({text}): wait for it, then {again}"
    return f"{path}: the results store failed ({type(error).__name__}: {text}); {again}"


def os_message(error: OSError, command: str) -> str | None:
    """The one line for a disk full, read-only or permission ``error``; None for any other error."""
    where = error.filename or "a course file"
    reason = error.strerror or str(error)
    again = f"run `solitaire course {command}` again"
    if error.errno in FULL:
        return (f"{where}: the disk is full ({reason}); the grades stored before are kept: free space on "
                f"that disk, then {again}")
    if error.errno == errno.EROFS:
        return (f"{where}: the course directory is on a read-only file system: `course {command}` writes "
                f"into it; make it writable (remount it read-write, or copy the course elsewhere), "
                f"then {again}")
    if error.errno in DENIED:
        return (f"{where}: permission denied ({reason}): the course directory must be writable by you "
                f"(check its owner, chmod u+w, chattr -i), then {again}")
    return None


@contextmanager
def guard(results: Path, command: str) -> Iterator[None]:
    """Run ``course command`` with storage errors as one :class:`StorageError` line.

    ``results``: the results store, named by every SQLite error (see the module docstring).
    """
    try:
        yield
    except sqlite3.Error as error:
        raise StorageError(sqlite_message(results, error, command)) from None
    except OSError as error:
        message = os_message(error, command)
        if message is None:
            raise
        raise StorageError(message) from None
