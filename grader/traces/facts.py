"""What the reference says about one state: every question the engine could ask it.

For a state, :class:`Facts` holds the reference's answer to every rule-method
call the engine would make when listing legal moves, and from it the probes a
trace may carry:

* ``can_pick_up(pile, n)`` for every pile and every count of face-up cards;
  a probe of it is *decisive* when some target's accept method (as the
  reference answers it) would take those cards, so that a wrong answer
  changes the legal moves. Only decisive can_pick_up probes are asked: a
  differently factored but correct implementation may answer the others
  either way.
* the accept method of every target (``foundation_accepts`` for a
  foundation, ``space_accepts`` for an empty pile, ``tableau_accepts``
  otherwise) for every pick-up the reference allows and the engine's own
  guards (target kind, capacity, not the source) let through: exactly the
  inputs the engine itself passes, so a correct implementation must agree.
* in a game with removals (``a+b``, see :mod:`solitaire.variation`),
  ``foundation_accepts(d, cards, "a+b")`` for every set of piles whose top
  cards the reference lets be picked up; a ``can_pick_up(pile, 1)`` probe is
  also decisive when a removal naming that pile would be accepted;
* ``special_moves()`` and the legal-move set.

The legal-move set derived here is checked against :func:`solitaire.engine.legal_moves`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from solitaire import engine
from solitaire.cards import Card
from solitaire.moves import REMOVE, Move, card_move, parse_move
from solitaire.piles import FOUNDATION_KINDS
from solitaire.state import State
from solitaire.variation import RULE_METHODS, Variation


def rule_methods_of(cls: type) -> list[str]:
    """The rule methods a variation class overrides: its grading categories."""
    own = [k for k in cls.__mro__ if k is not Variation and issubclass(k, Variation)]
    return [m for m in RULE_METHODS if any(m in vars(k) for k in own)]


@dataclass(frozen=True)
class Probe:
    method: str
    args: tuple[Any, ...]
    expect: Any
    near: int = field(default=0, compare=False)  # how nearly the cards fit (near misses first)

    def to_json(self) -> dict[str, Any]:
        args = [list(a) if isinstance(a, tuple) else a for a in self.args]
        expect = list(self.expect) if isinstance(self.expect, tuple) else self.expect
        return {"method": self.method, "args": args, "expect": expect}


def accept_method(variation: Variation, state: State, target: str) -> str:
    """The rule method the engine asks whether ``target`` takes cards."""
    if variation.kind(target) in FOUNDATION_KINDS:
        return "foundation_accepts"
    return "tableau_accepts" if state.piles[target].cards else "space_accepts"


def nearness(top: Card | None, card: Card) -> int:
    """How nearly ``card`` fits onto ``top`` by suit, colour and rank (game-blind): a
    wrong answer for a near miss (a card of the right suit one rank off, say) is the
    likeliest bug, so balanced samples of answers False take near misses first."""
    if top is None:
        return 2
    gap = abs(top.rank - card.rank)
    return 3 * (top.suit == card.suit) + (top.color == card.color) + 2 * (gap <= 1 or gap == 12) + (gap == 2)


def _quiet(function: Any, *args: Any) -> bool:
    """A reference answer to a question the engine never asks (only to judge decisiveness)."""
    try:
        return function(*args) is True
    except Exception:  # noqa: BLE001 - the reference need not answer unreachable questions
        return False


@dataclass
class Facts:
    """The reference's answers at one state (see the module docstring)."""

    pickups: dict[str, str] = field(default_factory=dict)
    decisive_pickups: list[Probe] = field(default_factory=list)
    accepts: list[Probe] = field(default_factory=list)
    special: tuple[str, ...] = ()
    legal: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, variation: Variation, state: State) -> Facts:
        facts = cls()
        state = state.copy()
        targets = [spec for spec in variation.layout.piles if spec.is_target]
        legal_card_moves = []
        for source in variation.layout.names:
            pile = state.piles[source]
            flags = []
            for count in range(1, len(pile.cards) - pile.down + 1):
                cards = pile.cards[len(pile.cards) - count:]
                can = variation.can_pick_up(state, source, count)
                if type(can) is not bool:
                    raise TypeError(f"reference can_pick_up returned {can!r}")
                flags.append("1" if can else "0")
                answers = []
                for spec in targets:
                    target = spec.name
                    if target == source:
                        continue
                    if spec.capacity is not None and len(state.piles[target]) + count > spec.capacity:
                        continue
                    method = accept_method(variation, state, target)
                    if can:
                        value = getattr(variation, method)(state, target, cards, source)
                        if type(value) is not bool:
                            raise TypeError(f"reference {method} returned {value!r}")
                    else:
                        value = _quiet(getattr(variation, method), state, target, cards, source)
                    answers.append(Probe(method, (target, tuple(str(c) for c in cards), source), value,
                                         nearness(state.piles[target].top, cards[0])))
                    if can and value:
                        legal_card_moves.append(str(card_move(source, target, count)))
                if any(answer.expect for answer in answers):
                    facts.decisive_pickups.append(Probe("can_pick_up", (source, count), can))
                if can:
                    facts.accepts.extend(answers)
            if flags:
                facts.pickups[source] = "".join(flags)
        legal_card_moves += facts._removals(variation, state)
        facts.special = tuple(sorted(str(m) for m in variation.special_moves(state)))
        facts.legal = sorted(legal_card_moves + list(facts.special))
        check = sorted(str(m) for m in engine.legal_moves(variation, state))
        if check != facts.legal:
            raise AssertionError(f"probe table disagrees with the engine: {facts.legal} != {check}")
        return facts

    def _removals(self, variation: Variation, state: State) -> list[str]:
        """Probe every removal of top cards the engine could list; the legal ones, as text."""
        if variation.removes < 2:
            return []
        discard = engine.discard_pile(variation)
        faced = [name for name in engine.removal_order(variation) if state.piles[name].top_is_face_up]
        picked = {name for name in faced if self.pickups.get(name, "0")[0] == "1"}
        decisive = {probe.args for probe in self.decisive_pickups}
        legal = []
        for size in range(2, variation.removes + 1):
            for piles in combinations(faced, size):
                text = str(Move(REMOVE, piles))
                cards = tuple(state.piles[name].cards[-1] for name in piles)
                args = (discard, tuple(str(c) for c in cards), text)
                if set(piles) <= picked:
                    value = variation.foundation_accepts(state, discard, cards, text)
                    if type(value) is not bool:
                        raise TypeError(f"reference foundation_accepts returned {value!r}")
                    near = nearness(cards[0], cards[1])
                    self.accepts.append(Probe("foundation_accepts", args, value, near))
                    if value:
                        legal.append(text)
                else:
                    value = _quiet(variation.foundation_accepts, state, discard, cards, text)
                for name in piles if value else ():
                    if (name, 1) not in decisive:
                        decisive.add((name, 1))
                        self.decisive_pickups.append(Probe("can_pick_up", (name, 1), name in picked))
        return legal

    def component_probes(self, variation: Variation, state: State, move: str) -> list[Probe]:
        """The probes that decide the card move or removal ``move`` (none for an engine-decided one)."""
        parsed = parse_move(move)
        if engine.is_action(variation, parsed):
            return []
        if parsed.kind == REMOVE:
            wanted = {(name, 1) for name in parsed.args}
            return [p for p in self.decisive_pickups if p.args in wanted] + [
                p for p in self.accepts if p.method == "foundation_accepts" and p.args[2] == move]
        source, target, count = parsed.source, parsed.target, parsed.count
        found = []
        for probe in self.decisive_pickups:
            if probe.args == (source, count):
                found.append(probe)
        for probe in self.accepts:
            if probe.args[0] == target and probe.args[2] == source and len(probe.args[1]) == count:
                found.append(probe)
        return found
