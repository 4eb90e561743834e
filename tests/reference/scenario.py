"""Helpers shared by the scenario tests of the reference variations.

A test module makes one :class:`Scenario` for its variation and binds the
helpers it uses, e.g. ``legal, play, same = S.legal, S.play, S.same``; its own
``board`` (the header lines of that variation: options, phase, counters) builds
positions with :meth:`Scenario.build`. The folder has no ``__init__.py``, so
pytest's default import mode puts it on ``sys.path`` and ``from scenario import
Scenario`` works.
"""

from collections.abc import Callable, Mapping

from solitaire import apply, check_move, format_state, legal_moves, parse_move, parse_state
from solitaire.engine import check_state
from solitaire.state import State
from solitaire.variation import Variation


def flag(value: bool) -> str:
    """An option value of the state notation: ``true`` or ``false``."""
    return "true" if value else "false"


class Scenario:
    """Position builder and move verdicts for one variation."""

    def __init__(self, variation: Variation) -> None:
        self.variation = variation
        self.names = variation.layout.names

    def build(self, header: str, piles: Mapping[str, str],
              default: Callable[[str], str] = lambda name: "") -> State:
        """A checked position: the ``header`` lines (``"name options"``, ``"phase ..."``), then every
        pile of the layout holding ``piles[name]`` (bottom first) or else ``default(name)``."""
        unknown = set(piles) - set(self.names)
        assert not unknown, unknown
        lines = [header] + [f"{name}: {piles.get(name, default(name))}" for name in self.names]
        state = parse_state("\n".join(lines))
        check_state(self.variation, state)
        return state

    def legal(self, state: State, move: str) -> bool:
        """True when the engine accepts ``move`` in ``state``."""
        return check_move(self.variation, state, parse_move(move)) is None

    def play(self, state: State, *moves: str) -> State:
        """The state after the ``moves``, each applied in turn (an illegal one raises IllegalMove)."""
        for move in moves:
            state = apply(self.variation, state, parse_move(move))
        return state

    @staticmethod
    def same(actual: State, expected: State) -> None:
        """Assert the two states have the same canonical text."""
        assert format_state(actual) == format_state(expected)

    def moves(self, state: State) -> list[str]:
        """Every legal move in ``state``, as sorted text."""
        return sorted(str(m) for m in legal_moves(self.variation, state))

    def specials(self, state: State) -> list[str]:
        """The variation's special moves in ``state``, as sorted text."""
        return sorted(str(m) for m in self.variation.special_moves(state))
