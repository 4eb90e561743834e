"""What a student must write, read from the stubbed module itself (never written twice).

The README's contract section is built from here: the stubbed functions of
the starter module (found with :mod:`ast`), their signatures and docstrings,
the engine's general contract of each rule method (the docstrings of
:class:`solitaire.variation.Variation`) and the engine helpers a rule method
may use (their docstrings).
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from dataclasses import dataclass

from solitaire import cards, piles, state, variation
from solitaire.variation import RULE_METHODS, Variation

from .. import pysource

STUB_COMMENT = "# YOUR CODE HERE"


@dataclass(frozen=True)
class Method:
    """One function the student completes."""

    name: str
    signature: str  # without ``self``
    doc: str  # the variation's docstring: the ruling it implements
    contract: str  # the engine's general contract of this rule method ("" for a helper)
    is_rule: bool


@dataclass(frozen=True)
class Tool:
    """One engine helper a rule method may call."""

    usage: str
    doc: str


def _is_stub(fn: ast.FunctionDef, lines: list[str]) -> bool:
    for node in ast.walk(fn):
        if (
            isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call)
            and isinstance(node.exc.func, ast.Name)
            and node.exc.func.id == "NotImplementedError"
            and node.lineno >= 2
            and lines[node.lineno - 2].strip() == STUB_COMMENT
        ):
            return True
    return False


def _signature(fn: ast.FunctionDef) -> str:
    arguments = fn.args
    if arguments.args and arguments.args[0].arg in ("self", "cls"):
        arguments = ast.arguments(
            posonlyargs=arguments.posonlyargs,
            args=arguments.args[1:],
            vararg=arguments.vararg,
            kwonlyargs=arguments.kwonlyargs,
            kw_defaults=arguments.kw_defaults,
            kwarg=arguments.kwarg,
            defaults=arguments.defaults,
        )
    returns = f" -> {ast.unparse(fn.returns)}" if fn.returns is not None else ""
    return f"{fn.name}({ast.unparse(arguments)}){returns}"


def stubbed_methods(source: str) -> list[Method]:
    """The functions of the starter ``source`` whose body is nbgrader's stub, in source order."""
    tree = pysource.parse(source)
    lines = source.splitlines()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) or node is tree:
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and _is_stub(fn, lines):
                    is_rule = isinstance(node, ast.ClassDef) and fn.name in RULE_METHODS
                    base = getattr(Variation, fn.name, None) if is_rule else None
                    found.append(Method(
                        name=fn.name,
                        signature=_signature(fn),
                        doc=ast.get_docstring(fn) or "",
                        contract=(inspect.getdoc(base) or "") if base else "",
                        is_rule=is_rule,
                    ))
    return sorted(found, key=lambda m: _line_of(tree, m.name))


def _line_of(tree: ast.Module, name: str) -> int:
    return min(n.lineno for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


def _first_paragraph(obj: object) -> str:
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n")[0].split())


def _tool(usage: str, obj: object, fallback: str = "") -> Tool:
    return Tool(usage, _first_paragraph(obj) or fallback)


def _method(cls: type, name: str, owner: str, fallback: str = "") -> Tool:
    """``owner.name(parameters)`` for a method, ``owner.name`` for a property, with its docstring."""
    member = inspect.getattr_static(cls, name)
    if isinstance(member, property) or not callable(member):
        return _tool(f"{owner}.{name}", member, fallback)
    return _tool(f"{owner}.{name}({_plain_parameters(member, skip_self=True)})", member, fallback)


def _plain_parameters(function: Callable[..., object], skip_self: bool = False) -> str:
    parameters = list(inspect.signature(function).parameters.values())[1 if skip_self else 0:]
    return ", ".join(p.name if p.default is p.empty else f"{p.name}={p.default!r}" for p in parameters)


def toolbox() -> list[tuple[str, list[Tool]]]:
    """The engine helpers a rule method may use, grouped, each with its own docstring."""
    st, pile, card = state.State, piles.Pile, cards.Card
    groups: list[tuple[str, list[Tool]]] = [
        ("the state (`state`)", [
            Tool("state[name]", "The pile called `name`: an immutable Pile value (see below)."),
            _method(st, "top", "state"),
            _method(st, "is_empty", "state", "True when pile `name` holds no card."),
            _method(st, "option", "state", "The value of the rule option `name` in this game."),
            Tool("state.phase, state.counters", "The phase word and the named integer counters "
                 "(both part of the state text; you may change them)."),
            _method(st, "take", "state"),
            _method(st, "put", "state"),
            _method(st, "put_under", "state"),
            _method(st, "turn_up", "state"),
        ]),
        ("a pile (`state[name]`)", [
            Tool("pile.cards", "The cards, bottom to top (a tuple)."),
            Tool("pile.down", "How many cards at the bottom are face down."),
            _method(pile, "top", "pile"),
            _method(pile, "face_up", "pile"),
            _method(pile, "top_is_face_up", "pile", "Whether the top card is face up."),
            _method(pile, "is_face_up", "pile"),
            Tool("len(pile)", "The number of cards in the pile."),
        ]),
        ("a card", [
            _tool("card.rank, card.suit", card),  # the class docstring says what they hold
            _method(card, "color", "card"),
            _method(card, "is_red", "card", "True for diamonds and hearts."),
        ]),
    ]
    rank_tools = []
    for name in ("next_rank", "ranks_adjacent"):
        helper: Callable[..., object] | None = getattr(cards, name, None)
        if helper is not None:
            rank_tools.append(_tool(f"{name}({_plain_parameters(helper)})", helper))
    if rank_tools:
        groups.append(("cards (`from solitaire.cards import ...`)", rank_tools))
    groups.append(("your variation (`self`)", [
        _method(variation.Variation, "piles", "self"),
        _method(variation.Variation, "kind", "self"),
    ]))
    return groups
