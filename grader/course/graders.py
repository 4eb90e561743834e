"""The graders ``course grade`` can run, by name.

* ``sandbox`` (the default): the real autograder, :mod:`grader.grade`, which
  replays the hidden suite against the student's code in the sandbox.
* ``package.module:function``: a grader of your own with the same signature.
* ``static``: a fast structural check for tests and dry runs. It never runs
  the student's code: it parses the student's rules file and gives a rule
  category its points when the student replaced the stub of its method
  (``raise NotImplementedError``) with code. It proves the workflow, not
  the rules.

Each grader is ``grade(submission_dir, variation, out_dir, timeout, points=None) -> results``
(writing ``out_dir/results.json`` in Gradescope's format and ``out_dir/feedback.md``;
``points``: the course's points per rule category) plus ``version()``, a string
that changes whenever the grader could give a different result (part of the
results store's key).
"""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import pysource
from .points import catalog_points

GradeFunction = Callable[..., dict[str, Any]]


# -- sandbox: the real grader -----------------------------------------------------------
class GraderError(Exception):
    """The grader could not finish (not the submission's fault): the key is not stored, so a rerun retries."""


def sandbox_grade(
    submission: Path, variation: str, out: Path, timeout: float, points: dict[str, float] | None = None
) -> dict[str, Any]:
    """Grade with the sandboxed autograder (:func:`grader.grade.grade_submission`)."""
    from grader.grade import grade_submission

    results = grade_submission(submission, variation, out, timeout=timeout, points=points)
    if results.get("extra_data", {}).get("internal_error"):
        raise GraderError(f"the grader could not finish; its log is {out / 'grader-error.log'}")
    return results


def _tree_digest(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for root in paths:
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in files:
            if "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo"):
                continue
            digest.update(str(path.relative_to(root.parent)).encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:12]


#: what decides a grade of the sandboxed grader, relative to the grader package
GRADING_PARTS = ("grade.py", "scoring.py", "feedback.py", "feedback_model.py", "feedback_render.py",
                 "load_status.py", "templates", "catalog.py", "suite", "sandbox", "traces", "trace_cache.py")


def sandbox_version() -> str:
    """The grader's own version when it states one, else a digest of everything that decides a grade.

    The digest covers the engine (``solitaire/``), the grading modules of
    ``grader/`` (:data:`GRADING_PARTS`: scoring, feedback, hidden suite, sandbox,
    hidden traces) and the catalog, so changing any of them regrades on the
    next run; the course workflow, the starters and the docs do not count.
    """
    import grader
    import solitaire
    from grader import grade

    stated = getattr(grade, "GRADER_VERSION", None)
    if stated:
        return str(stated)
    grader_dir = Path(grader.__file__).parent
    parts = [Path(solitaire.__file__).parent]
    parts += [grader_dir / name for name in GRADING_PARTS if (grader_dir / name).exists()]
    catalog = grader_dir.parent / "assignments" / "catalog.toml"
    if catalog.exists():
        parts.append(catalog)
    return f"sandbox-{_tree_digest(parts)}"


# -- static: a structural check ------------------------------------------------------------
STATIC_VERSION = "static-1"


def _variation_class(tree: ast.Module) -> ast.ClassDef | None:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(
            (isinstance(base, ast.Name) and base.id == "Variation")
            or (isinstance(base, ast.Attribute) and base.attr == "Variation")
            for base in node.bases
        ):
            return node
    return None


def _is_stub(function: ast.FunctionDef) -> bool:
    """Whether the body is only a docstring and ``raise NotImplementedError``."""
    body = list(function.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return not body
    exc = body[0].exc
    name = exc.func if isinstance(exc, ast.Call) else exc
    return isinstance(name, ast.Name) and name.id == "NotImplementedError"


def static_grade(
    submission: Path, variation: str, out: Path, timeout: float, points: dict[str, float] | None = None
) -> dict[str, Any]:
    """The structural check (see the module docstring); writes results.json and feedback.md."""
    points = points or catalog_points(variation)
    rules = submission / f"{variation}.py"
    methods: dict[str, ast.FunctionDef] = {}
    problem, status = "", "ok"  # status: as grader/load_status.py names it
    try:
        tree = pysource.parse(rules.read_text(encoding="utf-8"), filename=rules.name)
        cls = _variation_class(tree)
        if cls is None:
            problem, status = f"{rules.name} defines no Variation subclass", "no-variation-class"
        else:
            methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    except FileNotFoundError:
        problem, status = f"{rules.name} is missing from the submission", "missing-file"
    except (SyntaxError, UnicodeDecodeError, ValueError) as error:
        line = getattr(error, "lineno", None)
        problem = f"{rules.name} cannot be parsed" + (f" (line {line})" if line else "")
        status = "syntax-error"
    tests: list[dict[str, Any]] = []
    for category, max_score in points.items():
        done = category in methods and not _is_stub(methods[category])
        tests.append({
            "name": category,
            "score": max_score if done else 0.0,
            "max_score": max_score,
            "output": "implemented" if done else (problem or "still the starter's stub"),
        })
    results = {
        "score": sum(float(t["score"]) for t in tests),
        "output": "Structural check (the code was not run)." + (f" {problem}." if problem else ""),
        "tests": tests,
        "extra_data": {"status": status},
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    lines = [f"# {variation}: structural check", ""]
    lines += [f"- {t['name']}: {t['score']:g}/{t['max_score']:g} ({t['output']})" for t in tests]
    (out / "feedback.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return results


GRADERS: dict[str, tuple[GradeFunction, Callable[[], str]]] = {
    "sandbox": (sandbox_grade, sandbox_version),
    "static": (static_grade, lambda: STATIC_VERSION),
}


def get(name: str) -> tuple[GradeFunction, Callable[[], str]]:
    """The grader called ``name``, or a plug-in grader ``package.module:function``.

    A plug-in's version is its module's ``VERSION`` (default: its name).
    """
    import importlib

    from solitaire.errors import UserError

    if name in GRADERS:
        return GRADERS[name]
    module_name, _, function = name.partition(":")
    if not function:
        raise UserError(f"unknown grader {name!r} (known: {', '.join(GRADERS)}, or module:function)")
    try:
        module = importlib.import_module(module_name)
        grade = getattr(module, function)
    except (ImportError, AttributeError) as error:
        raise UserError(f"cannot load the grader {name!r}: {error}") from None
    version = str(getattr(module, "VERSION", name))
    return grade, lambda: version
