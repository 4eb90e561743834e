"""Simulated students for the demo and the tests: clone, edit, commit, push at a given time.

Time is simulated, never slept: the commit and the push carry the given time
(see :func:`grader.course.gitutil.push`), and ``course collect`` is run with a
clock that returns the simulated "now".
"""

from __future__ import annotations

import datetime as dt
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import git

from .gitutil import commit_all, push

Edit = Callable[[Path], None]


def student_actor(student: str) -> git.Actor:
    return git.Actor(student, f"{student}@students.example")


def push_work(
    url: str,
    student: str,
    edit: Edit,
    when: dt.datetime,
    message: str = "My solution",
    branch: str = "main",
    commit_date: dt.datetime | None = None,
) -> str:
    """Clone ``url``, apply ``edit`` to the work tree, commit and push ``branch`` at ``when``.

    ``commit_date`` (default ``when``) is the date written in the commit; a
    student may set any date there, which is why collect never trusts it.
    Returns the pushed SHA.
    """
    with tempfile.TemporaryDirectory(prefix=f"solitaire-student-{student}-") as temp:
        work = Path(temp) / "work"
        repo = git.Repo.clone_from(url, work)
        try:
            if branch not in [head.name for head in repo.heads]:
                repo.git.checkout("-b", branch)
            edit(work)
            sha = commit_all(repo, message, author=student_actor(student), when=commit_date or when)
            push(repo, url, f"HEAD:refs/heads/{branch}", when)
        finally:
            repo.close()
    return sha


def copy_reference(variation: str) -> Edit:
    """An edit that puts the reference solution in place of the starter (a perfect student)."""
    import importlib

    source = Path(importlib.import_module(f"reference.{variation}").__file__ or "")

    def edit(work: Path) -> None:
        shutil.copyfile(source, work / f"{variation}.py")

    return edit


def replace_text(variation: str, old: str, new: str, base: Edit | None = None) -> Edit:
    """An edit that applies ``base`` (default: the reference) then replaces ``old`` by ``new`` once."""
    base = base or copy_reference(variation)

    def edit(work: Path) -> None:
        base(work)
        path = work / f"{variation}.py"
        text = path.read_text(encoding="utf-8")
        if old not in text:
            raise ValueError(f"{variation}.py does not contain {old!r}")
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def write_file(name: str, text: str, base: Edit | None = None) -> Edit:
    """An edit that applies ``base`` then writes ``text`` to the file ``name``."""

    def edit(work: Path) -> None:
        if base:
            base(work)
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(text, encoding="utf-8")

    return edit


# -- realistic student work: text edits of the reference ------------------------------------
BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
STUB = "# YOUR CODE HERE\n{indent}raise NotImplementedError()"


def reference_text(variation: str) -> str:
    import importlib

    return Path(importlib.import_module(f"reference.{variation}").__file__ or "").read_text(encoding="utf-8")


def _method_spans(text: str) -> dict[str, tuple[int, int]]:
    """Method name → (first line, last line), 0-based, of the methods of the Variation class."""
    import ast

    spans = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.end_lineno is not None:
                    spans[item.name] = (item.lineno - 1, item.end_lineno - 1)
    return spans


def _solution_lines(lines: list[str], span: tuple[int, int]) -> tuple[int, int] | None:
    """(first, last) line strictly inside the method's solution markers, or None."""
    first, last = span  # the AST's last line is the last statement; the END marker follows it
    begin = next((i for i in range(first, last + 1) if lines[i].strip() == BEGIN), None)
    if begin is None:
        return None
    end = next((i for i in range(begin, len(lines)) if lines[i].strip() == END), None)
    if begin is None or end is None or end <= begin + 1:
        return None
    return begin + 1, end - 1


def mutate(
    variation: str, methods: list[str], replacements: list[tuple[str, str]]
) -> tuple[str, str] | None:
    """The reference with one small bug: in the first of ``methods`` the variation implements,
    the first of ``replacements`` found in its solution is applied once.

    Returns (new text, what was changed) or None when nothing applies.
    """
    text = reference_text(variation)
    lines = text.splitlines(keepends=True)
    spans = _method_spans(text)
    for method in methods:
        if method not in spans:
            continue
        inside = _solution_lines(lines, spans[method])
        if inside is None:
            continue
        for old, new in replacements:
            for index in range(inside[0], inside[1] + 1):
                if old in lines[index]:
                    lines[index] = lines[index].replace(old, new, 1)
                    return "".join(lines), f"{method}: {old.strip()!r} became {new.strip()!r}"
    return None


def partial(variation: str, keep: int) -> tuple[str, list[str]]:
    """The reference with only its first ``keep`` rule methods solved, the others still stubs.

    Returns (text, the methods left as stubs).
    """
    from solitaire.variation import RULE_METHODS

    text = reference_text(variation)
    lines = text.splitlines(keepends=True)
    spans = _method_spans(text)
    rules = [m for m in RULE_METHODS if m in spans]
    stubbed = rules[keep:]
    for method in sorted(stubbed, key=lambda m: spans[m][0], reverse=True):
        inside = _solution_lines(lines, spans[method])
        if inside is None:
            continue
        indent = lines[inside[0]][: len(lines[inside[0]]) - len(lines[inside[0]].lstrip())]
        lines[inside[0]: inside[1] + 1] = [indent + STUB.format(indent=indent) + "\n"]
    return "".join(lines), stubbed


def write_rules(variation: str, text: str) -> Edit:
    """An edit that writes ``text`` as the student's rules file."""
    return write_file(f"{variation}.py", text)
