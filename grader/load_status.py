"""Why a rules file could not be graded at all, as a status and one sentence for the top of the feedback.

``results.json``'s ``extra_data.status`` is one of :data:`STATUSES`; the course
workflow shows it in ``grades.csv`` (column ``grading_status``). When the file
is missing or cannot be loaded, the feedback says so once, at the top (the
*headline*), and no test repeats it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from . import sanitize
from .feedback_model import note

STATUSES = ("ok", "missing-file", "syntax-error", "import-error", "no-variation-class", "load-error",
            "internal-error")
#: the status of a rules file that could not be loaded, by the type name of the error
LOAD_STATUS = {"SyntaxError": "syntax-error", "IndentationError": "syntax-error", "TabError": "syntax-error",
               "ImportError": "import-error", "ModuleNotFoundError": "import-error",
               "UnknownVariation": "no-variation-class"}
MAX_LISTED = 10
_LINE = re.compile(r"\bline (\d+)\b")
_FOUND = re.compile(r"Variation subclass, found (\d+)")


def missing_file_headline(submission: Path, expected: str) -> dict[str, str]:
    """The headline for a submission without ``expected`` (say which ``.py`` files it has instead)."""
    path = submission / expected
    if path.is_symlink():
        return note(f"Your submission's {expected} is a symbolic link, which the grader does not follow, "
                    f"so nothing could be graded: commit the file itself.")
    found = sorted(p.name for p in submission.glob("*.py") if p.is_file() and not p.is_symlink())
    where = f"name your rules file exactly {expected}, in the top folder of your repository"
    if not found:
        return note(f"Your submission has no file {expected}, so nothing could be graded: {where} "
                    "(no .py file was found there).")
    more = [f"... ({len(found) - MAX_LISTED} more)"] if len(found) > MAX_LISTED else []
    shown = found[:MAX_LISTED] + more
    return note(f"Your submission has no file {expected}, so nothing could be graded: {where}; "
                "the .py files found there are", sanitize.text(", ".join(shown), 500))


def headline_for_load(rules_name: str, load: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """(status, headline) for a rules file whose loading failed with ``load`` (``error``: the error's
    type name, ``message``: what the sandbox reported)."""
    error, message = str(load.get("error", "")), sanitize.text(load.get("message", ""), 500)
    status = LOAD_STATUS.get(error, "load-error")
    line = _LINE.search(message)
    at = f" at line {line.group(1)}" if line else ""
    if status == "syntax-error":
        what = f"it has a syntax error{at}"
    elif status == "import-error":
        what = f"an import in it failed{at}"
    elif status == "no-variation-class":
        found = _FOUND.search(message)
        count = int(found.group(1)) if found else 0
        what = ("it defines no Variation class (keep the starter's class, a subclass of Variation)"
                if count == 0 else f"it defines {count} Variation classes, where exactly one is expected")
    else:
        what = f"loading it raised an error{at}"
    return status, note(f"Your rules file {rules_name} could not be used, so no rule was tested: {what}.",
                        message)
