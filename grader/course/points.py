"""Variations and points per rule category, as the course workflow sees them.

The one place the workflow asks the catalog (``grader.catalog``, reading
``assignments/catalog.toml``) which variations exist, which are approved and
how many points each rule category of a variation is worth.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

from solitaire.variation import RULE_METHODS


def _catalog() -> Any:
    try:
        return importlib.import_module("grader.catalog")
    except ImportError:
        return None


def _reference_names() -> tuple[str, ...]:
    """The reference variations (the fallback while the catalog module is absent)."""
    import reference

    return tuple(reference.VARIATIONS)


@cache
def known_variations() -> tuple[str, ...]:
    """Every variation of the catalog (custom choices may name any of them)."""
    catalog = _catalog()
    if catalog is not None:
        return tuple(catalog.names())
    return _reference_names()


@cache
def approved_variations() -> tuple[str, ...]:
    """The variations approved for random assignment (the six of the course)."""
    catalog = _catalog()
    if catalog is not None:
        return tuple(catalog.approved())
    return _reference_names()


def has_hidden_traces(variation: str) -> bool:
    """Whether the hidden suite has traces of ``variation`` (without them it can only give 0)."""
    try:
        from grader.traces.build import HIDDEN_ROOT
    except ImportError:
        return False
    directory = Path(HIDDEN_ROOT) / variation
    return directory.is_dir() and any(directory.glob("*.json"))


def has_reference(variation: str) -> bool:
    """Whether the reference module of ``variation`` exists (so a starter can be made)."""
    try:
        importlib.import_module(f"reference.{variation}")
    except ImportError:
        return False
    return True


@cache
def catalog_points(variation: str) -> dict[str, float]:
    """Points per rule category of ``variation``, in rule-method order."""
    catalog = _catalog()
    if catalog is not None:
        return {c: float(p) for c, p in catalog.points(variation).items()}
    module = importlib.import_module(f"reference.{variation}")
    from solitaire.catalog import variation_class

    cls = variation_class(module)
    return {method: 10.0 for method in RULE_METHODS if method in vars(cls)}


def category_points(variation: str, overrides: dict[str, dict[str, float]] | None = None) -> dict[str, float]:
    """The catalog's points for ``variation`` with the course's overrides applied."""
    points = dict(catalog_points(variation))
    points.update((overrides or {}).get(variation, {}))
    return points
