"""Catalogs of realistic student bugs: the second mutant family of the quality gate.

Each ``<variation>.toml`` beside this module lists ``[[bug]]`` entries, each one
misreading of one ruling the way a student would write it: an exact ``find`` /
``replace`` edit of ``reference/<variation>.py`` inside one rule method's
``### BEGIN SOLUTION`` / ``### END SOLUTION`` region. Unlike the AST mutants
(:mod:`grader.mutants`), these are chosen by hand to be plausible, not exhaustive.
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from solitaire.variation import RULE_METHODS, Variation

from .. import pysource
from ..mutants import BEGIN, END, Mutant, reference_source, solution_lines
from ..mutants import instantiate as instantiate_mutant

HERE = Path(__file__).resolve().parent
KEYS = ("id", "method", "ruling", "description", "find", "replace")
_ID = re.compile(r"[a-z0-9-]+\Z")


class BugError(ValueError):
    """A catalog entry that is malformed or does not apply to the reference."""


@dataclass(frozen=True)
class Bug:
    variation: str
    id: str
    method: str  # the rule method whose solution region the edit falls in
    ruling: str  # the ruling id the student misread
    description: str
    find: str  # exact text of the reference, once, inside ``method``'s region
    replace: str

    def source(self, reference_source: str) -> str:
        """The reference text with this bug's edit made; BugError if ``find`` does not
        occur exactly once or is not wholly inside ``method``'s solution region (it may
        reach the region's own marker lines, as context, if the markers stay)."""
        where = f"{self.variation}.toml: bug {self.id!r}"
        count = reference_source.count(self.find)
        if count != 1:
            raise BugError(f"{where}: find occurs {count} times in the reference (must be once)")
        start = reference_source.index(self.find)
        # the lines holding the first and last non-blank characters of ``find``
        first = start + len(self.find) - len(self.find.lstrip())
        last = start + len(self.find.rstrip()) - 1
        lines = range(reference_source.count("\n", 0, first) + 1, reference_source.count("\n", 0, last) + 2)
        patched = reference_source.replace(self.find, self.replace)
        if not set(lines) <= _region(reference_source, self.method) or any(
                patched.count(marker) != reference_source.count(marker) for marker in (BEGIN, END)):
            raise BugError(f"{where}: find is not inside the solution region of {self.method}")
        return patched


def _region(source: str, method: str) -> set[int]:
    """Line numbers of ``method``'s solution region, its marker lines included."""
    lines = source.splitlines()
    inside: set[int] = set()
    for cls in (n for n in pysource.parse(source).body if isinstance(n, ast.ClassDef)):
        for node in cls.body:
            if isinstance(node, ast.FunctionDef) and node.name == method:
                end = node.end_lineno or node.lineno
                while end < len(lines) and lines[end].strip().startswith(END):
                    end += 1  # the closing marker is a comment, past the function's last node
                inside |= set(range(node.lineno, end + 1))
    markers = {n for n in inside if lines[n - 1].strip().startswith((BEGIN, END))}
    return inside & (solution_lines(source) | markers)


def path(variation: str) -> Path:
    return HERE / f"{variation}.toml"


def variations() -> list[str]:
    """The variations that have a catalog file."""
    return sorted(p.stem for p in HERE.glob("*.toml"))


def load(variation: str) -> list[Bug]:
    """The bugs of ``variation``'s catalog, checked for form (not yet applied)."""
    file = path(variation)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise BugError(f"{file.name}: {error}") from error
    bugs: list[Bug] = []
    seen: set[str] = set()
    for index, entry in enumerate(data.get("bug", []), start=1):
        where = f"{file.name}: bug {entry.get('id', f'#{index}')!r}"
        # every key a non-empty string, but ``replace``, which may delete ``find``
        missing = [k for k in KEYS
                   if not isinstance(entry.get(k), str) or not entry[k].strip() and k != "replace"]
        unknown = sorted(set(entry) - set(KEYS))
        if missing or unknown:
            raise BugError(f"{where}: missing or empty {missing}, unknown keys {unknown}")
        if not _ID.match(entry["id"]):
            raise BugError(f"{where}: id must be [a-z0-9-]+")
        if entry["id"] in seen:
            raise BugError(f"{where}: duplicate id")
        if entry["method"] not in RULE_METHODS:
            raise BugError(f"{where}: unknown method {entry['method']!r}")
        if entry["find"] == entry["replace"]:
            raise BugError(f"{where}: replace is the same as find")
        seen.add(entry["id"])
        bugs.append(Bug(variation, **{k: entry[k] for k in KEYS}))
    if not bugs:
        raise BugError(f"{file.name}: no [[bug]] entries")
    return bugs


def instantiate(bug: Bug) -> Variation:
    """An instance of the reference variation with ``bug`` in it, from a fresh module."""
    _, text = reference_source(bug.variation)
    code = compile(bug.source(text), f"<bug {bug.variation}:{bug.id}>", "exec")
    return instantiate_mutant(Mutant(0, bug.method, 0, "bug", bug.find, bug.replace, code), bug.variation)
