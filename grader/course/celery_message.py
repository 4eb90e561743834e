"""What travels through the Celery broker: a submission's files out, the grading's files back.

A worker shares nothing with ``course grade`` but the broker: no course
directory, no path. So:

* the **message** (:func:`payload`) carries the key (student, assignment, SHA,
  grader version), the grader's name, timeout and points, a course identity
  (:func:`course_identity`), and the submission's rules file
  ``<variation>.py`` as base64 (the one file a grader reads from the
  submission; its bytes, so a file that is not UTF-8 grades as it does
  locally). A rules file above :data:`MAX_RULES_BYTES` is sent cut at that
  size plus one byte: still too large for the sandbox, which refuses it with
  the same verdict as locally. No absolute path is sent;
* the **worker** (:func:`grade_payload`) writes that file into a temporary
  folder of its own, grades there, and returns the results and every regular
  file the grader wrote (``results.json``, ``feedback.md``, and any other),
  capped at :data:`MAX_REPLY_BYTES` in all. A folder left by a pool process
  that was killed (its time limit, a dead worker) is removed by the next
  grading on that machine (:func:`sweep_folders`);
* ``course grade`` (:func:`write_files`) writes those files into the grading
  folder of the instructor's course, where the local pool's graders write
  theirs; the feedback is published from there, the same way for both.

The reply names the message it answers (:func:`request_digest`), so a result
is reused only for exactly the same message.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from .worker import GradeTask, grade_one

if TYPE_CHECKING:
    from .config import CourseConfig

#: larger than any rules file a grader accepts (the sandbox's limit is 256 KiB)
MAX_RULES_BYTES = 1024 * 1024
#: all the files of one grading sent back (results.json, feedback.md, ...)
MAX_REPLY_BYTES = 8 * 1024 * 1024
#: a worker's grading folder: <temp>/solitaire-celery-<pid>-<random>
FOLDER_PREFIX = "solitaire-celery-"
#: the form of the messages: a worker refuses another (it runs an older or newer solitaire-lab)
PROTOCOL = 2
#: the task's fields that travel (its two paths do not)
FIELDS = ("student", "assignment", "variation", "sha", "grader_version", "grader", "timeout", "points")


class GradingFailed(Exception):
    """A grading that did not produce a result: Celery stores it as a FAILURE, never reused.

    ``request``: the digest of the message it answers (:func:`request_digest`), so
    that ``course grade`` can tell its own failure from an old duplicate's.
    """

    def __init__(self, reason: str, request: str = "") -> None:
        super().__init__(reason, request)  # both survive Celery's JSON round trip
        self.reason, self.request = reason, request

    def __str__(self) -> str:
        return self.reason


def course_identity(config: CourseConfig) -> str:
    """A short digest of the course directory's absolute path and course id.

    Part of every task id: a result graded for another course directory (a
    copy, another term) is never taken for this one.
    """
    text = f"{config.directory.resolve()}\0{config.course_id}"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def payload(task: GradeTask, course: str) -> dict[str, Any]:
    """The message of ``task`` for ``course`` (:func:`course_identity`): plain JSON, no path."""
    message: dict[str, Any] = {name: getattr(task, name) for name in FIELDS}
    message["protocol"] = PROTOCOL
    message["course"] = course
    message["files"] = _rules_files(Path(task.submission), task.variation)
    return message


def _rules_files(submission: Path, variation: str) -> dict[str, str]:
    """``{"<variation>.py": base64}`` when the submission has that regular file; else empty."""
    rules = submission / f"{variation}.py"
    if rules.is_symlink() or not rules.is_file():
        return {}  # the grader reports the missing file, as it does locally
    with rules.open("rb") as handle:
        data = handle.read(MAX_RULES_BYTES + 1)
    return {rules.name: base64.b64encode(data).decode("ascii")}


def request_digest(message: dict[str, Any]) -> str:
    """The digest of a message: a reply answers exactly the message with this digest."""
    return hashlib.sha256(json.dumps(message, sort_keys=True).encode()).hexdigest()


def summary(message: dict[str, Any]) -> dict[str, Any]:
    """The message without its files (for the reply and the worker's log)."""
    return {name: value for name, value in message.items() if name != "files"}


def grade_payload(message: dict[str, Any]) -> dict[str, Any]:
    """Grade ``message`` in a temporary folder; the reply (raises :class:`GradingFailed`)."""
    request = request_digest(message)
    sweep_folders()
    with tempfile.TemporaryDirectory(prefix=f"{FOLDER_PREFIX}{os.getpid()}-") as temporary:
        root = Path(temporary)
        submission, out = root / "submission", root / "out"
        submission.mkdir()
        for name, encoded in message["files"].items():
            if not _safe_name(name):
                raise GradingFailed(f"refusing the file name {name!r} in a Celery message", request)
            (submission / name).write_bytes(base64.b64decode(encoded))
        task = GradeTask(**{name: message[name] for name in FIELDS},
                         submission=str(submission), out_dir=str(out))
        outcome = grade_one(task)
        if outcome.results is None:
            raise GradingFailed(f"{outcome.error} (after {outcome.seconds:.1f} s)", request)
        files = _read_files(out)
        if files is None:
            raise GradingFailed(f"the grader wrote more than {MAX_REPLY_BYTES} bytes of files, more than a "
                                "Celery reply carries", request)
        return {"request": request, "task": summary(message), "results": outcome.results, "files": files,
                "seconds": outcome.seconds}


def sweep_folders() -> None:
    """Remove the grading folders of worker processes that are gone (a grading killed by its
    time limit, or a worker killed, never ran its own clean-up)."""
    for folder in Path(tempfile.gettempdir()).glob(f"{FOLDER_PREFIX}*-*"):
        pid = folder.name[len(FOLDER_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _safe_name(name: str) -> bool:
    """Whether ``name`` is a plain relative POSIX path that stays inside its folder."""
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts and "\\" not in name \
        and path.as_posix() == name


def _read_files(out: Path) -> dict[str, str] | None:
    """Every regular file under ``out`` (relative POSIX path: base64); None above the cap."""
    files, total = {}, 0
    for path in sorted(out.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        total += len(data)
        if total > MAX_REPLY_BYTES:
            return None
        files[path.relative_to(out).as_posix()] = base64.b64encode(data).decode("ascii")
    return files


def write_files(reply: dict[str, Any], out_dir: Path) -> None:
    """Write the reply's files into ``out_dir`` (emptied first), as the local pool's grader would."""
    if out_dir.exists():
        shutil.rmtree(out_dir)  # an earlier or interrupted grading of the same key
    out_dir.mkdir(parents=True)
    for name, encoded in reply["files"].items():
        if not _safe_name(name):
            raise OSError(f"the worker sent the file name {name!r}, which is not a plain relative path")
        target = out_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(encoded))
