"""The stock beam: a third search of the solver (:func:`solitaire.solver.solve`) for games
with a long stock, which finds wins in many passes through the stock at once.

It knows no game either: a *draw* is a move from a pile of kind stock or an action, and
states are ranked by the best-first search's estimate (:func:`solitaire.solver.promise_of`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Generator
from itertools import count

from .engine import apply_unchecked, is_action
from .moves import Move
from .piles import STOCK
from .solver import LOST, WON, Key, Outcome, Search, expansion, promise_of, unwind
from .state import State
from .variation import Variation

LONG_STOCK = 4  # a stock is long when it holds at least a quarter of the deck
BEAM_FIRST_WIDTH = 8  # states kept at each draw in the first pass
BEAM_GROWTH = 4  # each later pass keeps this many times as many
BEAM_LAYER_SHARE = 4  # expansions a draw gets, per state kept
BEAM_LAST_SHARE = 40  # expansions after the last draw, per state kept
BEAM_TURNS = 2  # turns the beam takes after each round of the two complete searches: half the budget


def _stock_cards(variation: Variation, state: State) -> int:
    return sum(len(state.piles[name].cards) for name in variation.piles(STOCK))


def has_long_stock(variation: Variation, state: State) -> bool:
    """Whether the stock piles of ``state`` hold at least a quarter of the deck."""
    return _stock_cards(variation, state) * LONG_STOCK >= variation.deck.size


def beam_fits(variation: Variation, state: State, budget: int) -> bool:
    """Whether :func:`solve` runs the stock beam from ``state``: the stock is long, and its
    share of ``budget`` (half: it takes two turns for the complete searches' two) leaves
    room for its first pass,
    ``BEAM_FIRST_WIDTH`` states kept at each draw, that is ``BEAM_FIRST_WIDTH`` times
    (``BEAM_LAYER_SHARE`` times the stock's cards, plus ``BEAM_LAST_SHARE``) expansions.
    With less, the beam could not reach the end of the stock and would only take budget
    from the complete searches."""
    if not has_long_stock(variation, state):
        return False
    first_pass = BEAM_FIRST_WIDTH * (BEAM_LAYER_SHARE * _stock_cards(variation, state) + BEAM_LAST_SHARE)
    return first_pass * (BEAM_TURNS + 2) <= budget * BEAM_TURNS


def draw_test(variation: Variation) -> Callable[[Move], bool]:
    """Whether a move is a *draw* of the beam: an action, or a move from a stock pile."""
    stocks = frozenset(variation.piles(STOCK))

    def draws(move: Move) -> bool:
        return is_action(variation, move) or (move.is_card_move and move.source in stocks)

    return draws


def stock_beam(variation: Variation, state: State, key: Key) -> Search:
    """A beam search through the stock, in passes of growing width; it finds wins.

    In a game with a long stock the two complete searches spend their budget in the
    endgames of a few passes through the stock (the best-first search keeps taking the
    states with the most cards up, which lie near the end of the stock). The beam moves
    through the stock one *draw* at a time (a move from a stock pile, or an action such
    as ``s>w``, ``deal`` or ``redeal``): at each draw it keeps the ``width`` most
    promising states (:func:`promise_of`) that the draw before led to, expands at most
    ``BEAM_LAYER_SHARE`` times ``width`` states between two draws, best first, and
    after the last draw ``BEAM_LAST_SHARE`` times ``width``. So it follows many
    different passes through the stock to their endgames. A pass that drops nothing
    has expanded every reachable state (under the safe-move rule and the
    :meth:`~Variation.hopeless` hint, as the other searches): it returns ``lost``.
    Otherwise a new pass starts, ``BEAM_GROWTH`` times as wide. It keeps its own
    table of the states it has seen, and claims none: the complete searches owe it
    nothing, and it owes them nothing.
    """
    promise = promise_of(variation)
    draws = draw_test(variation)
    width = BEAM_FIRST_WIDTH
    while True:
        found = yield from _beam_pass(variation, state, key, width, promise, draws)
        if found is not None:
            return found
        width *= BEAM_GROWTH


def _beam_pass(
    variation: Variation, start: State, key: Key, width: int,
    promise: Callable[[State], int], draws: Callable[[Move], bool],
) -> Generator[None, None, Outcome | None]:
    tick = count()
    seen = {key(start)}
    # each entry: (promise, tick, parent, move, path); the state is made again when taken
    layers: dict[int, list[tuple[int, int, State, Move | None, object]]] = {
        0: [(promise(start), next(tick), start, None, None)]
    }
    dropped = False
    while layers:
        draw = min(layers)
        entries = layers.pop(draw)
        if len(entries) > width:
            entries = heapq.nsmallest(width, entries)
            dropped = True
        heapq.heapify(entries)
        expanded = 0
        while entries:
            if expanded >= width * (BEAM_LAYER_SHARE if layers else BEAM_LAST_SHARE):
                dropped = True
                break
            _, _, parent, move, path = heapq.heappop(entries)
            current = parent if move is None else apply_unchecked(variation, parent, move)
            moves = expansion(variation, current)
            expanded += 1
            yield
            for child_move in moves:
                child = apply_unchecked(variation, current, child_move)
                child_key = key(child)
                if child_key in seen:
                    continue
                seen.add(child_key)
                child_path: object = (child_move, path)
                if variation.is_won(child):
                    return WON, unwind(child_path)
                entry = (promise(child), next(tick), current, child_move, child_path)
                if draws(child_move):
                    layers.setdefault(draw + 1, []).append(entry)
                else:
                    heapq.heappush(entries, entry)
    return None if dropped else (LOST, [])
