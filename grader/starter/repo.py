"""``solitaire starter repo VARIATION DEST``: a complete student repo for one variation.

The repo holds the stubbed rules module ``VARIATION.py`` (the one file the
student edits, taken from ``starter/``), a vendored copy of the engine package
``solitaire/``, public tests replaying the public traces of ``starter/traces/``,
a README rendered from templates, ``pyproject.toml`` and ``.gitignore``. It
needs nothing from this project: no ``reference``, no ``grader``.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import shutil
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

import reference
import solitaire
from solitaire import catalog
from solitaire.engine import new_game
from solitaire.state import format_state
from solitaire.variation import RULE_METHODS, Variation

from .. import pysource
from .build import PROJECT_ROOT, STARTER_DIR
from .contract import stubbed_methods, toolbox

ENGINE_DIR = Path(solitaire.__file__).resolve().parent
TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
RULES_DIR = PROJECT_ROOT / "docs" / "rules"
PYPROJECT_FILE = PROJECT_ROOT / "pyproject.toml"
FORBIDDEN_PACKAGES = ("reference", "grader")
TEST_DEPENDENCIES = ("pytest", "pytest-timeout")
EXAMPLE_SEED = 1


class RepoError(Exception):
    """A request the generator cannot honour; the message is one line fit for the user."""


@dataclass(frozen=True)
class PileGroup:
    kind: str
    names: str
    note: str


def make_repo(
    name: str,
    dest: str | Path,
    force: bool = False,
    starter_dir: Path = STARTER_DIR,
    points: Mapping[str, float] | None = None,
    course: Mapping[str, Any] | None = None,
) -> list[Path]:
    """Write the student repo of variation ``name`` into ``dest``; return the files written.

    ``dest`` may be absent or an empty directory; a non-empty one is refused
    unless ``force`` (then the generated files and folders are replaced and
    anything else is left in place). ``points`` (per rule category) overrides
    the catalog's, for a course that changed them. ``course`` (from
    :func:`grader.starter.terms.course_terms`) puts the course's deadline and
    late policy in the README.
    """
    if name not in reference.VARIATIONS:
        raise RepoError(f"unknown variation {name!r} (known: {', '.join(reference.VARIATIONS)})")
    starter_file = starter_dir / f"{name}.py"
    if not starter_file.is_file():
        raise RepoError(f"no starter for {name} in {starter_dir}: run `solitaire starter build` first")
    dest = Path(dest)
    _check_destination(dest, force)
    engine_modules = engine_imports(ENGINE_DIR)
    forbidden = sorted(m for m in engine_modules if m in FORBIDDEN_PACKAGES)
    if forbidden:
        raise RepoError(f"the engine in {ENGINE_DIR} imports {', '.join(forbidden)}; it cannot be vendored")

    stub_text = starter_file.read_text(encoding="utf-8")
    traces_source = starter_dir / "traces" / name
    context = repo_context(name, stub_text, engine_modules, traces_source, points, course)
    written: list[Path] = []

    def write(relative: str, text: str) -> None:
        path = dest / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        written.append(path)

    dest.mkdir(parents=True, exist_ok=True)
    write(f"{name}.py", stub_text)
    written.extend(_copy_tree(ENGINE_DIR, dest / "solitaire"))
    written.extend(_copy_tree(traces_source, dest / "tests" / "traces", pattern="*.json"))
    environment = _templates()
    write("README.md", environment.get_template("README.md.j2").render(context))
    write("pyproject.toml", environment.get_template("pyproject.toml.j2").render(context))
    write(".gitignore", environment.get_template("gitignore.j2").render(context))
    write("tests/test_public.py", environment.get_template("test_public.py.j2").render(context))
    return written


def _check_destination(dest: Path, force: bool) -> None:
    if dest.exists() and not dest.is_dir():
        raise RepoError(f"{dest} exists and is not a directory")
    if dest.is_dir() and any(dest.iterdir()) and not force:
        raise RepoError(f"{dest} is not empty (use --force to write into it anyway)")


def _copy_tree(source: Path, target: Path, pattern: str = "*") -> list[Path]:
    """Copy the files of ``source`` (recursively, no caches) to ``target``, replacing it."""
    if target.exists():
        shutil.rmtree(target)
    if not source.is_dir():
        return []
    copied = []
    for path in sorted(source.rglob(pattern)):
        relative = path.relative_to(source)
        if path.is_dir() or "__pycache__" in relative.parts or path.suffix in (".pyc", ".pyo"):
            continue
        out = target / relative
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(path.read_bytes())
        copied.append(out)
    return copied


def engine_imports(package_dir: Path) -> set[str]:
    """The top-level names of every absolute import in the package's modules."""
    names: set[str] = set()
    for path in sorted(package_dir.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        for node in ast.walk(pysource.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


# -- what the templates receive ---------------------------------------------
def repo_context(
    name: str,
    stub_text: str,
    engine_modules: set[str],
    traces: Path,
    points: Mapping[str, float] | None = None,
    course: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything the templates need, computed from the starter, the engine and the project files."""
    from .terms import rule_tests
    variation = load_starter(name, stub_text)
    methods = stubbed_methods(stub_text)
    entry = catalog_entry(name)
    if points is None and entry is not None:
        points = entry.points
    graded_options = entry.graded_options if entry is not None else {}
    categories = [m.name for m in methods if m.is_rule]
    project = _project_table()
    return {
        "name": name,
        "title": variation.title,
        "class_name": type(variation).__name__,
        "deck": variation.deck.describe(),
        "methods": methods,
        "categories": categories,
        "defaults": [m for m in RULE_METHODS if m not in categories],
        "helpers": [m for m in methods if not m.is_rule],
        "toolbox": [(group, tools) for group, tools in toolbox()],
        "options": [
            {"name": o.name, "default": _option_text(o.default), "doc": o.doc,
             "choices": [_option_text(c) for c in o.allowed()],
             "graded": [_option_text(v) for v in graded_options.get(o.name, [])]}
            for o in variation.options
        ],
        "piles": pile_groups(variation),
        "example_seed": EXAMPLE_SEED,
        "example_state": _example_state(name),
        "rules": rules_page(name),
        "points": dict(points) if points else None,
        "total_points": sum(points.values()) if points else None,
        "tests": rule_tests(name, points) if points else None,
        "course": dict(course) if course else None,
        "trace_count": len(list(traces.glob("*.json"))) if traces.is_dir() else 0,
        "dependencies": dependencies(engine_modules),
        "requires_python": project.get("requires-python", ">=3.11"),
        "scripts": {k: v for k, v in project.get("scripts", {}).items() if _in_engine(v)},
        "commands": {
            k: v for k, v in project.get("entry-points", {}).get("solitaire.commands", {}).items()
            if _in_engine(v)
        },
    }


def load_starter(name: str, stub_text: str) -> Variation:
    """An instance of the starter's variation class (class bodies run; no rule method is called)."""
    module_name = f"_solitaire_starter_{name}"
    spec = importlib.util.spec_from_loader(module_name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        exec(compile(stub_text, f"starter/{name}.py", "exec"), module.__dict__)
        return catalog.variation_class(module)()
    finally:
        del sys.modules[module_name]


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def pile_groups(variation: Variation) -> list[PileGroup]:
    """The variation's piles grouped by kind, in layout order, with their capabilities."""
    groups: list[PileGroup] = []
    for kind in dict.fromkeys(spec.kind for spec in variation.layout.piles):
        specs = [s for s in variation.layout.piles if s.kind == kind]
        names = [s.name for s in specs]
        shown = f"{names[0]} … {names[-1]}" if len(names) > 2 else ", ".join(names)
        notes = []
        if {s.capacity for s in specs} != {None}:
            notes.append("capacity " + "/".join(sorted({str(s.capacity) for s in specs})))
        targets = {s.is_target for s in specs}
        notes.append("cards may be moved onto them" if targets == {True} else "no card is moved onto them")
        groups.append(PileGroup(kind, shown, "; ".join(notes)))
    return groups


def _example_state(name: str) -> str:
    module = importlib.import_module(f"reference.{name}")
    return format_state(new_game(catalog.variation_class(module)(), EXAMPLE_SEED)).rstrip("\n")


def rules_page(name: str) -> str | None:
    """docs/rules/<name>.md without its title line, headings one level deeper; None if absent."""
    path = RULES_DIR / f"{name}.md"
    if not path.is_file():
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    if lines and re.match(r"#\s", lines[0]):
        lines.pop(0)
    out, fenced = [], False
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,5}\s", line):
            line = "#" + line
        out.append(line)
    # in a student repo the rules module is the file at the root, not reference/<name>.py
    return "\n".join(out).strip("\n").replace(f"reference/{name}.py", f"{name}.py")


def catalog_entry(name: str) -> Any | None:
    """The catalog entry of ``name`` (points per rule category, graded options), or None.

    None when the catalog (``grader.catalog``, reading assignments/catalog.toml)
    is not there or has no entry for ``name``; a malformed catalog is a UserError.
    """
    try:
        grader_catalog: Any = importlib.import_module("grader.catalog")
    except ImportError:
        return None
    if not Path(grader_catalog.CATALOG_FILE).is_file():
        return None
    try:
        return grader_catalog.entry(name)
    except LookupError:
        return None


def _project_table() -> dict[str, Any]:
    with PYPROJECT_FILE.open("rb") as handle:
        project: dict[str, Any] = tomllib.load(handle).get("project", {})
    return project


def _in_engine(target: str) -> bool:
    """Whether an entry point ``package.module:function`` lives in the vendored engine."""
    module = target.split(":")[0]
    parts = module.split(".")
    if parts[0] != "solitaire":
        return False
    base = ENGINE_DIR.joinpath(*parts[1:])
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _normalise(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def dependencies(engine_modules: set[str]) -> list[str]:
    """Requirements of the student repo: the engine's third-party imports, then the test tools.

    Versions are the project's own requirements (pyproject.toml) for the same distribution.
    """
    from importlib.metadata import packages_distributions

    declared: dict[str, str] = {}
    for requirement in _project_table().get("dependencies", []):
        match = re.match(r"[A-Za-z0-9_.-]+", requirement)
        if match:
            declared[_normalise(match.group(0))] = requirement
    third_party = sorted(
        m for m in engine_modules if m not in sys.stdlib_module_names and m not in ("solitaire", "__future__")
    )
    distributions = packages_distributions()
    wanted: list[str] = []
    for module in third_party:
        for distribution in distributions.get(module, [module]):
            wanted.append(_normalise(distribution))
    wanted.extend(TEST_DEPENDENCIES)
    return [declared.get(d, d) for d in dict.fromkeys(wanted)]


def _markdown_code(text: str) -> str:
    """Docstrings write code as ``x`` (reStructuredText); Markdown writes `x`."""
    return re.sub(r"``(.+?)``", r"`\1`", text)


def _quote(text: str) -> str:
    return "\n".join(f"> {line}".rstrip() for line in text.splitlines())


def _templates() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    environment.filters["md"] = _markdown_code
    environment.filters["quote"] = _quote
    return environment
