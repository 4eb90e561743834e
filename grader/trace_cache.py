"""The hidden traces of a variation, read and validated once per process.

A grading process of ``course grade`` (a pool process) grades many
submissions of the same few variations, and each grade needs the variation's
hidden traces twice: for the rubric here, and for the hidden suite in its
pytest subprocess. Reading and validating them (every state of every step is
parsed) cost about a third of a correct submission's whole grade, paid twice.
So they are validated once per process and kept, keyed by every trace file's
name, size and modification time (a changed file is read again), and the
suite gets them as one file of traces already checked
(:func:`write_checked`, the plugin's ``--solitaire-checked``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .traces.build import HIDDEN_ROOT, hidden_traces

_kept: dict[Path, tuple[tuple[tuple[str, int, int], ...], list[dict[str, Any]]]] = {}


def _signature(directory: Path) -> tuple[tuple[str, int, int], ...]:
    found = []
    for path in sorted(directory.glob("*.json")):
        info = path.stat()
        found.append((path.name, info.st_size, info.st_mtime_ns))
    return tuple(found)


def hidden(name: str, root: Path = HIDDEN_ROOT) -> list[dict[str, Any]]:
    """:func:`~grader.traces.build.hidden_traces` of ``name``, validated once while the files stay
    the same (a new list each call; the traces themselves are shared: do not change them)."""
    directory = root / name
    if not directory.is_dir():
        return hidden_traces(name, root)  # its own error
    signature = _signature(directory)
    kept = _kept.get(directory)
    if kept is None or kept[0] != signature:
        kept = signature, hidden_traces(name, root)
        _kept[directory] = kept
    return list(kept[1])


def write_checked(name: str, path: Path) -> Path:
    """Write the hidden traces of ``name`` (validated) to ``path`` as one JSON list; ``path``."""
    path.write_text(json.dumps(hidden(name)), encoding="utf-8")
    return path
