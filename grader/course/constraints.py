"""The versions an autograder installs: pinned to the ones this environment grades with.

``course export --gradescope`` ships ``constraints.txt`` in the zip and its
``setup.sh`` installs the project with ``pip install -c constraints.txt``: the
Gradescope image gets exactly the versions the instructor's own grading ran
with, not whatever the package index holds on the day the image is built. The
list is the project's base requirements (``pyproject.toml``, no extra: no
nbgrader, no Celery) and theirs, recursively, as installed here.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

from solitaire.errors import UserError


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _applies(requirement: Requirement, extras: set[str]) -> bool:
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate({"extra": extra}) for extra in extras | {""})


def pinned(pyproject: Path) -> list[str]:
    """``name==version`` of every distribution the base install of the project at ``pyproject``
    needs, as installed in this environment, sorted; UserError if one is not installed."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    todo: list[tuple[Requirement, set[str]]] = [(Requirement(text), set())
                                                for text in project.get("dependencies", [])]
    found: dict[str, str] = {}
    while todo:
        requirement, parent_extras = todo.pop()
        if not _applies(requirement, parent_extras):
            continue
        name = _canonical(requirement.name)
        if name in found:
            continue
        try:
            distribution = metadata.distribution(requirement.name)
        except metadata.PackageNotFoundError:
            raise UserError(f"{requirement.name} is not installed here, so its version cannot be pinned "
                            "for the autograder: install the project first (scripts/setup.sh)") from None
        found[name] = distribution.version
        extras = set(requirement.extras)
        todo += [(Requirement(text), extras) for text in distribution.requires or []]
    return [f"{name}=={version}" for name, version in sorted(found.items())]
