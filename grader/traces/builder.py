"""Recording traces from the reference: a trace builder, seeded playouts and a win search.

Everything here is deterministic: randomness comes from the engine's own
generator (:class:`solitaire.rng.SplitMix64`) seeded from the trace's name.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from solitaire import engine
from solitaire.cards import Card
from solitaire.moves import Move, parse_move
from solitaire.piles import FOUNDATION, TABLEAU
from solitaire.rng import SplitMix64
from solitaire.state import OptionValue, State, format_state
from solitaire.traces import FORMAT, state_lines
from solitaire.variation import Variation

from .facts import Facts, Probe, rule_methods_of

T = TypeVar("T")


class Rng:
    """Seeded choices for trace generation."""

    def __init__(self, seed: int | str) -> None:
        if isinstance(seed, str):
            seed = zlib.crc32(seed.encode())
        self._rng = SplitMix64(seed)

    def below(self, n: int) -> int:
        return self._rng.below(n)

    def chance(self, p: float) -> bool:
        return self._rng.below(1_000_000) < p * 1_000_000

    def choice(self, items: Sequence[T]) -> T:
        return items[self._rng.below(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` items (all if fewer), in their original order."""
        if k >= len(items):
            return list(items)
        chosen = list(range(len(items)))
        self._rng.shuffle(chosen)
        return [items[i] for i in sorted(chosen[:k])]

    def shuffle(self, items: list[T]) -> None:
        self._rng.shuffle(items)


@dataclass(frozen=True)
class Density:
    """How many questions a trace asks per step.

    Every ``full_every``-th step (and the last) asks the full set: the legal-move
    set and a balanced sample of the probe table (up to ``cap`` answers True and
    as many False per method). Other steps ask the probes that decide their own
    move and ``light`` True and False answers per method. ``won`` is the chance
    of asking is_won after a step (always when the game is won, and at the end).
    ``noop_ratio`` no-op effect checks are scored per effect that changed the state.
    """

    full_every: int = 3
    cap: int = 6
    light: int = 1
    won: float = 0.5
    noop_ratio: float = 0.5
    action_attempts: float = 0.5


SCENARIO = Density(full_every=1, cap=8, won=1.0)
PLAYOUT = Density()
SPARSE = Density(full_every=6, cap=4, won=0.25)
LONG = Density(full_every=8, cap=4, won=0.15)


def canonical_options(variation: Variation, options: dict[str, OptionValue] | None) -> dict[str, OptionValue]:
    return variation.resolve_options(dict(options or {}))


class TraceBuilder:
    """Records one trace, step by step, from the reference ``variation``."""

    def __init__(
        self,
        variation: Variation,
        name: str,
        *,
        state: State | None = None,
        cards: Sequence[Card] | None = None,
        options: dict[str, OptionValue] | None = None,
        description: str = "",
        rulings: Iterable[str] = (),
        density: Density = PLAYOUT,
        known_actions: set[str] | None = None,
    ) -> None:
        self.variation = variation
        self.name = name
        self.rng = Rng(name)
        self.density = density
        self.known_actions = known_actions if known_actions is not None else set()
        self.categories = set(rule_methods_of(type(variation)))
        start: dict[str, Any]
        if cards is not None:
            self.state = engine.start(variation, list(cards), canonical_options(variation, options))
            start = {"cards": [str(c) for c in cards], "state": state_lines(format_state(self.state))}
        elif state is not None:
            engine.check_state(variation, state)
            self.state = state.copy()
            start = {"state": state_lines(format_state(self.state))}
        else:
            raise ValueError("a trace starts from cards or from a state")
        self.trace: dict[str, Any] = {
            "format": FORMAT,
            "variation": variation.name,
            "name": name,
            "description": description,
            "rulings": sorted(set(rulings)),
            "options": dict(self.state.options),
            "targets": {spec.name: spec.kind for spec in variation.layout.piles if spec.is_target},
            "start": start,
            "steps": [],
        }
        self._effects = 0
        self._noops: list[int] = []
        self._facts: dict[tuple[object, ...], Facts] = {}
        self._previous_special: tuple[str, ...] | None = None

    # -- facts ---------------------------------------------------------------
    def facts(self, state: State | None = None) -> Facts:
        state = self.state if state is None else state
        key = state.key()
        if key not in self._facts:
            self._facts = {key: Facts.of(self.variation, state)}  # keep only the latest
        return self._facts[key]

    def legal_moves(self) -> list[Move]:
        return [parse_move(m) for m in self.facts().legal]

    @property
    def won(self) -> bool:
        return engine.is_won(self.variation, self.state)

    # -- probes --------------------------------------------------------------
    def _balanced(self, probes: list[Probe], cap: int) -> list[Probe]:
        chosen: list[Probe] = []
        methods = sorted({p.method for p in probes})
        for method in methods:
            mine = [p for p in probes if p.method == method]
            yes = [p for p in mine if p.expect is True]
            no = [p for p in mine if p.expect is False]
            take_yes = self.rng.sample(yes, cap)
            wanted = max(cap // 2, min(cap, len(take_yes) + 1))
            # half near misses (the likeliest wrong answers), half at random
            best = max((p.near for p in no), default=0)
            near = [p for p in no if p.near >= best - 1]
            take_no = self.rng.sample(near, (wanted + 1) // 2)
            rest = [p for p in no if p not in take_no]
            take_no += self.rng.sample(rest, wanted - len(take_no))
            chosen.extend(take_yes + take_no)
        return chosen

    def _probes(self, facts: Facts, move: str | None, full: bool) -> list[Probe]:
        probes: list[Probe] = []
        if move is not None:
            probes.extend(facts.component_probes(self.variation, self.state, move))
        if full:
            probes.extend(self._balanced(facts.decisive_pickups, self.density.cap))
            probes.extend(self._balanced(facts.accepts, self.density.cap))
        else:
            probes.extend(self._balanced(facts.decisive_pickups + facts.accepts, self.density.light))
        if full or facts.special != self._previous_special:
            probes.append(Probe("special_moves", (), facts.special))
        self._previous_special = facts.special
        unique: list[Probe] = []
        seen = set()
        for probe in probes:
            if probe.method not in self.categories:
                continue
            key = (probe.method, repr(probe.args))
            if key not in seen:
                seen.add(key)
                unique.append(probe)
        return unique

    # -- steps ---------------------------------------------------------------
    def _full_now(self) -> bool:
        return len(self.trace["steps"]) % self.density.full_every == 0

    def play(self, move: Move | str, note: str = "", full: bool | None = None,
             won: bool | None = None) -> bool:
        """Record ``move`` (legal or not) with its questions; returns whether it was legal."""
        move = parse_move(move) if isinstance(move, str) else move
        text = str(move)
        full = self._full_now() if full is None else full
        facts = self.facts()
        self.known_actions.update(facts.special)
        if full:
            self._attempt_illegal_actions(facts)
        step: dict[str, Any] = {}
        probes = self._probes(facts, text, full)
        if probes:
            step["probes"] = [p.to_json() for p in probes]
        if full:
            step["moves"] = facts.legal
            step["pickups"] = dict(facts.pickups)
        action = engine.is_action(self.variation, move)
        legal = engine.check_move(self.variation, self.state, move) is None
        step.update({"move": text, "action": action, "legal": legal})
        effect = False
        if legal:
            middle = self.state.copy()
            engine.move_cards(self.variation, middle, move)
            after = middle.copy()
            self.variation.after_move(after, move)
            if action:
                step["after_move_stage"] = state_lines(format_state(middle))
            step["state"] = state_lines(format_state(after))
            effect = after != middle
            self.state = after
        self._finish_step(step, note, won, legal_effect=(legal, effect))
        return legal

    def ask(self, note: str = "", won: bool | None = True) -> None:
        """Record a step without a move: the full question set at the current state."""
        facts = self.facts()
        step: dict[str, Any] = {}
        probes = self._probes(facts, None, True)
        if probes:
            step["probes"] = [p.to_json() for p in probes]
        step["moves"] = facts.legal
        step["pickups"] = dict(facts.pickups)
        self._finish_step(step, note, won, legal_effect=(False, False))

    def _attempt_illegal_actions(self, facts: Facts) -> None:
        for text in sorted(self.known_actions - set(facts.special)):
            if self.rng.chance(self.density.action_attempts):
                move = parse_move(text)
                if engine.check_move(self.variation, self.state, move) is not None:
                    step = {"move": text, "action": True, "legal": False}
                    self._finish_step(step, "an action that is not allowed here", False, (False, False))

    def _finish_step(self, step: dict[str, Any], note: str, won: bool | None,
                     legal_effect: tuple[bool, bool]) -> None:
        is_won = engine.is_won(self.variation, self.state)
        if won is None:
            won = is_won or self.rng.chance(self.density.won)
        if won and "is_won" in self.categories:
            step["won"] = is_won
        if note:
            step["note"] = note
        legal, effect = legal_effect
        index = len(self.trace["steps"])
        if legal and "after_move" in self.categories:
            if effect or step.get("action"):
                self._effects += 1
                step["score_effects"] = True
            else:
                self._noops.append(index)
        self.trace["steps"].append(step)

    # -- the result ----------------------------------------------------------
    def result(self) -> dict[str, Any]:
        """The finished trace: the last state gets the full question set."""
        steps = self.trace["steps"]
        if not steps or "moves" not in steps[-1] or "move" in steps[-1]:
            self.ask("the final position")
        wanted = max(1, round(self._effects * self.density.noop_ratio))
        if "after_move" not in self.categories:
            wanted = 0
        for index in self.rng.sample(self._noops, wanted):
            steps[index]["score_effects"] = True
        for step in steps:
            categories = {p["method"] for p in step.get("probes", ())}
            if "move" in step:
                if step["action"]:
                    categories.add("special_moves")
                    if step["legal"]:
                        categories.add("apply_special")
                if step.pop("score_effects", False):
                    categories.add("after_move")
            if "won" in step:
                categories.add("is_won")
            step["categories"] = sorted(categories)
        return self.trace


# -- playing -------------------------------------------------------------------
def progress(variation: Variation, state: State) -> int:
    """A game-blind measure of progress: cards on foundations, face-down tableau cards."""
    score = 0
    for spec in variation.layout.piles:
        pile = state.piles[spec.name]
        if spec.kind == FOUNDATION:
            score += 4 * len(pile.cards)
        elif spec.kind == TABLEAU:
            score -= pile.down
            if not pile.cards:
                score += 1
    return score


def playout(builder: TraceBuilder, steps: int, greedy: float = 0.6, action_bias: float = 0.0) -> int:
    """Play up to ``steps`` seeded moves: mostly the most progressing, never a repeated state.

    With chance ``action_bias`` an action (``s>w``, ``deal`` ...) is preferred when
    one is legal, so that long playouts get through the stock. Returns the number
    of moves played; stops when the game is won or stuck.
    """
    variation = builder.variation
    seen = {builder.state.key()}
    played = 0
    while played < steps and not builder.won:
        choice = choose_move(variation, builder.state, builder.legal_moves(), builder.rng, seen,
                             greedy, action_bias)
        if choice is None:
            break
        builder.play(choice)
        seen.add(builder.state.key())
        played += 1
    return played


def choose_move(variation: Variation, state: State, moves: list[Move], rng: Rng, seen: set[Any],
                greedy: float, action_bias: float) -> Move | None:
    """A seeded choice among ``moves`` leading to unseen states (None: there is none)."""
    options = []
    for move in moves:
        after = engine.apply_unchecked(variation, state, move)
        if after.key() not in seen:
            options.append((move, after))
    if not options:
        return None
    actions = [(m, a) for m, a in options if engine.is_action(variation, m)]
    if actions and rng.chance(action_bias):
        options = actions
    elif rng.chance(greedy):
        best = max(progress(variation, after) for _, after in options)
        options = [(m, a) for m, a in options if progress(variation, a) == best]
    return rng.choice(options)[0]


def search_win(variation: Variation, state: State, max_nodes: int = 20000) -> list[Move] | None:
    """A winning line from ``state`` by depth-first search (most progress first), or None."""
    seen = {state.key()}
    nodes = 0
    path: list[Move] = []
    stack: list[list[tuple[Move, State]]] = []

    def children(current: State) -> list[tuple[Move, State]]:
        found = []
        for move in engine.legal_moves(variation, current):
            after = engine.apply_unchecked(variation, current, move)
            if after.key() not in seen:
                found.append((move, after))
        found.sort(key=lambda pair: progress(variation, pair[1]))  # best last: popped first
        return found

    if engine.is_won(variation, state):
        return []
    stack.append(children(state))
    while stack:
        frame = stack[-1]
        if not frame:
            stack.pop()
            if path:
                path.pop()
            continue
        move, after = frame.pop()
        if after.key() in seen:
            continue
        seen.add(after.key())
        nodes += 1
        if nodes > max_nodes:
            return None
        path.append(move)
        if engine.is_won(variation, after):
            return path
        stack.append(children(after))
    return None
