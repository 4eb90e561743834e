"""Traces: recorded games that a rules implementation must reproduce (format and validation).

A trace is JSON data made from the instructor's reference (``solitaire traces
build``). It starts from a deal (an explicit card list, whose dealt state is
checked) or from any canonical state (mid-game, near-won and end-of-game
positions), then lists steps. Replaying a trace against an implementation
(:mod:`solitaire.replay`) yields one check per question asked; each check
belongs to exactly one rule method, its grading category.

Format 1 (every key not marked optional is required)::

    {"format": 1, "variation": "scorpion", "name": "deal-default-7",
     "description": "...",                      optional, for people
     "rulings": ["S1", "S6"],                   optional, ruling ids exercised
     "options": {"moves": "runs"},              every option of the variation
     "targets": {"t1": "tableau", ...},         the piles card moves may go to, and their kinds
     "start": {"cards": ["7D", ...],            optional: a deal, checked (category deal)
               "state": [LINE, ...]},           the state to start from
     "steps": [STEP, ...]}

    STEP = {"move": "t3>t5",                    optional (a step may only ask questions)
            "action": false,                    with move: an action (deal, s>w ...) or a card move
            "legal": true,                      with move
            "after_move_stage": [LINE, ...],    legal actions: the state after apply_special
            "state": [LINE, ...],               legal moves: the state after the effects
            "probes": [PROBE, ...],             optional: rule-method calls at the state before
            "moves": ["t3>t5", "deal"],         optional: the sorted legal-move set before
            "pickups": {"t3": "110"},           with moves: the reference's can_pick_up(pile, n)
                                                for n = 1, 2 ... face-up cards ("1" = True)
            "won": false,                       optional: is_won after the step
            "categories": ["after_move", ...],  the categories the step scores, sorted
            "note": "..."}                      optional, for people

    PROBE = {"method": "can_pick_up", "args": ["t3", 2], "expect": true}
            # args: can_pick_up [pile, count]; foundation_accepts, tableau_accepts,
            # space_accepts [pile, [cards], source]; special_moves [] (expect: sorted
            # list of moves); is_won [] (expect: bool)

A state is stored as the list of the lines of its canonical text
(:func:`state_text` joins them). What a replay checks, in which order and in
which category, is :mod:`solitaire.replay`'s business.

Public use (a student's tests)::

    from solitaire.protocol import LocalWorker
    from solitaire.replay import failures
    from solitaire.traces import load
    problems = failures(load("traces/scorpion/public-near-won.json"), lambda: LocalWorker(MyVariation()))
    assert not problems, problems[0].message
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .cards import parse_card
from .errors import InvalidNotation, SolitaireError
from .moves import MOVE, REMOVE, parse_move
from .protocol import ACCEPT_METHODS, PROBE_METHODS
from .state import parse_state
from .variation import RULE_METHODS

FORMAT = 1

_CARD = "^[A23456789TJQK][CDHS]$"
_PILE = "^[a-z]+[0-9]*$"
_STATE = {"type": "array", "minItems": 2, "items": {"type": "string"}}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Solitaire Lab trace, format 1",
    "type": "object",
    "required": ["format", "variation", "name", "options", "targets", "start", "steps"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "variation": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
        "name": {"type": "string", "pattern": "^[A-Za-z0-9_.-]+$"},
        "description": {"type": "string"},
        "rulings": {"type": "array", "items": {"type": "string", "pattern": "^[A-Z]{1,2}[0-9]+$"}},
        "options": {
            "type": "object",
            "additionalProperties": {"type": ["boolean", "integer", "string"]},
        },
        "targets": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {"type": "string", "pattern": "^[a-z]+$"},
        },
        "start": {
            "type": "object",
            "required": ["state"],
            "additionalProperties": False,
            "properties": {
                "cards": {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": _CARD}},
                "state": _STATE,
            },
        },
        "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
    },
    "$defs": {
        "step": {
            "type": "object",
            "required": ["categories"],
            "additionalProperties": False,
            "properties": {
                "move": {"type": "string", "minLength": 1},
                "action": {"type": "boolean"},
                "legal": {"type": "boolean"},
                "after_move_stage": _STATE,
                "state": _STATE,
                "probes": {"type": "array", "items": {"$ref": "#/$defs/probe"}},
                "moves": {"type": "array", "items": {"type": "string", "minLength": 1}},
                "pickups": {
                    "type": "object",
                    "additionalProperties": {"type": "string", "pattern": "^[01]+$"},
                },
                "won": {"type": "boolean"},
                "categories": {"type": "array", "items": {"enum": list(RULE_METHODS)}},
                "note": {"type": "string"},
            },
        },
        "probe": {
            "type": "object",
            "required": ["method", "args", "expect"],
            "additionalProperties": False,
            "properties": {
                "method": {"enum": list(PROBE_METHODS)},
                "args": {"type": "array"},
                "expect": {"type": ["boolean", "array"]},
            },
        },
    },
}


class TraceError(SolitaireError, ValueError):
    """A trace that breaks the format; the message names the trace and the step."""


# -- validation ----------------------------------------------------------------
def validate(trace: Any, where: str = "trace", schema: bool = True) -> None:
    """Raise :class:`TraceError` unless ``trace`` is a well-formed format-1 trace.

    ``where`` names the trace in messages (its file, say). The schema is checked
    first, then what a schema cannot say: states, moves and cards parse, probe
    arguments fit their method, and ``categories`` matches the checks of the step.
    ``schema=False`` skips the (slow) schema for traces already validated at
    build time; a structural fault then still fails, as a TraceError.
    """
    if schema:
        try:
            import jsonschema  # imported here: replaying needs no schema library
        except ImportError:  # a student repo without it: the semantic checks still run
            jsonschema = None
    if schema and jsonschema is not None:
        validator = jsonschema.Draft202012Validator(SCHEMA)
        errors = sorted(validator.iter_errors(trace), key=lambda e: [str(p) for p in e.absolute_path])
        if errors:
            error = errors[0]
            raise TraceError(f"{where}: {_location(list(error.absolute_path))}: {error.message}")
    try:
        _check_semantics(trace, where)
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        raise TraceError(f"{where}: malformed trace ({type(error).__name__}: {error})") from None


def _location(path: list[Any]) -> str:
    if not path:
        return "top level"
    parts = []
    index = 0
    while index < len(path):
        key = path[index]
        if key in ("steps", "probes") and index + 1 < len(path) and isinstance(path[index + 1], int):
            parts.append(f"{key[:-1]} {path[index + 1]}")
            index += 2
            continue
        parts.append(str(key))
        index += 1
    return ", ".join(parts)


def _check_semantics(trace: dict[str, Any], where: str) -> None:
    variation = trace["variation"]
    options = trace["options"]

    def parse_checked(text: str, at: str) -> None:
        try:
            state = parse_state(text)
        except InvalidNotation as error:
            raise TraceError(f"{where}: {at}: not a canonical state: {error}") from None
        if state.variation != variation:
            raise TraceError(f"{where}: {at}: state of {state.variation!r}, trace of {variation!r}")
        if state.options != options:
            raise TraceError(f"{where}: {at}: state options {state.options} differ from {options}")

    start = trace["start"]
    parse_checked(state_text(start["state"]), "start")
    for pile in trace["targets"]:
        if not _is_pile(pile):
            raise TraceError(f"{where}: targets: {pile!r} is not a pile name")
    for step_no, step in enumerate(trace["steps"]):
        at = f"step {step_no}"
        _check_step(step, at, where, parse_checked)


def _check_step(step: dict[str, Any], at: str, where: str, parse_checked: Callable[[str, str], None]) -> None:
    def fail(message: str) -> TraceError:
        return TraceError(f"{where}: {at}: {message}")

    derived: set[str] = set()
    if "move" in step:
        for key in ("action", "legal"):
            if key not in step:
                raise fail(f"a step with a move needs {key!r}")
        try:
            move = parse_move(step["move"])
        except InvalidNotation as error:
            raise fail(str(error)) from None
        if str(move) != step["move"]:
            raise fail(f"move {step['move']!r} is not in canonical notation ({move})")
        if not step["action"] and move.kind not in (MOVE, REMOVE):
            raise fail(f"{move} is not a card move or a removal; mark it as an action")
        legal_action = step["legal"] and step["action"]
        if step["legal"] != ("state" in step):
            raise fail("a legal move needs 'state'; an illegal one has none")
        if legal_action != ("after_move_stage" in step):
            raise fail("'after_move_stage' belongs to legal actions and only to them")
        if step["action"]:
            derived.add("special_moves")
        if legal_action:
            derived.add("apply_special")
    else:
        for key in ("action", "legal", "after_move_stage", "state"):
            if key in step:
                raise fail(f"{key!r} needs a move")
        if not step.get("probes") and "moves" not in step and "won" not in step:
            raise fail("a step without a move must ask something (probes, moves or won)")
    for key in ("after_move_stage", "state"):
        if key in step:
            parse_checked(state_text(step[key]), f"{at}, {key}")
    for probe_no, probe in enumerate(step.get("probes", ())):
        _check_probe(probe, f"{at}, probe {probe_no}", where)
        derived.add(probe["method"])
    if ("moves" in step) != ("pickups" in step):
        raise fail("'moves' and 'pickups' go together")
    if "moves" in step:
        moves = step["moves"]
        if moves != sorted(set(moves)):
            raise fail("'moves' must be sorted and without repeats")
        for text in moves:
            try:
                if str(parse_move(text)) != text:
                    raise fail(f"move {text!r} in 'moves' is not canonical")
            except InvalidNotation as error:
                raise fail(f"in 'moves': {error}") from None
    if "won" in step:
        derived.add("is_won")
    categories = step["categories"]
    if categories != sorted(set(categories)):
        raise fail("'categories' must be sorted and without repeats")
    optional = {"after_move"} if step.get("legal") else set()
    if not derived <= set(categories) <= derived | optional:
        want = sorted(derived) + [f"optionally {c}" for c in sorted(optional - derived)]
        raise fail(f"categories {categories} do not match the step's checks: expected {want}")


def _check_probe(probe: dict[str, Any], at: str, where: str) -> None:
    method, args, expect = probe["method"], probe["args"], probe["expect"]

    def fail(message: str) -> TraceError:
        return TraceError(f"{where}: {at}: {method}: {message}")

    if method == "can_pick_up":
        if not (len(args) == 2 and _is_pile(args[0]) and type(args[1]) is int and args[1] >= 1):
            raise fail(f"arguments must be [pile, count >= 1], got {args}")
    elif method in ACCEPT_METHODS:
        if not (len(args) == 3 and _is_pile(args[0]) and isinstance(args[1], list) and args[1]
                and isinstance(args[2], str) and all(_is_pile(p) for p in args[2].split("+"))):
            raise fail(f"arguments must be [pile, [cards], source pile or removal a+b], got {args}")
        for card in args[1]:
            try:
                if not isinstance(card, str) or str(parse_card(card)) != card:
                    raise fail(f"{card!r} is not a card in canonical notation")
            except InvalidNotation:
                raise fail(f"{card!r} is not a card") from None
    elif args:
        raise fail(f"takes no arguments, got {args}")
    if method == "special_moves":
        if not (isinstance(expect, list) and all(isinstance(m, str) for m in expect)
                and expect == sorted(set(expect))):
            raise fail("'expect' must be the sorted list of legal actions")
    elif not isinstance(expect, bool):
        raise fail("'expect' must be true or false")


def _is_pile(value: Any) -> bool:
    return isinstance(value, str) and bool(value) and value[0].isalpha() and value.isalnum()


def state_text(lines: list[str]) -> str:
    """The canonical state text of a state stored in a trace (a list of its lines)."""
    return "\n".join(lines) + "\n"


def state_lines(text: str) -> list[str]:
    """How a canonical state text is stored in a trace: its lines."""
    return text.splitlines()


def load(path: str | Path, schema: bool = True) -> dict[str, Any]:
    """Read and validate the trace file ``path`` (``schema``: see :func:`validate`)."""
    path = Path(path)
    try:
        trace = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise TraceError(f"{path}: cannot read: {error}") from None
    except json.JSONDecodeError as error:
        raise TraceError(f"{path}: not JSON: {error}") from None
    validate(trace, str(path), schema)
    return trace


def load_dir(directory: str | Path, schema: bool = True) -> list[dict[str, Any]]:
    """Every trace ``*.json`` in ``directory``, validated, sorted by file name."""
    return [load(path, schema) for path in sorted(Path(directory).glob("*.json"))]


def dumps(trace: dict[str, Any]) -> str:
    """The canonical file text of a trace: stable (rebuilt traces compare byte for byte)
    and readable (a probe or a card list on one line, a state one pile per line)."""
    return _pretty(trace, 0) + "\n"


def _pretty(value: Any, depth: int) -> str:
    flat = json.dumps(value, ensure_ascii=True)
    if not isinstance(value, (list, dict)) or len(flat) + depth <= 100:
        return flat
    if isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value):
        if not any(isinstance(v, str) and " " in v for v in value):
            return flat  # a long list of cards or moves stays on one line
    pad = " " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {_pretty(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"
    items = [pad + _pretty(v, depth + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"
