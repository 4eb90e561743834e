"""The state of a game and its canonical text notation.

A :class:`State` is plain data: the variation's name and options, a phase word,
named integer counters (such as redeals left) and the piles. Copying is cheap
because piles are immutable values: a copy shares them until one is replaced.

Canonical notation, one item per line::

    scorpion moves=runs              variation name, then every option (sorted)
    phase play reserve=1             phase word, then every counter (sorted)
    t1: kd qd 5S 4S                  one line per pile, in layout order;
    ...                              face-down cards in lower case
    r: 2c 9h js

``parse_state(format_state(s)) == s`` for every state, and two correct
implementations print the same state byte for byte.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from .cards import Card, parse_card
from .errors import InvalidNotation
from .piles import EMPTY, Pile
from .rng import shuffled

OptionValue = bool | int | str
_WORD = re.compile(r"^[a-z][a-z0-9_]*$")
_PILE_NAME = re.compile(r"^[a-z]+[0-9]*$")


class State:
    """A position: ``variation``, ``options``, ``phase``, ``counters``, ``piles``.

    Rule methods read it and, where the contract says so, change it in place
    with :meth:`take`, :meth:`put`, :meth:`turn_up` and friends.
    """

    __slots__ = ("variation", "options", "phase", "counters", "piles")

    def __init__(
        self,
        variation: str,
        options: Mapping[str, OptionValue],
        piles: Mapping[str, Pile] | Iterable[str],
        phase: str = "play",
        counters: Mapping[str, int] | None = None,
    ) -> None:
        self.variation = variation
        self.options: dict[str, OptionValue] = dict(options)
        if isinstance(piles, Mapping):
            self.piles: dict[str, Pile] = dict(piles)
        else:
            self.piles = {name: EMPTY for name in piles}
        self.phase = phase
        self.counters: dict[str, int] = dict(counters or {})

    # -- values -----------------------------------------------------------
    def copy(self) -> State:
        new = State.__new__(State)
        new.variation = self.variation
        new.options = self.options  # never changed after creation
        new.piles = self.piles.copy()
        new.phase = self.phase
        new.counters = self.counters.copy()
        return new

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.piles == other.piles
            and self.phase == other.phase
            and self.counters == other.counters
            and self.variation == other.variation
            and self.options == other.options
        )

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple[object, ...]:
        """A hashable value equal for equal states (options excluded: fixed per game)."""
        return (self.phase, tuple(sorted(self.counters.items())), tuple(self.piles.values()))

    def __repr__(self) -> str:
        return f"<State {self.variation} phase={self.phase}>"

    def __str__(self) -> str:
        return format_state(self)

    # -- reading ----------------------------------------------------------
    def __getitem__(self, name: str) -> Pile:
        return self.piles[name]

    def __contains__(self, name: object) -> bool:
        return name in self.piles

    def top(self, name: str) -> Card | None:
        """The top card of pile ``name`` (face up or not), or None when it is empty."""
        cards = self.piles[name].cards
        return cards[-1] if cards else None

    def is_empty(self, name: str) -> bool:
        return not self.piles[name].cards

    def option(self, name: str) -> OptionValue:
        return self.options[name]

    def cards(self) -> Iterator[Card]:
        """Every card of the state, pile by pile."""
        for pile in self.piles.values():
            yield from pile.cards

    # -- changing (in place) ----------------------------------------------
    def take(self, name: str, count: int = 1) -> tuple[Card, ...]:
        """Remove the top ``count`` cards of pile ``name`` and return them, lowest first."""
        pile = self.piles[name]
        self.piles[name] = pile.without_top(count)
        return pile.cards[len(pile.cards) - count:]

    def put(self, name: str, cards: Iterable[Card], face_up: bool = True) -> None:
        """Put ``cards`` on top of pile ``name``, the first of them lowest."""
        self.piles[name] = self.piles[name].added(cards, face_up)

    def put_under(self, name: str, cards: Iterable[Card], face_up: bool = False) -> None:
        """Slide ``cards`` under pile ``name`` (to the bottom of a stock, say)."""
        self.piles[name] = self.piles[name].added_under(cards, face_up)

    def turn_up(self, name: str) -> bool:
        """Turn the top card of ``name`` face up if it is face down; True if it turned."""
        pile = self.piles[name]
        if pile.down < len(pile.cards) or not pile.cards:
            return False  # top already face up, or nothing to turn
        self.piles[name] = pile.turned_up()
        return True

    def set_pile(self, name: str, pile: Pile) -> None:
        self.piles[name] = pile

    def shuffled(self, cards: Iterable[Card]) -> list[Card]:
        """``cards`` after the game's next in-game shuffle (RULINGS-000 G6).

        Reads counter ``shuffle_seed`` and advances counter ``shuffles`` (the
        shuffles done so far) to k, then shuffles with
        :func:`solitaire.rng.shuffled`: a function of the state alone, so a replay
        or a resync to a recorded state shuffles the same. The counters are set at
        the deal by :meth:`solitaire.variation.Variation.start_shuffles`.
        """
        k = self.counters["shuffles"] + 1
        self.counters["shuffles"] = k
        return shuffled(list(cards), self.counters["shuffle_seed"], k)


# -- notation ---------------------------------------------------------------
def format_option_value(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_option_value(text: str) -> OptionValue:
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", text):
        raise InvalidNotation(f"not an option value: {text!r}")
    return text


def format_card(card: Card, face_up: bool) -> str:
    text = str(card)
    return text if face_up else text.lower()


def format_pile(name: str, pile: Pile) -> str:
    parts = [name + ":"]
    down = pile.down
    for i, card in enumerate(pile.cards):
        parts.append(format_card(card, i >= down))
    return " ".join(parts)


def format_state(state: State) -> str:
    """The canonical text of ``state`` (lines end with a newline)."""
    head = [state.variation] + [
        f"{k}={format_option_value(v)}" for k, v in sorted(state.options.items())
    ]
    phase = ["phase", state.phase] + [f"{k}={v}" for k, v in sorted(state.counters.items())]
    lines = [" ".join(head), " ".join(phase)]
    lines.extend(format_pile(name, pile) for name, pile in state.piles.items())
    return "\n".join(lines) + "\n"


def _parse_pairs(tokens: list[str], what: str, line_no: int) -> list[tuple[str, str]]:
    pairs = []
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep or not _WORD.match(key) or not value:
            raise InvalidNotation(f"line {line_no}: {what} must be name=value, got {token!r}")
        pairs.append((key, value))
    return pairs


def parse_pile(text: str, line_no: int = 0) -> tuple[str, Pile]:
    name, sep, rest = text.partition(":")
    name = name.strip()
    if not sep or not _PILE_NAME.match(name):
        raise InvalidNotation(f"line {line_no}: expected 'pile: cards', got {text.strip()!r}")
    cards: list[Card] = []
    down = 0
    for token in rest.split():
        try:
            card = parse_card(token)
        except InvalidNotation as err:
            raise InvalidNotation(f"line {line_no} (pile {name}): {err}") from None
        face_up = token == token.upper()
        if token != token.upper() and token != token.lower():
            raise InvalidNotation(f"line {line_no} (pile {name}): mixed case card {token!r}")
        if not face_up:
            if down != len(cards):
                raise InvalidNotation(
                    f"line {line_no} (pile {name}): face-down card {token} above a face-up card"
                )
            down += 1
        cards.append(card)
    return name, Pile(cards, down)


def parse_state(text: str) -> State:
    """Parse the canonical notation (see the module docstring) into a State."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        raise InvalidNotation("a state needs a variation line, a phase line and pile lines")
    head = lines[0].split()
    if not _WORD.match(head[0]):
        raise InvalidNotation(f"line 1: not a variation name: {head[0]!r}")
    options = {k: parse_option_value(v) for k, v in _parse_pairs(head[1:], "an option", 1)}
    phase_tokens = lines[1].split()
    if len(phase_tokens) < 2 or phase_tokens[0] != "phase" or not _WORD.match(phase_tokens[1]):
        raise InvalidNotation(f"line 2: expected 'phase WORD [counter=N ...]', got {lines[1]!r}")
    counters: dict[str, int] = {}
    for key, value in _parse_pairs(phase_tokens[2:], "a counter", 2):
        if not re.fullmatch(r"-?[0-9]+", value):
            raise InvalidNotation(f"line 2: counter {key} must be a whole number, got {value!r}")
        counters[key] = int(value)
    piles: dict[str, Pile] = {}
    for line_no, line in enumerate(lines[2:], start=3):
        name, pile = parse_pile(line, line_no)
        if name in piles:
            raise InvalidNotation(f"line {line_no}: pile {name} appears twice")
        piles[name] = pile
    return State(head[0], options, piles, phase_tokens[1], counters)
