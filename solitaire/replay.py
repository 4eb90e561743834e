"""Replaying a trace against an implementation: one :class:`Check` per question asked.

What each step of a trace (:mod:`solitaire.traces`) checks, and in which
category (the rule method the contract gives the question):

1. every probe, in the category of its method;
2. ``moves``: the whole legal-move set. Each difference is blamed on the
   method that caused it: an action on ``special_moves``; a card move
   ``src:n>dst`` on ``can_pick_up`` when the implementation's
   ``can_pick_up(src, n)`` differs from ``pickups``, else on the accept method
   of ``dst``; an equal set adds no check (the probes carry the score);
3. an action's legality verdict (``special_moves``). A card move's verdict is
   the conjunction of ``can_pick_up`` and the accept method of its target, so
   it is checked through those two probes, each in its own category;
4. for a legal action, the state after the action itself (``apply_special``);
5. for a legal move, the state after the effects (``after_move``; compared on
   every legal move, scored where ``categories`` lists ``after_move``);
6. ``won`` (``is_won``).

**Nothing sent reveals an answer still to be asked.** The questions of a
step go out in three rounds, each sent only once the one before is answered:
the pick-up, action and won questions and the legal-move set; then the
accept questions (asked only about cards the reference lets move, so they
come after every ``can_pick_up`` of the state is answered) and an action's
verdict; then the move itself (an ``apply`` is sent only for a legal move)
and ``won`` after it. Within a round the order is fixed by the questions'
text, never by their answers. A deal is asked alone, before anything about
the dealt position.

**Resync.** After every mismatch or error the worker is loaded with the
expected state, so one bug costs the checks of its own category only. The
state it is sent answers only questions already asked.

**A method that hangs is asked once.** When a rule method makes the worker
time out (or crash three times), it goes into ``dead`` (a set the caller may
share between the traces of a submission): every later check of that method
fails at once, with the reason, without waiting again, and the legal-move
set, which would call it, is no longer compared.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .ahead import Ahead, Item
from .errors import InvalidNotation
from .moves import MOVE, REMOVE, parse_move
from .piles import DISCARD, FOUNDATION_KINDS, PREFIX
from .protocol import ACCEPT_METHODS, Worker, WorkerError
from .state import parse_state
from .traces import state_text
from .variation import RULE_METHODS

#: methods the engine calls to list the legal moves: none may be dead for ``moves``
MOVES_METHODS = frozenset({"can_pick_up", *ACCEPT_METHODS, "special_moves"})
CRASHES_TO_DEAD = 3  # crashes of one method before it is no longer asked


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


WorkerSource = Worker | Callable[[], Worker]


def describe_call(method: str, args: list[Any]) -> str:
    """A rule-method call as a student would write it: ``tableau_accepts(t5, [4S], source t3)``."""
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


def method_of(message: dict[str, Any]) -> str | None:
    """The rule method a request runs (None: several, or none): a hang there is that method's.

    (Stage ``move`` is an action's own stage; a card move is applied ``full``.)"""
    op = message.get("op")
    if op == "call":
        return str(message.get("method"))
    if op == "start":
        return "deal"
    if op == "legal":
        return "special_moves"
    if op == "won":
        return "is_won"
    if op == "apply":
        return "apply_special" if message.get("stage") == "move" else "after_move"
    return None


def _probe_order(probe: dict[str, Any]) -> str:
    """A probe's place in its round: from its question only, never from its answer."""
    return json.dumps([probe["method"], probe["args"]])


class _Lost(Exception):
    """The worker cannot be brought back to the expected state: stop this trace."""


class Replay:
    """Replays one trace against a worker; iterate :meth:`checks`.

    ``worker`` is a :class:`Worker`, or a function returning a fresh one: with a
    function, a worker that timed out or crashed is replaced before the replay
    goes on (a worker object may also restart itself; either way the expected
    state is loaded again), and the replay closes the workers it made.

    ``batch`` (the default) sends the requests of each round ahead as one batch
    (:mod:`solitaire.ahead`); the checks are the same as with ``batch=False``,
    which sends one request per question. ``dead``: see the module docstring.
    """

    def __init__(self, trace: dict[str, Any], worker: WorkerSource, name: str | None = None,
                 batch: bool = True, dead: set[str] | None = None) -> None:
        self.trace = trace
        self.name = name or trace["name"]
        self._factory = None if isinstance(worker, Worker) else worker
        self.worker: Worker = worker if isinstance(worker, Worker) else worker()
        self.expected = state_text(trace["start"]["state"])
        self._ahead = Ahead(lambda: self.worker) if batch else None
        self.dead: set[str] = dead if dead is not None else set()
        self._crashes: Counter[str] = Counter()

    @property
    def _io(self) -> Worker:
        """Where the replay's requests go: the batches sent ahead, or the worker itself."""
        return self._ahead if self._ahead is not None else self.worker

    def _send_ahead(self, messages: list[dict[str, Any]], restore: str | None = None) -> None:
        """Announce the next round. ``restore``: the state the replay loads should one of them fail,
        if it may be sent ahead with them (their resync then travels in the same batch).

        Only the state the step started in may: the worker has seen it (sent, or its own answer
        to the move before), so it reveals nothing still to be asked. The states after a move
        (the answers of ``apply``) and a deal's layout are never sent ahead of their question.
        """
        if self._ahead is not None:
            self._ahead.send([Item(m, restore=restore) for m in messages])

    # -- worker handling ------------------------------------------------------
    def _renew(self) -> None:
        if self._factory is not None:
            self._close()
            self.worker = self._factory()
            if self._ahead is not None:
                self._ahead.forget()

    def _close(self) -> None:
        try:
            self.worker.close()
        except Exception:  # noqa: BLE001 - a dead worker may fail to close
            pass

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

    def _note_failure(self, error: WorkerError, method: str | None) -> None:
        """A method whose call hung (or crashed again and again) is not asked any more."""
        if method is None:
            if error.kind == "timeout":
                self.dead.add("moves")
                if self._ahead is not None:
                    self._ahead.drop(self._unasked)
            return
        if error.kind == "timeout":
            self.dead.add(method)
        elif error.kind == "crashed":
            self._crashes[method] += 1
            if self._crashes[method] >= CRASHES_TO_DEAD:
                self.dead.add(method)
        if self._ahead is not None and method in self.dead:
            self._ahead.drop(self._unasked)

    def _unasked(self, message: dict[str, Any]) -> bool:
        """Whether the replay will not ask ``message`` now (its method, or one it needs, is dead)."""
        if message.get("op") == "moves":
            return bool(self.dead & (MOVES_METHODS | {"moves"}))
        return method_of(message) in self.dead

    def _dead_message(self, method: str) -> str:
        return (f"not asked: your {method} did not answer in time earlier (or crashed the worker "
                f"again and again), so the grader stopped asking it")

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
                yield from self._step(index, step)
        except _Lost as lost:
            yield from self._abandon(str(lost))
        finally:
            if self._factory is not None:
                self._close()

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
        if "cards" not in start:
            self._restore(expected)
            return
        subject = "the deal"
        cards, options = list(start["cards"]), dict(self.trace["options"])
        if "deal" in self.dead:
            yield self._record(Check(self.name, None, "deal", False, subject,
                                     message=self._dead_message("deal"), kind="deal"))
            self._restore(expected)
            return
        self._send_ahead([{"op": "start", "cards": cards, "options": options}])
        try:
            actual = self._io.start(cards, options)
        except WorkerError as error:
            self._note_failure(error, "deal")
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
        probes = sorted(step.get("probes", ()), key=_probe_order)
        first = [p for p in probes if p["method"] not in ACCEPT_METHODS]
        second = [p for p in probes if p["method"] in ACCEPT_METHODS]
        compare_moves = "moves" in step and not (self.dead & (MOVES_METHODS | {"moves"}))
        self._send_ahead(self._calls(first) + ([{"op": "moves"}] if compare_moves else []), before)
        for probe in first:
            yield self._record(self._probe(index, probe, before, move))
        if compare_moves and not self._unasked({"op": "moves"}):
            for check in self._moves(index, step, before, move):
                yield self._record(check)
        verdict = move is not None and step["action"] and "special_moves" not in self.dead
        self._send_ahead(self._calls(second) + ([{"op": "legal", "move": move}] if verdict else []), before)
        for probe in second:
            yield self._record(self._probe(index, probe, before, move))
        if move is not None:
            yield from self._move(index, step, before, move)
        if "won" in step:
            yield self._record(self._won(index, step, before, move))

    def _calls(self, probes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"op": "call", "method": p["method"], "args": list(p["args"])}
                for p in probes if p["method"] not in self.dead]

    def _ask(self, subject: str, request: Callable[[], Any], restore: str,
             method: str | None) -> tuple[Any, str | None]:
        """Run ``request``; on a worker error restore ``restore`` and return the message."""
        try:
            return request(), None
        except WorkerError as error:
            self._note_failure(error, method)
            message = self._error_message(error, subject)
            self._restore(restore, error)
            return None, message

    def _probe(self, index: int, probe: dict[str, Any], before: str, move: str | None) -> Check:
        method, args, expect = probe["method"], probe["args"], probe["expect"]
        subject = describe_call(method, args)
        if method in self.dead:
            return Check(self.name, index, method, False, subject, expect, None,
                         self._dead_message(method), move, before, "probe")
        actual, error = self._ask(subject, lambda: self._io.call(method, list(args)), before, method)
        if error is not None:
            return Check(self.name, index, method, False, subject, expect, None, error, move, before,
                         "probe")
        ok = actual == expect
        message = "" if ok else (
            f"{subject} should return {_yes(expect)} ({_probe_meaning(method, args, expect)}), "
            f"your code returned {_yes(actual)}"
        )
        return Check(self.name, index, method, ok, subject, expect, actual, message, move, before, "probe")

    def _moves(self, index: int, step: dict[str, Any], before: str, move: str | None) -> Iterator[Check]:
        """Compare the legal-move set; blame each difference on the method that caused it.

        An action is ``special_moves``' business. For a card move ``src:n>dst`` the
        reference's ``can_pick_up`` answers are in ``pickups``; the student's answer
        is asked: if it differs, ``can_pick_up`` is to blame, else the accept method
        of ``dst``. Each blamed method is charged once per step.
        """
        subject = "the set of legal moves"
        expect = step["moves"]
        try:
            actual = self._io.moves()
        except WorkerError as failure:
            # the method that raised is to blame; a timeout names none: the probes of
            # this step (asked one by one) already show which method is slow
            self._note_failure(failure, failure.method or None)
            self._restore(before, failure)
            if failure.method in RULE_METHODS:
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
        if move.kind == REMOVE:
            discard = _discard_pile(targets, before)
            if discard is None:
                return "special_moves", f"your code lists {text!r}, but this game has no removals"
            pickups, target, source = [(p, 1) for p in move.args], discard, text
        elif move.kind == MOVE and move.target in targets:
            pickups, target, source = [(move.source, move.count)], move.target, move.source
        else:
            return "special_moves", f"{text} should be {verdict} here ({yours}): check special_moves()"
        asked = True  # whether the engine went on to ask the accept method
        wrong: tuple[str, str] | None = None
        # every pile of a removal is asked (as _blame_calls announced), even after a wrong answer
        for pile, count in pickups:
            if "can_pick_up" in self.dead:
                break
            known = step["pickups"].get(pile, "")
            expected_pick = count <= len(known) and known[count - 1] == "1"
            subject = f"can_pick_up({pile}, {count})"
            try:
                picked = self._io.call("can_pick_up", [pile, count])
            except WorkerError as error:
                self._note_failure(error, "can_pick_up")
                self._restore(before, error)
                wrong = wrong or ("can_pick_up", self._error_message(error, subject))
                continue
            if picked != expected_pick:
                wrong = wrong or ("can_pick_up", (
                    f"{text} should be {verdict} here ({yours}): {subject} should "
                    f"return {_yes(expected_pick)}, your code returned {_yes(picked)}"))
            asked = asked and picked
        if wrong is not None:
            return wrong
        piles = parse_state(before).piles
        if move.kind == REMOVE or targets[target] in FOUNDATION_KINDS:
            method = "foundation_accepts"
        else:
            method = "tableau_accepts" if piles.get(target) else "space_accepts"
        if move.kind == REMOVE:
            cards = [str(piles[p].cards[-1]) for p, _ in pickups if piles.get(p)]
        else:
            cards = [str(c) for c in piles[source].cards[-move.count:]] if source in piles else []
        call = describe_call(method, [target, cards, source])
        if asked and cards:  # the engine asked the accept method, and got the wrong answer
            return method, f"{text} should be {verdict} here ({yours}): {call} should return {_yes(legal)}"
        return method, f"{text} should be {verdict} here ({yours}): check {call}"

    def _move(self, index: int, step: dict[str, Any], before: str, move: str) -> Iterator[Check]:
        action = step["action"]
        if action:
            yield self._record(self._verdict(index, step, before, move))
        if not step["legal"]:
            return
        after = state_text(step["state"])
        stages = [("move", state_text(step["after_move_stage"])), ("effects", after)] if action else [
            ("full", after)]
        apply = [{"op": "apply", "move": move, "stage": stage} for stage, _ in stages
                 if method_of({"op": "apply", "stage": stage}) not in self.dead]
        self._send_ahead(apply + ([{"op": "won"}] if "won" in step and "is_won" not in self.dead else []))
        for stage, expected in stages:
            method = method_of({"op": "apply", "stage": stage}) or "after_move"
            scored = method == "apply_special" or "after_move" in step["categories"]
            actual: Any = None
            error: str | None
            if method in self.dead:
                ok, error = False, self._dead_message(method)
                self._restore(expected)
            else:
                ok, actual, error = self._apply(move, stage, expected, method)
            if not scored:
                continue
            if method == "apply_special":
                message = error or ("" if ok else f"{move} does not do what it should: "
                                    + "; ".join(state_differences(expected, str(actual))))
                subject, kind = f"the state after {move} (before automatic effects)", "action"
            else:
                message = error or ("" if ok else f"after {move} the automatic effects (after_move) give a "
                                    "different state: " + "; ".join(state_differences(expected, str(actual))))
                subject, kind = f"the state after {move} and its automatic effects", "effects"
            yield self._record(Check(self.name, index, method, ok, subject, expected, actual, message,
                                     move, before, kind))
        self.expected = after

    def _verdict(self, index: int, step: dict[str, Any], before: str, move: str) -> Check:
        subject = f"whether {move} is legal"
        legal = step["legal"]
        if "special_moves" in self.dead:
            return Check(self.name, index, "special_moves", False, subject, legal, None,
                         self._dead_message("special_moves"), move, before, "verdict")
        actual, error = self._ask(subject, lambda: self._io.legal(move), before, "special_moves")
        ok = error is None and actual == legal
        message = error or ("" if ok else (
            f"{move} should be {'legal' if legal else 'illegal'} here, but special_moves() "
            f"{'does not list' if legal else 'lists'} it"))
        return Check(self.name, index, "special_moves", ok, subject, legal, actual, message, move, before,
                     "verdict")

    def _apply(self, move: str, stage: str, expected: str, method: str) -> tuple[bool, Any, str | None]:
        """Apply one stage of ``move``; on any difference, resync to ``expected``."""
        subject = f"{move} ({'the action itself' if stage == 'move' else 'automatic effects'})"
        actual, error = self._ask(subject, lambda: self._io.apply(move, stage), expected, method)
        ok = error is None and actual == expected
        if not ok and error is None:
            self._restore(expected)
        return ok, actual, error

    def _won(self, index: int, step: dict[str, Any], before: str, move: str | None) -> Check:
        subject = "is_won()"
        expect = step["won"]
        where = self.expected if move else before
        if "is_won" in self.dead:
            return Check(self.name, index, "is_won", False, subject, expect, None,
                         self._dead_message("is_won"), move, where, "won")
        if move is None:
            self._send_ahead([{"op": "won"}], before)
        actual, error = self._ask(subject, self._io.won, self.expected, "is_won")
        ok = error is None and actual == expect
        message = error or ("" if ok else (
            f"is_won() should return {_yes(expect)} here"
            f"{' (after ' + move + ')' if move else ''}, your code returned {_yes(actual)}"))
        return Check(self.name, index, "is_won", ok, subject, expect, actual, message, move, where, "won")


def replay(trace: dict[str, Any], worker: WorkerSource, name: str | None = None,
           batch: bool = True, dead: set[str] | None = None) -> Iterator[Check]:
    """Replay ``trace`` against ``worker`` (a Worker or a factory of workers), check by check.

    ``batch``: send each round's requests ahead in one batch; ``dead``: see the module docstring."""
    return Replay(trace, worker, name, batch, dead).checks()


def _discard_pile(targets: dict[str, str], state: str) -> str | None:
    """The pile removals go to: the discard pile among the targets (Pyramid's ``d`` takes a
    king alone), else the layout's discard pile ``d``, which a trace's ``targets`` omit when
    it is no target (Monte Carlo, Nestor); None when the game has none."""
    named = next((pile for pile, kind in targets.items() if kind == DISCARD), None)
    if named is not None:
        return named
    return PREFIX[DISCARD] if PREFIX[DISCARD] in parse_state(state).piles else None


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
        elif move.kind == REMOVE:
            calls.extend({"op": "call", "method": "can_pick_up", "args": [pile, 1]} for pile in move.args)
    return calls


@dataclass
class Summary:
    """Check counts per trace and category (a cell), and the first failure of each cell."""

    cells: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    first_failure: dict[str, dict[str, Check]] = field(default_factory=dict)

    def add(self, check: Check) -> None:
        entry = self.cells.setdefault(check.trace, {}).setdefault(check.category, [0, 0])
        entry[0] += check.ok
        entry[1] += 1
        if not check.ok:
            self.first_failure.setdefault(check.trace, {}).setdefault(check.category, check)

    @property
    def counts(self) -> dict[str, list[int]]:
        """``{category: [passed, total]}`` over every trace."""
        result: dict[str, list[int]] = {}
        for per_trace in self.cells.values():
            for category, (passed, total) in per_trace.items():
                entry = result.setdefault(category, [0, 0])
                entry[0] += passed
                entry[1] += total
        return result


def failures(trace: dict[str, Any], worker: WorkerSource) -> list[Check]:
    """The failed checks of one replay (for a student's public tests)."""
    return [check for check in replay(trace, worker) if not check.ok]
