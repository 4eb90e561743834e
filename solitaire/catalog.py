"""Finding variations by name.

Two places are looked in, in this order:

1. a rules file ``<name>.py`` in the current directory (a student repo: the
   file the student edits), or the file named by ``SOLITAIRE_RULES_FILE``;
2. the instructor's package ``reference.<name>`` when it is installed.

A rules module holds exactly one subclass of :class:`Variation`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import sys
from pathlib import Path
from types import CodeType, ModuleType

from .errors import UnknownVariation
from .variation import Variation


def variation_class(module: ModuleType) -> type[Variation]:
    """The one Variation subclass defined in ``module``."""
    found = [
        obj for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Variation) and obj is not Variation
        and obj.__module__ == module.__name__
    ]
    if len(found) != 1:
        raise UnknownVariation(
            f"{module.__name__} must define exactly one Variation subclass, found {len(found)}"
        )
    return found[0]


def load_file(path: str | Path, code: CodeType | None = None) -> Variation:
    """The variation defined in the rules file at ``path``.

    ``code``: the file already compiled, exactly as the import system would (``compile(source,
    str(path), "exec", dont_inherit=True)``; the sandbox's zygote compiles once for its children);
    it is run in the module instead of compiling the file again (unless it names another file).
    """
    path = Path(path)
    name = path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UnknownVariation(f"cannot load rules file {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if code is None or code.co_filename != spec.origin:
        spec.loader.exec_module(module)
    else:
        exec(code, module.__dict__)  # what exec_module does with the code it compiles
    return variation_class(module)()


def _local_file(name: str) -> Path | None:
    env = os.environ.get("SOLITAIRE_RULES_FILE")
    if env and Path(env).stem == name:
        return Path(env)
    candidate = Path.cwd() / f"{name}.py"
    return candidate if candidate.is_file() else None


def reference_names() -> list[str]:
    """Names of the reference variations, when the reference package is installed."""
    try:
        reference = importlib.import_module("reference")
    except ImportError:
        return []
    names = getattr(reference, "VARIATIONS", None)
    if names is not None:
        return list(names)
    return sorted(m.name for m in pkgutil.iter_modules(reference.__path__))


def local_names() -> list[str]:
    """Names of rules files in the current directory (a student repo)."""
    names = []
    env = os.environ.get("SOLITAIRE_RULES_FILE")
    if env:
        names.append(Path(env).stem)
    for path in sorted(Path.cwd().glob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if "(Variation)" in text and "from solitaire" in text:
            names.append(path.stem)
    return names


def available() -> list[str]:
    """Every variation name that :func:`load` can find, local ones first."""
    names = local_names()
    return names + [n for n in reference_names() if n not in names]


def load(name: str) -> Variation:
    """The variation called ``name`` (see the module docstring for where it looks)."""
    local = _local_file(name)
    if local is not None:
        return load_file(local)
    if name in reference_names():
        return variation_class(importlib.import_module(f"reference.{name}"))()
    known = ", ".join(available()) or "none found"
    raise UnknownVariation(f"unknown variation {name!r} (known: {known})")
