"""The folders nbgrader's own tools read beside the gradebook, so formgrader lists our grades.

nbgrader's formgrader lists an assignment only when its ``source`` folder
exists, counts a submission when its ``submitted`` folder exists, and shows it
as graded when its ``autograded`` folder exists with a ``timestamp.txt`` equal
to the gradebook's timestamp (``nbgrader.apps.api.NbGraderAPI``). ``course
grade`` writes that much, and no notebook, in ``DIR/nbgrader/`` (a folder of
its own: nbgrader's ``feedback`` step would clash with the course's
``feedback/``):

* ``nbgrader_config.py``: the course id, this folder as nbgrader's root and
  the gradebook's URL, so that ``nbgrader export`` and ``jupyter server``
  (formgrader) run from this folder open the course's gradebook;
* ``source/<assignment>-<variation>/README.md`` per variation of the course;
* ``submitted/<student>/<assignment>-<variation>/timestamp.txt`` and the same
  under ``autograded/`` for each graded submission (the receive time, UTC).

Folders of a submission no longer in the gradebook (a reassigned student) are
removed; nothing else is touched. Do not run ``nbgrader generate_assignment``
or ``autograde`` on this course: the gradebook is ``course grade``'s.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from .config import CourseConfig

FOLDER = "nbgrader"
STEPS = ("submitted", "autograded")
README = """# {name}

Written by `solitaire course grade` so that nbgrader's formgrader lists this assignment
(variation {variation} of the course assignment {assignment}). The grades are in the
course's gradebook; the feedback of each student is in the course's feedback/ folder.
Do not run `nbgrader generate_assignment` or `nbgrader autograde` here.
"""


def nbgrader_root(config: CourseConfig) -> Path:
    """The nbgrader course folder of ``config`` (run nbgrader's tools from there)."""
    return config.directory / FOLDER


def config_text(config: CourseConfig) -> str:
    """``nbgrader_config.py``: this course's id, root and gradebook for nbgrader's tools."""
    return (
        "# Written by `solitaire course grade` (rewritten by every run): nbgrader's tools run from\n"
        "# this folder (`nbgrader export`, formgrader) open the course's gradebook.\n"
        "c = get_config()  # noqa: F821 - defined by nbgrader when it reads this file\n"
        f"c.CourseDirectory.course_id = {config.course_id!r}\n"
        f"c.CourseDirectory.root = {str(nbgrader_root(config))!r}\n"
        f"c.CourseDirectory.db_url = {config.gradebook_db_url()!r}\n"
    )


def timestamp_text(timestamp: dt.datetime) -> str:
    """A gradebook timestamp (UTC, no zone) as nbgrader writes ``timestamp.txt``."""
    return timestamp.strftime("%Y-%m-%d %H:%M:%S.%f") + " UTC\n"


def _write(path: Path, text: str) -> None:
    """Write ``text`` unless ``path`` holds it already (a rerun changes no file)."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_course_files(
    config: CourseConfig,
    assignments: dict[str, str],
    submissions: dict[str, tuple[str, dt.datetime]],
) -> Path:
    """Write the folders (see the module docstring); returns the nbgrader root.

    ``assignments``: nbgrader assignment -> variation, every one of this course;
    ``submissions``: student -> (nbgrader assignment, timestamp) as in the gradebook.
    """
    root = nbgrader_root(config)
    _write(root / "nbgrader_config.py", config_text(config))
    for name, variation in sorted(assignments.items()):
        _write(root / "source" / name / "README.md",
               README.format(name=name, variation=variation, assignment=config.assignment))
    for student, (name, timestamp) in sorted(submissions.items()):
        for step in STEPS:
            _write(root / step / student / name / "timestamp.txt", timestamp_text(timestamp))
    for step in STEPS:
        for folder in sorted((root / step).glob("*/*")):
            student, name = folder.parent.name, folder.name
            if name in assignments and submissions.get(student, ("",))[0] != name:
                shutil.rmtree(folder)
                if not any(folder.parent.iterdir()):
                    folder.parent.rmdir()
    return root
