"""The best-first search keeps running when its open list runs dry: it takes over the
depth-first search's untried moves (:meth:`solitaire.solver._Path.steal`).

Before it did, a start with a single move (a safe move, as in most Indian deals) ended
the best-first search at once: the depth-first search had stepped into the only child
and claimed it, the best-first search found nothing unclaimed to open and returned, and
the depth-first search ran alone; the ``solver_estimate`` hint was asked once per deal,
so two different estimates gave the same counts. The soundness of the takeover (no
untried move is lost on the way) is checked by tests/engine/test_solver_soundness.py
against the hint-free search: a version that keeps only the first stolen move fails it.
"""

from __future__ import annotations

from solver_support import assert_solved_and_replayed

from solitaire import catalog
from solitaire.engine import new_game
from solitaire.solver import solve


def test_the_estimate_is_asked_after_a_start_with_one_safe_move():
    base = type(catalog.load("indian"))
    asked: list[int] = []

    class Counting(base):  # type: ignore[misc, valid-type]
        def solver_estimate(self, state):
            asked.append(1)
            return 0

    variation = Counting()
    start = new_game(variation, 1, variation.resolve_options({}))
    assert variation.safe_move(start) is not None  # the start's only move
    result = solve(variation, start, budget=200)
    assert result.nodes == 200
    assert len(asked) > 200, len(asked)  # every state the best-first search opened


def test_a_win_found_after_a_takeover_replays():
    """Indian deal 1 is won by the best-first search from moves it took over (its path
    starts with the depth-first search's); undecided at 2,000 nodes before the takeover."""
    variation = catalog.load("indian")
    state = new_game(variation, 1, variation.resolve_options({}))
    assert_solved_and_replayed(variation, state, budget=2_000)


def test_a_takeover_gives_the_shallowest_untried_moves_and_the_moves_to_their_state():
    from solitaire.solver import _Level, _Path

    path = _Path()
    path.levels = [
        _Level("start", ["a"]), _Level("after a", ["b", "c", "d"]), _Level("after a b", ["e", "f"])
    ]
    path.moves = ["a", "b"]
    path.levels[0].at = 1  # "a" tried
    path.levels[1].at = 1  # "b" tried: the search is at "after a b"
    assert path.steal() == ("after a", ["a"], ["c", "d"])
    assert path.levels[1].at == 3  # the depth-first search will not try c or d
    assert path.steal() == ("after a b", ["a", "b"], ["e", "f"])
    assert path.steal() is None
