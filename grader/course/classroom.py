"""GitHub Classroom: its roster export as a course roster, and its repos as the students' remotes.

With GitHub Classroom the instructor makes an assignment from a template
repository; each student who accepts it gets ``ORG/PREFIX-USERNAME``, a copy
of the template. ``course init --github-classroom EXPORT.csv --org ORG
--prefix PREFIX`` turns Classroom's roster export (columns ``identifier``,
``github_username``, ``github_id``, ``name``) into ``roster.csv`` keyed by
GitHub username, points the remote template at those repos, reads receive
times from GitHub's API (``host = "github"``) and sets ``handed_out``, so
``course publish`` commits each student's starter into their existing repo
(:func:`grader.course.publish.publish`) rather than creating one.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from solitaire.errors import UserError

from .roster import STUDENT_ID, Problem, read_rows

EXPORT_COLUMNS = ("identifier", "github_username")


def remote_template(org: str, prefix: str) -> str:
    """The URL template of the Classroom repos of an assignment."""
    for value, what in ((org, "--org"), (prefix, "--prefix")):
        if not value or not STUDENT_ID.match(value) or "/" in value:
            raise UserError(f"{what} {value!r} is not a GitHub organisation or repository prefix")
    return f"https://github.com/{org}/{prefix}-{{student}}.git"


def roster_from_export(path: Path) -> tuple[str, list[Problem]]:
    """(roster.csv text, problems) from a GitHub Classroom roster export.

    A student is identified by their GitHub username (their repo's name ends
    with it); a roster line without one (the student has not linked a GitHub
    account yet) is reported and skipped.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "name", "email"])
    problems: list[Problem] = []
    seen: set[str] = set()
    for line, row in read_rows(path, "GitHub Classroom roster export", EXPORT_COLUMNS):
        identifier, user = row["identifier"], row["github_username"]
        if not user:
            problems.append(Problem(str(path), line, f"{identifier or 'a student'} has no GitHub account "
                                    "linked in the Classroom roster yet; skipped (add them again later)"))
            continue
        if not STUDENT_ID.match(user) or user.lower() in seen:
            problems.append(Problem(str(path), line, f"GitHub username {user!r} is invalid or repeated; "
                                    "skipped"))
            continue
        seen.add(user.lower())
        email = identifier if "@" in identifier else ""
        writer.writerow([user, row.get("name") or identifier or user, email])
    if not seen:
        raise UserError(f"{path}: no student with a GitHub username (is this Classroom's roster export?)")
    return out.getvalue(), problems
