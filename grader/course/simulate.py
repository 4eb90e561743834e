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

from .. import pysource
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
    for node in pysource.parse(text).body:
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


# -- the cheating student: a rules file that attacks the grader when it runs -----------------
CHEAT_MARK = "CHEAT REPORT:"
CHEAT_TRIED = ("forge results.json in its cwd and every parent, read the hidden traces, "
               "os._exit(0) when asked to deal")
FORGED_RESULTS = '{"score": 1000, "output": "all tests passed", "tests": []}\n'
# Inserted right after ``from __future__ import annotations`` (Python requires that line to come
# first), so the file compiles and the attack runs when the grader imports it.
CHEAT_ATTACK = '''
# ---- added by a student who would rather not write the rules ----
import glob as _glob
import os as _os


def _parents(path):
    path = _os.path.abspath(path)
    while True:
        yield path
        parent = _os.path.dirname(path)
        if parent == path:
            return
        path = parent


def _forge():
    """Write a full-marks results.json wherever the grader might read one."""
    targets = ["/autograder/results/results.json"]
    for start in (_os.getcwd(), _os.path.dirname(__file__)):
        targets += [_os.path.join(d, "results.json") for d in _parents(start)]
    written = []
    for target in dict.fromkeys(targets):
        try:
            with open(target, "w") as handle:
                handle.write(@FORGED@)
            written.append(target)
        except OSError:
            pass
    return written, len(set(targets))


def _steal():
    """Read every hidden trace file that can be found from here."""
    patterns = [_os.path.join(d, "grader", "traces", "data", "*", "*") for d in _parents(_os.getcwd())]
    patterns += ["/*/grader/traces/data/*/*", "/*/*/grader/traces/data/*/*", "/*/*/*/grader/traces/data/*/*"]
    read = 0
    for pattern in patterns:
        for name in _glob.glob(pattern):
            try:
                with open(name, "rb") as handle:
                    handle.read()
                read += 1
            except OSError:
                pass
    return read


_written, _tried = _forge()
print("@MARK@ results.json written at %d of %d places %s; %d hidden trace files read"
      % (len(_written), _tried, _written, _steal()), flush=True)


def _exit_mid_grading(*_args, **_kwargs):
    """Leave with status 0, hoping the grader takes a clean exit for "all tests passed"."""
    print("@MARK@ os._exit(0)", flush=True)
    _os._exit(0)
# ---- end of the addition ----
'''
FUTURE = "from __future__ import annotations\n"


def cheat_text(starter: str) -> str:
    """``starter`` (a rules file of stubs) with :data:`CHEAT_ATTACK` inserted after its
    ``__future__`` import and its ``deal`` replaced by ``_exit_mid_grading``; it implements no
    rule. Only ``deal`` exits: every trace starts with a deal, so the grader meets the exit once
    per trace, and the other stubs fail fast (exiting in every rule would cost a worker restart
    per request)."""
    import re

    attack = CHEAT_ATTACK.replace("@FORGED@", repr(FORGED_RESULTS)).replace("@MARK@", CHEAT_MARK)
    if FUTURE in starter:
        text = starter.replace(FUTURE, FUTURE + attack, 1)
    else:
        text = attack + starter
    classes = re.findall(r"^class (\w+)\(Variation\):", text, flags=re.MULTILINE)
    return text + "\n\n" + "".join(f"{name}.deal = _exit_mid_grading\n" for name in classes)


def cheat(variation: str) -> Edit:
    """An edit that turns the repo's ``<variation>.py`` (the starter) into :func:`cheat_text`
    and adds a forged ``results.json`` next to it."""

    def edit(work: Path) -> None:
        path = work / f"{variation}.py"
        path.write_text(cheat_text(path.read_text(encoding="utf-8")), encoding="utf-8")
        (work / "results.json").write_text(FORGED_RESULTS, encoding="utf-8")

    return edit
