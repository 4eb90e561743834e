"""Moves and their canonical text notation.

========================  =====================================================
notation                  meaning
========================  =====================================================
``t3>f2``                 move the top card of t3 onto f2
``t4:3>t7``               move the top three cards of t4, as a unit, onto t7
``s>w``                   discard the drawn stock card to the waste
``deal``, ``redeal``      an action word of the variation
``rotate t4``             an action with arguments (pile names, cards, numbers)
``t3+t5``                 remove a pair (or group) of top cards together
========================  =====================================================

``parse_move(str(m)) == m`` for every move. A count of one is never written.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import InvalidNotation

MOVE = "move"
REMOVE = "remove"
_PILE = r"[a-z]+[0-9]*"
_CARD_MOVE = re.compile(rf"^({_PILE})(?::([1-9][0-9]*))?>({_PILE})$")
_REMOVAL = re.compile(rf"^{_PILE}(?:\+{_PILE})+$")
_ACTION = re.compile(r"^[a-z][a-z_]*$")
_ARG = re.compile(r"^[A-Za-z0-9]+$")


class Move(NamedTuple):
    """A move: ``kind`` is ``"move"``, ``"remove"`` or an action word.

    For ``"move"`` ``args`` is ``(source, target)`` and ``count`` the number of
    cards; for ``"remove"`` ``args`` are the piles whose top cards go; for an
    action ``args`` are its arguments.
    """

    kind: str
    args: tuple[str, ...] = ()
    count: int = 1  # type: ignore[assignment]  # shadows tuple.count on purpose

    @property
    def source(self) -> str:
        return self.args[0]

    @property
    def target(self) -> str:
        return self.args[1]

    @property
    def is_card_move(self) -> bool:
        return self.kind == MOVE

    def __str__(self) -> str:
        if self.kind == MOVE:
            count = f":{self.count}" if self.count != 1 else ""
            return f"{self.args[0]}{count}>{self.args[1]}"
        if self.kind == REMOVE:
            return "+".join(self.args)
        return " ".join((self.kind, *self.args))

    def __repr__(self) -> str:
        return f"Move('{self}')"


def card_move(source: str, target: str, count: int = 1) -> Move:
    """The move of the top ``count`` cards of ``source`` onto ``target``."""
    return Move(MOVE, (source, target), count)


def action(word: str, *args: str) -> Move:
    """An action of the variation, such as ``deal`` or ``rotate t4``."""
    return Move(word, tuple(args))


def removal(*piles: str) -> Move:
    """The removal of the top cards of ``piles`` together (a pair in Monte Carlo, say)."""
    return Move(REMOVE, tuple(piles))


def parse_move(text: str) -> Move:
    """Parse the canonical move notation (see the module docstring)."""
    token = " ".join(text.split())
    match = _CARD_MOVE.match(token)
    if match:
        source, count, target = match.groups()
        if source == target:
            raise InvalidNotation(f"not a move: {text!r} (source and target are the same pile)")
        return card_move(source, target, int(count) if count else 1)
    if _REMOVAL.match(token):
        return removal(*token.split("+"))
    words = token.split(" ")
    if words[0] in (MOVE, REMOVE) or not _ACTION.match(words[0]) or not all(
        _ARG.match(w) for w in words[1:]
    ):
        raise InvalidNotation(
            f"not a move: {text!r} (expected e.g. t3>f2, t4:3>t7, s>w, deal, t3+t5)"
        )
    return action(words[0], *words[1:])
