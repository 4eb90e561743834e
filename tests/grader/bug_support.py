"""Shared machinery of the bug-catalog tests: is a catalog well formed, and where does a
bug answer differently from the reference?

A :class:`Plan` says where to look in one variation, in a fixed order: hand-built
positions (for triggers random play seldom reaches), the deal and start state of every
hidden trace, then seeded deals (the engine's own PRNG) under every option set, with a
seeded walk from each of these. The reference walks; the positions it passes through,
the questions asked at each and the reference's answers are computed once per plan.

At a position the questions are the sorted legal moves, ``is_won``, the state after each
of the reference's legal moves, ``can_pick_up`` of every face-up count of every pile,
and the accept method the engine would ask of every target: for every group the
reference lets move, and besides for the top one and two cards and the whole face-up
run of every pile that is not a foundation (a probe in a trace may ask about those).
One copy of a position serves all its questions and must be unchanged after them: a
rule method that raises, answers a yes/no question with something other than a bool, or
changes the state it is asked about, answers differently from a reference that does
none of that. States are compared as their canonical text shows them.
"""

from __future__ import annotations

import functools
import gc
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from grader import bugs
from grader.mutants import reference_source
from grader.traces.build import ROOT, hidden_traces, option_sets, reference_variation
from solitaire import engine
from solitaire.cards import parse_card
from solitaire.moves import MOVE, Move, parse_move
from solitaire.piles import EMPTY, FOUNDATION
from solitaire.protocol import BOOL_METHODS
from solitaire.rng import SplitMix64
from solitaire.state import State, format_state, parse_state
from solitaire.traces import state_text
from solitaire.variation import RULE_METHODS, Variation

MIN_BUGS = 15
_RULING = re.compile(r"^- \*\*([A-Z]+[0-9]+)\*\*", re.M)

Question = tuple[str, tuple[Any, ...]]  # (what is asked, its arguments)


@dataclass(frozen=True)
class Plan:
    """Where to look for differences in one variation, and how far to walk."""

    name: str
    hand_built: tuple[str, ...] = ()  # position texts, see :func:`position`
    seeds: tuple[int, ...] = (1, 2, 3)  # seeded deals, under every option set
    walk: int = 30  # moves walked from each seeded deal
    trace_walk: int = 4  # moves walked from each hidden trace's start state
    hand_walk: int = 0  # moves walked from each hand-built position
    lean: bool = True  # the walk takes a foundation move half the time there is one
    unmovable: bool = True  # ask the accept methods about groups that may not move too


# -- catalogs ---------------------------------------------------------------------
def catalog_problems(name: str) -> list[str]:
    """What is wrong with the form of ``name``'s catalog (empty if nothing): too few bugs,
    an edit that does not apply once inside its method's region, two bugs making one
    change, a rule method without a bug, a ruling not on the rules page, a description
    of more than one line, a bug that does not build its own class of the reference's name."""
    catalog = bugs.load(name)
    reference = reference_variation(name)
    _, text = reference_source(name)
    problems = []
    if len(catalog) < MIN_BUGS:
        problems.append(f"{len(catalog)} bugs, fewer than {MIN_BUGS}")
    if len({bug.id for bug in catalog}) != len(catalog):
        problems.append("two bugs share an id")
    if len({(bug.find, bug.replace) for bug in catalog}) != len(catalog):
        problems.append("two bugs make the same edit")
    implemented = {m for m in RULE_METHODS if m in vars(type(reference))}
    if {bug.method for bug in catalog} != implemented:
        problems.append(f"methods {sorted({b.method for b in catalog})}, implemented {sorted(implemented)}")
    rulings = set(_RULING.findall((ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")))
    patched: set[str] = set()
    for bug in catalog:
        if bug.ruling not in rulings:
            problems.append(f"{bug.id}: ruling {bug.ruling} is not on docs/rules/{name}.md")
        if not bug.description.strip() or "\n" in bug.description:
            problems.append(f"{bug.id}: the description is not one line")
        try:
            patched.add(bug.source(text))  # raises unless once and inside the method's region
            built = bug_class(bug)
        except bugs.BugError as error:
            problems.append(str(error))
            continue
        if built.__name__ != type(reference).__name__ or built is type(reference):
            problems.append(f"{bug.id}: builds {built!r}, not a fresh {type(reference).__name__}")
    if text in patched or len(patched) != len(catalog):
        problems.append("two bugs make the same change, or one changes nothing")
    return problems


@functools.cache
def bug_class(bug: bugs.Bug) -> type[Variation]:
    """The class of the variation with ``bug`` in it, from its own module, built once
    (each caller makes its own instance)."""
    return type(bugs.instantiate(bug))


def applied_exactly(bug: bugs.Bug) -> bool:
    """Whether ``bug``'s edit is its ``replace`` at the one place of ``find``, nothing more
    (``Bug.source`` raises unless ``find`` is there once, inside its method's region)."""
    _, text = reference_source(bug.variation)
    at = text.index(bug.find)
    return bug.source(text) == text[:at] + bug.replace + text[at + len(bug.find):]


# -- positions --------------------------------------------------------------------
def position(text: str) -> State:
    """The state of a hand-built position written in state notation, where a pile not
    written is empty (the piles come in the layout's order whatever order they are in)."""
    given = parse_state(text)
    names = reference_variation(given.variation).layout.names
    unknown = set(given.piles) - set(names)
    assert not unknown, f"piles {sorted(unknown)} are not in {given.variation}'s layout"
    return State(given.variation, given.options, {n: given.piles.get(n, EMPTY) for n in names},
                 given.phase, given.counters)


def walk(variation: Variation, state: State, seed: int, moves: int,
         lean: bool) -> list[tuple[State, list[Move]]]:
    """``state`` and the positions of a seeded walk of up to ``moves`` moves from it,
    each with its legal moves."""
    rng = SplitMix64(seed)
    seen = []
    while True:
        legal = engine.legal_moves(variation, state)
        seen.append((state, legal))
        if len(seen) > moves or not legal:
            return seen
        up = [m for m in legal if m.kind == MOVE and variation.kind(m.target) == FOUNDATION] if lean else []
        choices = up if up and rng.below(2) else legal
        state = engine.apply_unchecked(variation, state, choices[rng.below(len(choices))])


# -- questions and answers ----------------------------------------------------------
def questions(reference: Variation, state: State, legal: list[Move], unmovable: bool) -> list[Question]:
    """What is asked at ``state``, where the reference's legal moves are ``legal``, in a
    fixed order (see the module docstring); the accept methods about groups that may not
    move only if ``unmovable``."""
    asked: list[Question] = [("legal moves", ()), ("is_won", ())]
    asked += [("after", (move,)) for move in sorted(str(m) for m in legal)]
    given = state.copy()  # the reference's answers here are trusted; it changes nothing
    for source, pile in state.piles.items():
        up = len(pile.cards) - pile.down
        usual = {1, 2, up} if unmovable and reference.kind(source) != FOUNDATION else set()
        for count in range(1, up + 1):
            asked.append(("can_pick_up", (source, count)))
            may = reference.can_pick_up(given, source, count)
            if not may and count not in usual:
                continue
            cards = pile.cards[len(pile.cards) - count:]
            for target, foundation, capacity in reference.layout.targets:
                fits = capacity is None or len(state[target].cards) + count <= capacity
                if target != source and (may or count in usual and fits):
                    method = ("foundation_accepts" if foundation
                              else "tableau_accepts" if state[target].cards else "space_accepts")
                    asked.append((method, (target, cards, source)))
    return asked


def answers(variation: Variation, state: State | None, asked: list[Question]) -> Iterator[Any]:
    """What ``variation`` answers to each question at ``state`` (None for a deal), one
    copy of ``state`` serving them all; last, whether that copy is still ``state``."""
    if state is None:
        for _, (cards, options) in asked:
            yield _safe(_deal, variation, cards, options)
        return
    given = state.copy()
    for what, args in asked:
        try:
            yield _ask(variation, given, what, args)
        except Exception as error:  # noqa: BLE001 - a method that raises answers differently
            yield f"raised {type(error).__name__}"
    yield given == state


def _deal(variation: Variation, cards: tuple[Any, ...], options: tuple[tuple[str, Any], ...]) -> Shown:
    return Shown(engine.start(variation, list(cards), dict(options)))


def _ask(variation: Variation, state: State, what: str, args: tuple[Any, ...]) -> Any:
    if what == "legal moves":
        return sorted(str(m) for m in engine.legal_moves(variation, state))
    if what == "after":
        return Shown(engine.apply_unchecked(variation, state, parse_move(args[0])))
    value = getattr(variation, what)(state, *args)
    return value if what not in BOOL_METHODS or type(value) is bool else f"not a bool: {value!r}"


class Shown:
    """A state as its canonical text shows it (pile order and option and counter types
    too), compared without writing the text out, which would cost twenty times more."""

    __slots__ = ("state", "key")

    def __init__(self, state: State) -> None:
        self.state = state
        self.key = (state.variation, _typed(state.options), state.phase, _typed(state.counters),
                    tuple(state.piles.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shown) and self.key == other.key

    def __repr__(self) -> str:
        return "\n" + format_state(self.state)


def _typed(values: dict[str, Any]) -> tuple[tuple[str, type, Any], ...]:
    return tuple(sorted((name, type(value), value) for name, value in values.items()))


def _safe(call: Callable[..., Any], *args: Any) -> Any:
    """The answer of ``call(*args)``, or the name of what it raised (a difference too)."""
    try:
        return call(*args)
    except Exception as error:  # noqa: BLE001 - a method that raises answers differently
        return f"raised {type(error).__name__}"


# -- the search ---------------------------------------------------------------------
Event = tuple[str, State | None, list[Question]]  # where, the position (None: a deal), questions


def _events(plan: Plan) -> Iterator[Event]:
    reference = reference_variation(plan.name)

    def deal(where: str, cards: list[Any], options: dict[str, Any]) -> Event:
        return where, None, [("deal", (tuple(cards), tuple(options.items())))]

    def walked(where: str, start: State, seed: int, moves: int) -> Iterator[Event]:
        for step, (state, legal) in enumerate(walk(reference, start, seed, moves, plan.lean)):
            yield f"{where}, move {step}", state, questions(reference, state, legal, plan.unmovable)

    for index, text in enumerate(plan.hand_built):
        yield from walked(f"hand-built position {index}", position(text), index, plan.hand_walk)
    for index, trace in enumerate(hidden_traces(plan.name)):
        start = trace["start"]
        if "cards" in start:
            yield deal(f"trace {trace['name']}", [parse_card(c) for c in start["cards"]], trace["options"])
        state = parse_state(state_text(start["state"]))
        yield from walked(f"trace {trace['name']}", state, index, plan.trace_walk)
    for options in option_sets(reference):
        for seed in plan.seeds:
            cards = engine.shuffled_deck(reference, seed)
            yield deal(f"deal {seed} {options}", cards, options)
            start = engine.start(reference, cards, options)
            yield from walked(f"deal {seed} {options}", start, seed, plan.walk)


@functools.cache
def script(plan: Plan) -> list[tuple[Event, list[Any]]]:
    """The events of ``plan`` with the reference's answers at each (computed once)."""
    reference = reference_variation(plan.name)
    # Hundreds of thousands of small tuples: the cyclic collector's passes over them would
    # cost more than building them, and they hold no cycles, so it is paused meanwhile and
    # what exists afterwards is frozen out of its later passes.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return [(event, list(answers(reference, event[1], event[2]))) for event in _events(plan)]
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def first_difference(variation: Variation, plan: Plan) -> str | None:
    """Where ``variation`` first answers unlike the reference of ``plan.name``, or None."""
    for (where, state, asked), expected in script(plan):
        questions = asked if state is None else [*asked, ("left the position as it was", ())]
        for question, want, got in zip(questions, expected, answers(variation, state, asked), strict=True):
            if got != want:
                return (f"{where}: {question[0]} {question[1]}: reference {want!r}, "
                        f"bug {got!r}" + (f", on\n{format_state(state)}" if state is not None else ""))
    return None


