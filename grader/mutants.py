"""AST mutants of a reference variation, restricted to its solution regions.

Each mutant changes one thing inside one rule method's ``### BEGIN SOLUTION``
/ ``### END SOLUTION`` region:

==============  ===============================================================
operator        change
==============  ===============================================================
compare         ``==``/``!=``, ``<``/``<=``, ``>``/``>=``, ``<``/``>``, ``in``/``not in``, ``is``/``is not``
boolop          ``and`` <-> ``or``
not             drop a ``not``
negate          negate the test of an ``if``, a conditional expression or a comprehension filter
return          ``return x`` -> ``return not x`` in a method answering True/False
constant        an integer ``c`` -> ``c + 1`` and ``c - 1``; ``True`` <-> ``False``
arith           ``+``/``-``, ``*``/``//``, ``%`` -> ``//`` (also in ``+=`` ...)
statement       a statement replaced by ``pass``
swap            the first two positional arguments of a call exchanged (not of a
                symmetric function, ``min``, ``max``, ``ranks_adjacent``: only
                equivalent mutants by construction)
builtin         ``all``/``any``, ``min``/``max``
loop            ``break`` <-> ``continue``
==============  ===============================================================

A mutant is *killed* when grading it loses points. Grading runs each mutant
in a forked child with a time limit (a mutant may loop forever), in-process
with :class:`~solitaire.protocol.LocalWorker`: mutants are trusted code.
"""

from __future__ import annotations

import ast
import copy
import importlib
import inspect
import multiprocessing
import os
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from solitaire.catalog import variation_class
from solitaire.protocol import BOOL_METHODS
from solitaire.variation import RULE_METHODS, Variation

from . import pysource
from .traces.facts import rule_methods_of  # noqa: F401 - re-exported for callers

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"

_COMPARE_SWAPS: dict[type, list[type]] = {
    ast.Eq: [ast.NotEq], ast.NotEq: [ast.Eq],
    ast.Lt: [ast.LtE, ast.Gt], ast.LtE: [ast.Lt, ast.GtE],
    ast.Gt: [ast.GtE, ast.Lt], ast.GtE: [ast.Gt, ast.LtE],
    ast.In: [ast.NotIn], ast.NotIn: [ast.In], ast.Is: [ast.IsNot], ast.IsNot: [ast.Is],
}
_ARITH_SWAPS: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv, ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr,
}
_BUILTIN_SWAPS = {"all": "any", "any": "all", "min": "max", "max": "min"}
#: functions whose first two arguments may be exchanged without changing the result
#: (``solitaire.cards.ranks_adjacent``: adjacency is symmetric)
_SYMMETRIC = {"min", "max", "ranks_adjacent"}


@dataclass
class Mutant:
    """One mutation: where (method, line), what (operator, before -> after) and the code."""

    id: int
    method: str
    line: int
    operator: str
    before: str
    after: str
    code: Any = field(repr=False, default=None)
    categories: frozenset[str] = frozenset()  # the categories this method's code serves
    key: str = ""  # its name in a survivors file (see grader.check_suite.assign_keys)

    @property
    def label(self) -> str:
        return f"{self.method}:{self.line} {self.operator}: {self.before} -> {self.after}"


def solution_lines(source: str) -> set[int]:
    """Line numbers (1-based) strictly inside solution regions."""
    inside = False
    lines: set[int] = set()
    for number, line in enumerate(source.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith(BEGIN):
            inside = True
        elif stripped.startswith(END):
            inside = False
        elif inside:
            lines.add(number)
    return lines


class _Sites(ast.NodeVisitor):
    """Finds every mutation site inside the solution lines, in a fixed order."""

    def __init__(self, lines: set[int]) -> None:
        self.lines = lines
        self.sites: list[tuple[str, str, Callable[[Any], Any], ast.AST]] = []
        self.method = ""

    def _in(self, node: ast.AST) -> bool:
        return getattr(node, "lineno", 0) in self.lines

    def add(self, node: ast.AST, operator: str, change: Callable[[Any], Any]) -> None:
        self.sites.append((self.method, operator, change, node))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer = self.method
        self.method = node.name if not outer else outer
        self.generic_visit(node)
        self.method = outer

    def generic_visit(self, node: ast.AST) -> None:
        if self._in(node):
            self._sites_of(node)
        super().generic_visit(node)

    def _sites_of(self, node: ast.AST) -> None:
        if isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                for new in _COMPARE_SWAPS.get(type(op), []):
                    self.add(node, "compare", _set_op(index, new))
        elif isinstance(node, ast.BoolOp):
            self.add(node, "boolop", lambda n: _replace(n, op=ast.Or() if isinstance(n.op, ast.And)
                                                         else ast.And()))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.add(node, "not", lambda n: n.operand)
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            self.add(node, "constant", lambda n: ast.Constant(not n.value))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            self.add(node, "constant", lambda n: ast.Constant(n.value + 1))
            self.add(node, "constant", lambda n: ast.Constant(n.value - 1))
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _ARITH_SWAPS:
            self.add(node, "arith", lambda n: _replace(n, op=_ARITH_SWAPS[type(n.op)]()))
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in _BUILTIN_SWAPS:
                self.add(node, "builtin", lambda n: _replace(n, func=ast.Name(_BUILTIN_SWAPS[n.func.id],
                                                                              ast.Load())))
            symmetric = isinstance(node.func, ast.Name) and node.func.id in _SYMMETRIC
            if len(node.args) >= 2 and not symmetric and not any(
                isinstance(a, ast.Starred) for a in node.args[:2]
            ):
                self.add(node, "swap", lambda n: _replace(n, args=[n.args[1], n.args[0], *n.args[2:]]))
        elif isinstance(node, (ast.Break, ast.Continue)):
            self.add(node, "loop", lambda n: ast.Continue() if isinstance(n, ast.Break) else ast.Break())
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            self.add(node, "negate", lambda n: _replace(n, test=ast.UnaryOp(ast.Not(), n.test)))
        if isinstance(node, ast.comprehension):
            for index in range(len(node.ifs)):
                self.add(node, "negate", _negate_if(index))
        if isinstance(node, ast.Return) and node.value is not None and self.method in BOOL_METHODS:
            self.add(node, "return", lambda n: _replace(n, value=ast.UnaryOp(ast.Not(), n.value)))
        if isinstance(node, ast.stmt) and not _is_docstring(node):
            self.add(node, "statement", lambda n: ast.Pass())


def _replace(node: ast.AST, **changes: Any) -> ast.AST:
    new = copy.copy(node)
    for key, value in changes.items():
        setattr(new, key, value)
    return new


def _set_op(index: int, new: type) -> Callable[[ast.AST], ast.AST]:
    def change(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Compare)
        ops = list(node.ops)
        ops[index] = new()
        return _replace(node, ops=ops)
    return change


def _negate_if(index: int) -> Callable[[ast.AST], ast.AST]:
    def change(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.comprehension)
        ifs = list(node.ifs)
        ifs[index] = ast.UnaryOp(ast.Not(), ifs[index])
        return _replace(node, ifs=ifs)
    return change


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(
        node.value.value, str)


class _Apply(ast.NodeTransformer):
    def __init__(self, target: ast.AST, change: Callable[[ast.AST], ast.AST | None]) -> None:
        self.target = target
        self.change = change

    def visit(self, node: ast.AST) -> Any:
        if node is self.target:
            new = self.change(node)
            return ast.copy_location(new, node) if new is not None else None
        return super().visit(node)


def reference_source(name: str) -> tuple[str, str]:
    """(module name, source text) of the reference module of variation ``name``."""
    module = importlib.import_module(f"reference.{name}")
    return module.__name__, inspect.getsource(module)


def generate(name: str, source: str | None = None) -> list[Mutant]:
    """Every mutant of the reference module of ``name`` (or of ``source``), compiled."""
    if source is None:
        _, source = reference_source(name)
    lines = solution_lines(source)
    finder = _Sites(lines)
    finder.visit(pysource.parse(source))
    serves = served_categories(pysource.parse(source))
    mutants = []
    for index, (method, operator, change, node) in enumerate(finder.sites):
        tree = pysource.parse(source)
        # find the same node in a fresh tree: the index-th site of a fresh finder
        fresh = _Sites(lines)
        fresh.visit(tree)
        target = fresh.sites[index][3]
        before = ast.unparse(target) if not isinstance(target, ast.stmt) else _first_line(target)
        new: ast.AST = change(copy.deepcopy(target))
        after = "pass" if isinstance(new, ast.Pass) else (
            ast.unparse(new) if not isinstance(new, ast.stmt) else _first_line(new))
        tree = _Apply(target, _constant(new)).visit(tree)
        ast.fix_missing_locations(tree)
        code = compile(tree, f"<mutant {name}#{index}>", "exec")
        mutants.append(Mutant(index, method, getattr(node, "lineno", 0), operator, before, after, code,
                              frozenset(serves.get(method, {method}))))
    return mutants


def served_categories(tree: ast.Module) -> dict[str, set[str]]:
    """For each method of the module's classes, the rule methods that run it (itself, or
    callers through ``self.name(...)``, transitively): the categories a bug in it may cost."""
    calls: dict[str, set[str]] = {}
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for function in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
            calls[function.name] = {
                node.attr for node in ast.walk(function)
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "self"
            }
    served: dict[str, set[str]] = {name: set() for name in calls}
    for rule in (name for name in calls if name in RULE_METHODS):
        stack, reached = [rule], {rule}
        while stack:
            for callee in calls.get(stack.pop(), ()):
                if callee in calls and callee not in reached:
                    reached.add(callee)
                    stack.append(callee)
        for name in reached:
            served[name].add(rule)
    return served


def _constant(node: ast.AST) -> Callable[[Any], ast.AST]:
    return lambda _old: node


def _first_line(node: ast.AST) -> str:
    return ast.unparse(node).splitlines()[0]


def instantiate(mutant: Mutant, name: str) -> Variation:
    module = types.ModuleType(f"mutant_{name}_{mutant.id}")
    exec(mutant.code, module.__dict__)  # noqa: S102 - trusted: a mutant of the reference
    return variation_class(module)()


# -- grading mutants -------------------------------------------------------------
@dataclass
class Outcome:
    mutant: Mutant
    lost: dict[str, float]  # category -> share of its points lost (only categories that lost)
    status: str  # "killed", "survived", "timeout", "error"
    detail: str = ""

    @property
    def killed(self) -> bool:
        return self.status != "survived"

    @property
    def own_category_only(self) -> bool:
        """Whether the points lost were lost only in the mutated method's category
        (for a helper method: in the categories of the rule methods that call it)."""
        return set(self.lost) <= (self.mutant.categories or {self.mutant.method})


MEMORY_LIMIT = 1 << 30  # bytes of address space a mutant's child may use


def _child(connection: Any, grade: Callable[[Variation], dict[str, float]], mutant: Mutant,
           name: str) -> None:
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = MEMORY_LIMIT if hard == resource.RLIM_INFINITY else min(MEMORY_LIMIT, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass
    try:
        counts = grade(instantiate(mutant, name))
        connection.send(("ok", counts))
    except BaseException as error:  # noqa: BLE001 - reported to the parent
        connection.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        connection.close()


def run(name: str, grade: Callable[[Variation], dict[str, float]], jobs: int = 1,
        timeout: float = 60.0, mutants: list[Mutant] | None = None,
        progress: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Grade every mutant of ``name`` with ``grade`` (variation -> {category: share of points lost}).

    Each mutant runs in a forked child, at most ``jobs`` at once, each for at
    most ``timeout`` seconds (a mutant that runs longer counts as killed).
    """
    mutants = generate(name) if mutants is None else mutants
    context = multiprocessing.get_context("fork")
    pending = list(mutants)
    running: list[tuple[Any, Any, Mutant, float]] = []
    outcomes: dict[int, Outcome] = {}
    while pending or running:
        while pending and len(running) < max(1, jobs):
            mutant = pending.pop(0)
            parent, child = context.Pipe(duplex=False)
            process = context.Process(target=_child, args=(child, grade, mutant, name), daemon=True)
            process.start()
            child.close()
            running.append((process, parent, mutant, time.monotonic()))
        time.sleep(0.01)
        still = []
        for process, parent, mutant, started in running:
            outcome = None
            if parent.poll():
                try:
                    kind, payload = parent.recv()
                except EOFError:
                    kind, payload = "error", "the child died"
                outcome = _outcome(mutant, kind, payload)
            elif not process.is_alive():
                outcome = Outcome(mutant, {}, "error", f"the child exited with {process.exitcode}")
            elif time.monotonic() - started > timeout:
                process.kill()
                outcome = Outcome(mutant, {}, "timeout", f"no result within {timeout:.0f} s")
            if outcome is None:
                still.append((process, parent, mutant, started))
                continue
            process.join(1)
            parent.close()
            outcomes[mutant.id] = outcome
            if progress is not None:
                progress(outcome)
        running = still
    return [outcomes[m.id] for m in mutants]


def _outcome(mutant: Mutant, kind: str, payload: Any) -> Outcome:
    if kind != "ok":
        return Outcome(mutant, {}, "error", str(payload))
    lost = {c: share for c, share in payload.items() if share > 0}
    return Outcome(mutant, lost, "killed" if lost else "survived")


def default_jobs() -> int:
    return max(1, (os.cpu_count() or 1))


def summarize(outcomes: list[Outcome]) -> Iterator[str]:
    for outcome in outcomes:
        if not outcome.killed:
            yield f"SURVIVED #{outcome.mutant.id} {outcome.mutant.label}"
