"""The variation catalog, ``assignments/catalog.toml``: variations, approval, points, display.

Other parts of the grader ask this module, never the file: :func:`names`,
:func:`approved`, :func:`points`, :func:`entry`, :func:`settings`.
:func:`problems` checks the file against the references.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from solitaire.errors import UserError
from solitaire.variation import RULE_METHODS

from . import project

CATALOG_FILE = project.ROOT / "assignments" / "catalog.toml"
VISIBILITIES = ("visible", "after_due_date", "after_published", "hidden")
FEEDBACK_LEVELS = ("first_failure", "counts", "none")


@dataclass(frozen=True)
class Settings:
    """How results are shown: Gradescope visibility, feedback detail, time per trace."""

    visibility: str = "visible"
    feedback: str = "first_failure"
    trace_timeout: float = 60.0


@dataclass(frozen=True)
class Entry:
    name: str
    title: str
    packs: int
    approved: bool
    points: dict[str, float]
    graded_options: dict[str, list[Any]] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return sum(self.points.values())


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise UserError(f"the catalog {path} is missing") from None
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"{path}: not valid TOML: {error}") from None


@cache
def _data(path: Path = CATALOG_FILE) -> dict[str, Any]:
    return _read(path)


def settings(path: Path = CATALOG_FILE) -> Settings:
    table = _data(path).get("grading", {})
    result = Settings(
        visibility=str(table.get("visibility", "visible")),
        feedback=str(table.get("feedback", "first_failure")),
        trace_timeout=float(table.get("trace_timeout", 60)),
    )
    if result.visibility not in VISIBILITIES:
        raise UserError(f"{path}: [grading] visibility must be one of {', '.join(VISIBILITIES)}")
    if result.feedback not in FEEDBACK_LEVELS:
        raise UserError(f"{path}: [grading] feedback must be one of {', '.join(FEEDBACK_LEVELS)}")
    if result.trace_timeout <= 0:
        raise UserError(f"{path}: [grading] trace_timeout must be positive")
    return result


def names(path: Path = CATALOG_FILE) -> list[str]:
    """Every variation of the catalog, in file order."""
    return list(_data(path).get("variations", {}))


def approved(path: Path = CATALOG_FILE) -> list[str]:
    """The variations approved for random assignment."""
    return [name for name in names(path) if entry(name, path).approved]


def entry(name: str, path: Path = CATALOG_FILE) -> Entry:
    """The catalog entry of ``name``; LookupError when the catalog has none."""
    table = _data(path).get("variations", {}).get(name)
    if not isinstance(table, dict):
        raise LookupError(f"the catalog has no variation {name!r} (known: {', '.join(names(path))})")
    points = table.get("points", {})
    if not isinstance(points, dict):
        raise UserError(f"{path}: [variations.{name}.points] must be a table")
    clean: dict[str, float] = {}
    for category in RULE_METHODS:  # rule-method order
        if category in points:
            value = points[category]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise UserError(f"{path}: points of {name}.{category} must be a number >= 0")
            clean[category] = float(value)
    unknown = sorted(set(points) - set(RULE_METHODS))
    if unknown:
        raise UserError(f"{path}: {name} gives points to {unknown}, which are not rule methods")
    graded = table.get("graded_options", {})
    if not isinstance(graded, dict) or not all(isinstance(v, list) for v in graded.values()):
        raise UserError(f"{path}: graded_options of {name} must map option names to lists of values")
    return Entry(name, str(table.get("title", name)), int(table.get("packs", 1)),
                 bool(table.get("approved", False)), clean, dict(graded))


def points(name: str, path: Path = CATALOG_FILE) -> dict[str, float]:
    """Points per rule category of ``name``, in rule-method order."""
    return entry(name, path).points


def problems(path: Path = CATALOG_FILE) -> list[str]:
    """What is wrong with the catalog, compared with the references (empty: nothing)."""
    from grader.traces.build import reference_names, reference_variation
    from grader.traces.facts import rule_methods_of

    found = []
    try:
        settings(path)
        listed = names(path)
    except UserError as error:
        return [str(error)]
    for name in reference_names():
        if name not in listed:
            found.append(f"{name} has a reference but no catalog entry")
    for name in listed:
        try:
            item = entry(name, path)
        except UserError as error:
            found.append(str(error))
            continue
        try:
            variation = reference_variation(name)
        except UserError:
            found.append(f"{name} is in the catalog but has no reference")
            continue
        categories = rule_methods_of(type(variation))
        missing = [c for c in categories if c not in item.points]
        extra = [c for c in item.points if c not in categories]
        if missing:
            found.append(f"{name}: no points for {', '.join(missing)}")
        if extra:
            found.append(f"{name}: points for {', '.join(extra)}, which its reference does not implement")
        options = {option.name: option for option in variation.options}
        for option, values in item.graded_options.items():
            if option not in options:
                found.append(f"{name}: graded_options names unknown option {option!r}")
                continue
            allowed = options[option].allowed()
            for value in values:
                if allowed and value not in allowed:
                    found.append(f"{name}: graded_options {option} = {value!r} is not an allowed value")
    return found
