"""Traces: recorded games that a rules implementation must reproduce, and their replay.

A trace is JSON data made from the instructor's reference (``solitaire traces
build``). It starts from a deal (an explicit card list, whose dealt state is
checked) or from any canonical state (mid-game, near-won and end-of-game
positions), then lists steps. Replaying a trace against an implementation,
through a :class:`~solitaire.protocol.Worker`, yields one :class:`Check` per
question asked; each check belongs to exactly one rule method, its grading
category.

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
(:func:`state_text` joins them). What each step checks, in order, and in
which category:

1. every probe, in the category of its method;
2. ``moves``: the whole legal-move set. Each difference is blamed on the
   method that caused it: an action on ``special_moves``; a card move
   ``src:n>dst`` on ``can_pick_up`` when the implementation's
   ``can_pick_up(src, n)`` differs from ``pickups``, else on the accept method
   of ``dst``. A category already failed by a probe of the step is not charged
   again, and an equal set adds no check (the probes carry the score);
3. an action's legality verdict (``special_moves``). A card move's verdict is
   the conjunction of ``can_pick_up`` and the accept method of its target, so
   it is checked through those two probes, each in its own category;
4. for a legal action, the state after the action itself (``apply_special``);
5. for a legal move, the state after the effects (``after_move``; compared on
   every legal move, scored where ``categories`` lists ``after_move``);
6. ``won`` (``is_won``).

After every mismatch or error the worker is loaded with the expected state
(resync), so one bug costs the checks of its own category only. A worker
error (an exception in student code, a timeout, a crash) fails the check it
happened in, with a message naming the rule, and the replay goes on.

Public use (a student's tests)::

    from solitaire.protocol import LocalWorker
    from solitaire.traces import failures, load
    problems = failures(load("traces/scorpion/public-near-won.json"), LocalWorker(MyVariation()))
    assert not problems, problems[0].message
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .ahead import SNAPSHOT, Ahead, Item
from .cards import parse_card
from .errors import InvalidNotation, SolitaireError
from .moves import MOVE, parse_move
from .protocol import ACCEPT_METHODS, PROBE_METHODS, Worker, WorkerError
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
        "rulings": {"type": "array", "items": {"type": "string", "pattern": "^[A-Z][0-9]+$"}},
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
        if not step["action"] and move.kind != MOVE:
            raise fail(f"{move} is not a card move; mark it as an action")
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
                and _is_pile(args[2])):
            raise fail(f"arguments must be [pile, [cards], source pile], got {args}")
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


# -- checks --------------------------------------------------------------------
@dataclass(frozen=True)
class Check:
    """The outcome of one question asked of an implementation.

    ``step`` is the step index (None: the start); ``subject`` what was asked
    (``can_pick_up(t3, 2)``, ``the state after t3>t5 ...``); ``before`` the
    canonical state the question was asked in; ``move`` the step's move;
    ``message`` says what went wrong, in words; ``kind`` is one of ``deal``,
    ``probe``, ``moves``, ``verdict`` (an action's legality), ``action`` (the
    state after an action), ``effects`` (the state after the effects), ``won``
    and ``lost`` (a check the replay could not make).
    """

    trace: str
    step: int | None
    category: str
    ok: bool
    subject: str
    expected: Any = None
    actual: Any = None
    message: str = ""
    move: str | None = None
    before: str | None = None
    kind: str = ""


def planned(trace: dict[str, Any]) -> Counter[str]:
    """How many scored checks of each category a replay of ``trace`` makes.

    Unexplained legal-move-set differences (see the module docstring) can only
    add failed checks on top of these.
    """
    counts: Counter[str] = Counter()
    if "cards" in trace["start"]:
        counts["deal"] += 1
    for step in trace["steps"]:
        for probe in step.get("probes", ()):
            counts[probe["method"]] += 1
        if "move" in step:
            if step["action"]:
                counts["special_moves"] += 1
            if step["legal"] and step["action"]:
                counts["apply_special"] += 1
            if step["legal"] and "after_move" in step["categories"]:
                counts["after_move"] += 1
        if "won" in step:
            counts["is_won"] += 1
    return counts


def tally(checks: Iterable[Check]) -> dict[str, list[int]]:
    """``{category: [passed, total]}`` over ``checks``."""
    result: dict[str, list[int]] = {}
    for check in checks:
        entry = result.setdefault(check.category, [0, 0])
        entry[0] += check.ok
        entry[1] += 1
    return result


WorkerSource = Worker | Callable[[], Worker]


def _describe_args(method: str, args: list[Any]) -> str:
    if method in ACCEPT_METHODS:
        pile, cards, source = args
        return f"{method}({pile}, [{' '.join(cards)}], source {source})"
    return f"{method}({', '.join(str(a) for a in args)})"


def _probe_meaning(method: str, args: list[Any], value: Any) -> str:
    """What a probe's answer means for play, in words."""
    if method == "can_pick_up":
        pile, count = args
        what = "the top card" if count == 1 else f"the top {count} cards"
        return f"{what} of {pile} {'may' if value else 'may not'} be picked up"
    if method in ACCEPT_METHODS:
        pile, cards, source = args
        return f"{' '.join(cards)} from {source} {'may' if value else 'may not'} go onto {pile}"
    if method == "special_moves":
        return "the legal actions are " + (", ".join(value) if value else "none")
    return "the game is won" if value else "the game is not won"


def _yes(value: Any) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    return json.dumps(value)


def state_differences(expected: str, actual: str, limit: int = 6) -> list[str]:
    """Line-by-line differences between two canonical states, for feedback."""
    want = expected.splitlines()
    got = actual.splitlines()
    lines = []
    for index in range(max(len(want), len(got))):
        a = want[index] if index < len(want) else "(missing)"
        b = got[index] if index < len(got) else "(missing)"
        if a != b:
            lines.append(f"expected `{a}`, got `{b}`")
    if len(lines) > limit:
        lines = lines[:limit] + [f"... and {len(lines) - limit} more lines differ"]
    return lines


class _Lost(Exception):
    """The worker cannot be brought back to the expected state: stop this trace."""


class Replay:
    """Replays one trace against a worker; iterate :meth:`checks`.

    ``worker`` is a :class:`Worker`, or a function returning a fresh one: with a
    function, a worker that timed out or crashed is replaced before the replay
    goes on (a worker object may also restart itself; either way the expected
    state is loaded again).

    ``batch`` (the default) sends the requests of each step ahead as one batch
    (:mod:`solitaire.ahead`); the checks are the same as with ``batch=False``,
    which sends one request per question.
    """

    def __init__(self, trace: dict[str, Any], worker: WorkerSource, name: str | None = None,
                 batch: bool = True) -> None:
        self.trace = trace
        self.name = name or trace["name"]
        self._factory = None if isinstance(worker, Worker) else worker
        self.worker: Worker = worker if isinstance(worker, Worker) else worker()
        self.expected = state_text(trace["start"]["state"])
        self._ahead = Ahead(lambda: self.worker) if batch else None

    @property
    def _io(self) -> Worker:
        """Where the replay's requests go: the batches sent ahead, or the worker itself."""
        return self._ahead if self._ahead is not None else self.worker

    def _send_ahead(self, first: list[dict[str, Any]], step: dict[str, Any] | None) -> None:
        if self._ahead is not None:
            self._ahead.send([Item(m) for m in first] + (_plan(step) if step is not None else []))

    # -- worker handling ------------------------------------------------------
    def _renew(self) -> None:
        if self._factory is not None:
            try:
                self.worker.close()
            except Exception:  # noqa: BLE001 - a dead worker may fail to close
                pass
            self.worker = self._factory()
            if self._ahead is not None:
                self._ahead.forget()

    def _restore(self, state: str, error: WorkerError | None = None) -> None:
        """Load ``state`` into the worker, replacing a dead worker first."""
        if error is not None and error.kind in ("timeout", "crashed", "protocol"):
            self._renew()
        for attempt in range(2):
            try:
                self._io.load(state)
                return
            except WorkerError as failure:
                if attempt == 0 and (failure.kind != "error" or self._factory is not None):
                    self._renew()
                    continue
                raise _Lost(f"the replay of this trace had to stop: {failure}") from None

    def _error_message(self, error: WorkerError, subject: str) -> str:
        text = str(error).strip()
        if error.kind in ("timeout", "crashed"):
            return f"{text or 'your code did not answer'} (while answering {subject})"
        if error.kind == "protocol":
            return f"the grader could not read your code's answer to {subject}: {text}"
        where = f" in {error.method}" if error.method else ""
        detail = f": {text}" if text else ""
        return f"your code raised {error.error or 'an exception'}{where}{detail} (while answering {subject})"

    # -- the replay -----------------------------------------------------------
    def checks(self) -> Iterator[Check]:
        try:
            yield from self._start()
            for index, step in enumerate(self.trace["steps"]):
                if index:
                    self._send_ahead([], step)
                yield from self._step(index, step)
        except _Lost as lost:
            yield from self._abandon(str(lost))

    def _abandon(self, message: str) -> Iterator[Check]:
        """Fail every check not yet made (the worker is beyond recovery)."""
        done = self._made
        for category, count in planned(self.trace).items():
            for _ in range(max(0, count - done[category])):
                yield self._record(Check(self.name, None, category, False, "the checks left in this trace",
                                         message=message, kind="lost"))

    _made: Counter[str]

    def _record(self, check: Check) -> Check:
        self._made[check.category] += 1
        return check

    def _start(self) -> Iterator[Check]:
        self._made = Counter()
        start = self.trace["start"]
        expected = state_text(start["state"])
        steps = self.trace["steps"]
        first = steps[0] if steps else None
        if "cards" not in start:
            self._send_ahead([{"op": "load", "state": expected}], first)
            self._restore(expected)
            return
        subject = "the deal"
        cards, options = list(start["cards"]), dict(self.trace["options"])
        self._send_ahead([{"op": "start", "cards": cards, "options": options}], first)
        try:
            actual = self._io.start(cards, options)
        except WorkerError as error:
            yield self._record(Check(self.name, None, "deal", False, subject,
                                     message=self._error_message(error, "deal"), kind="deal"))
            self._restore(expected, error)
            return
        ok = actual == expected
        message = "" if ok else "dealing this deck gives a different layout: " + "; ".join(
            state_differences(expected, actual))
        yield self._record(Check(self.name, None, "deal", ok, subject, expected, actual, message,
                                 kind="deal"))
        if not ok:
            self._restore(expected)

    def _step(self, index: int, step: dict[str, Any]) -> Iterator[Check]:
        before = self.expected
        move = step.get("move")
        failed: set[str] = set()
        for probe in step.get("probes", ()):
            check = self._probe(index, probe, before, move)
            if not check.ok:
                failed.add(check.category)
            yield self._record(check)
        if "moves" in step:
            for check in self._moves(index, step, before, move, failed):
                yield self._record(check)
        if move is not None:
            yield from self._move(index, step, before, move)
        if "won" in step:
            yield self._record(self._won(index, step, before, move))

    def _ask(self, subject: str, request: Callable[[], Any], restore: str) -> tuple[Any, str | None]:
        """Run ``request``; on a worker error restore ``restore`` and return the message."""
        try:
            return request(), None
        except WorkerError as error:
            message = self._error_message(error, subject)
            self._restore(restore, error)
            return None, message

    def _probe(self, index: int, probe: dict[str, Any], before: str, move: str | None) -> Check:
        method, args, expect = probe["method"], probe["args"], probe["expect"]
        subject = _describe_args(method, args)
        actual, error = self._ask(subject, lambda: self._io.call(method, list(args)), before)
        if error is not None:
            return Check(self.name, index, method, False, subject, expect, None, error, move, before,
                         "probe")
        ok = actual == expect
        message = "" if ok else (
            f"{subject} should return {_yes(expect)} ({_probe_meaning(method, args, expect)}), "
            f"your code returned {_yes(actual)}"
        )
        return Check(self.name, index, method, ok, subject, expect, actual, message, move, before, "probe")

    def _moves(self, index: int, step: dict[str, Any], before: str, move: str | None,
               failed: set[str]) -> Iterator[Check]:
        """Compare the legal-move set; blame each difference on the method that caused it.

        An action is ``special_moves``' business. For a card move ``src:n>dst`` the
        reference's ``can_pick_up`` answers are in ``pickups``; the student's answer
        is asked: if it differs, ``can_pick_up`` is to blame, else the accept method
        of ``dst``. A category that already failed a probe of this step is not
        charged twice.
        """
        subject = "the set of legal moves"
        expect = step["moves"]
        try:
            actual = self._io.moves()
        except WorkerError as failure:
            # the method that raised is to blame; a timeout names none: the probes of
            # this step (asked one by one) already show which method is slow
            self._restore(before, failure)
            if failure.method in RULE_METHODS and failure.method not in failed:
                yield Check(self.name, index, failure.method, False, subject, expect, None,
                            self._error_message(failure, subject), move, before, "moves")
            return
        if actual == expect:
            return
        blamed: dict[str, str] = {}
        if self._ahead is not None:
            self._ahead.insert(_blame_calls(sorted(set(actual) ^ set(expect)), self.trace["targets"]), before)
        for text in sorted(set(actual) ^ set(expect)):
            category, why = self._blame(text, text in expect, step, before)
            blamed.setdefault(category, why)
        for category, why in blamed.items():
            if category not in failed:
                yield Check(self.name, index, category, False, subject, expect, actual, why, move, before,
                            "moves")

    def _blame(self, text: str, legal: bool, step: dict[str, Any], before: str) -> tuple[str, str]:
        verdict = "legal" if legal else "illegal"
        yours = "your code does not allow it" if legal else "your code allows it"
        try:
            move = parse_move(text)
        except InvalidNotation:
            return "special_moves", f"your code lists {text!r}, which is not a move"
        targets = self.trace["targets"]
        if move.kind != MOVE or move.target not in targets:
            return "special_moves", f"{text} should be {verdict} here ({yours}): check special_moves()"
        source, target, count = move.source, move.target, move.count
        known = step["pickups"].get(source, "")
        expected_pick = count <= len(known) and known[count - 1] == "1"
        subject = f"can_pick_up({source}, {count})"
        try:
            picked = self._io.call("can_pick_up", [source, count])
        except WorkerError as error:
            self._restore(before, error)
            return "can_pick_up", self._error_message(error, subject)
        if picked != expected_pick:
            return "can_pick_up", (f"{text} should be {verdict} here ({yours}): {subject} should return "
                                   f"{_yes(expected_pick)}, your code returned {_yes(picked)}")
        piles = parse_state(before).piles
        if targets[target] == "foundation":
            method = "foundation_accepts"
        else:
            method = "tableau_accepts" if piles.get(target) else "space_accepts"
        cards = [str(c) for c in piles[source].cards[-count:]] if source in piles else []
        call = _describe_args(method, [target, cards, source])
        if picked and cards:  # the engine asked the accept method, and got the wrong answer
            return method, f"{text} should be {verdict} here ({yours}): {call} should return {_yes(legal)}"
        return method, f"{text} should be {verdict} here ({yours}): check {call}"

    def _move(self, index: int, step: dict[str, Any], before: str, move: str) -> Iterator[Check]:
        if step["action"]:
            subject = f"whether {move} is legal"
            actual, error = self._ask(subject, lambda: self._io.legal(move), before)
            legal = step["legal"]
            ok = error is None and actual == legal
            message = error or ("" if ok else (
                f"{move} should be {'legal' if legal else 'illegal'} here, but special_moves() "
                f"{'does not list' if legal else 'lists'} it"))
            yield self._record(Check(self.name, index, "special_moves", ok, subject, legal, actual,
                                     message, move, before, "verdict"))
        if not step["legal"]:
            return
        after = state_text(step["state"])
        stage = "full"
        if step["action"]:
            middle = state_text(step["after_move_stage"])
            ok, actual, error = self._apply(move, "move", middle)
            message = error or ("" if ok else f"{move} does not do what it should: "
                                + "; ".join(state_differences(middle, actual)))
            yield self._record(Check(self.name, index, "apply_special", ok,
                                     f"the state after {move} (before automatic effects)",
                                     middle, actual, message, move, before, "action"))
            stage = "effects"
        ok, actual, error = self._apply(move, stage, after)
        if "after_move" in step["categories"]:
            message = error or ("" if ok else f"after {move} the automatic effects (after_move) give a "
                                "different state: " + "; ".join(state_differences(after, actual)))
            yield self._record(Check(self.name, index, "after_move", ok,
                                     f"the state after {move} and its automatic effects",
                                     after, actual, message, move, before, "effects"))
        self.expected = after

    def _apply(self, move: str, stage: str, expected: str) -> tuple[bool, Any, str | None]:
        """Apply one stage of ``move``; on any difference, resync to ``expected``."""
        subject = f"{move} ({'the action itself' if stage == 'move' else 'automatic effects'})"
        actual, error = self._ask(subject, lambda: self._io.apply(move, stage), expected)
        ok = error is None and actual == expected
        if not ok and error is None:
            self._restore(expected)
        return ok, actual, error

    def _won(self, index: int, step: dict[str, Any], before: str, move: str | None) -> Check:
        subject = "is_won()"
        expect = step["won"]
        actual, error = self._ask(subject, self._io.won, self.expected)
        ok = error is None and actual == expect
        message = error or ("" if ok else (
            f"is_won() should return {_yes(expect)} here"
            f"{' (after ' + move + ')' if move else ''}, your code returned {_yes(actual)}"))
        return Check(self.name, index, "is_won", ok, subject, expect, actual, message, move,
                     self.expected if move else before, "won")


def replay(trace: dict[str, Any], worker: WorkerSource, name: str | None = None,
           batch: bool = True) -> Iterator[Check]:
    """Replay ``trace`` against ``worker`` (a Worker or a factory of workers), check by check.

    ``batch``: send each step's requests ahead in one batch (see :class:`Replay`)."""
    return Replay(trace, worker, name, batch).checks()


def _plan(step: dict[str, Any]) -> list[Item]:
    """The requests a step sends when nothing goes wrong, in the order :meth:`Replay._step` sends them."""
    items = [Item({"op": "call", "method": p["method"], "args": list(p["args"])})
             for p in step.get("probes", ())]
    later: list[dict[str, Any]] = []
    move = step.get("move")
    if move is not None:
        if step["action"]:
            later.append({"op": "legal", "move": move})
        if step["legal"]:
            stages = ("move", "effects") if step["action"] else ("full",)
            later += [{"op": "apply", "move": move, "stage": stage} for stage in stages]
    if "won" in step:
        later.append({"op": "won"})
    if "moves" in step:
        items.append(Item({"op": "moves"}))
        if later:  # the state to return to should the legal-move set need explaining
            items.append(Item(dict(SNAPSHOT), internal=True))
    return items + [Item(m) for m in later]


def _blame_calls(texts: list[str], targets: dict[str, str]) -> list[dict[str, Any]]:
    """The ``can_pick_up`` requests :meth:`Replay._blame` sends for the moves ``texts``, in order."""
    calls = []
    for text in texts:
        try:
            move = parse_move(text)
        except InvalidNotation:
            continue
        if move.kind == MOVE and move.target in targets:
            calls.append({"op": "call", "method": "can_pick_up", "args": [move.source, move.count]})
    return calls


@dataclass
class Summary:
    """Per-category counts over several traces, and the first failure of each category."""

    counts: dict[str, list[int]] = field(default_factory=dict)
    first_failure: dict[str, Check] = field(default_factory=dict)

    def add(self, check: Check) -> None:
        entry = self.counts.setdefault(check.category, [0, 0])
        entry[0] += check.ok
        entry[1] += 1
        if not check.ok and check.category not in self.first_failure:
            self.first_failure[check.category] = check


def failures(trace: dict[str, Any], worker: WorkerSource) -> list[Check]:
    """The failed checks of one replay (for a student's public tests)."""
    return [check for check in replay(trace, worker) if not check.ok]
