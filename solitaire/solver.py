"""A generic solver: two complete searches over the engine's legal moves, run side by side
(and, with a long stock, a beam through the stock beside them).

It knows no game. From a position it runs, one expansion (one generation of
legal moves) at a time in turn:

* a **depth-first** search that tries moves in a generic order (onto a
  foundation first; then moves that turn up a card or empty a pile; then cards
  from piles that are not tableau piles, such as the stock, the waste or a cell;
  then moves whose source's new top card can go to a foundation; then actions
  such as ``s>w`` or ``deal``; then other moves, and moves into an empty pile
  last);
* a **best-first** search that always expands the most promising state seen:
  most cards on the foundations, then the fewest cards lying above the cards
  the foundations take next, and face down.

The two share one transposition table (on :func:`state_key`): a search
*claims* a state when it commits to expanding it (the depth-first search when
it steps into it, the best-first search when it takes it off its open list)
and skips a state another search has claimed, so no state's subtree is
searched twice. When the best-first search has nothing left to open while the
depth-first search still has untried moves, it takes over those of the
shallowest state on the depth-first path (the depth-first search no longer
tries them), so it does not stop while the depth-first search has work. Both
play a variation's :meth:`~Variation.safe_move` without alternatives when it
offers one, and neither expands a state the variation's
:meth:`~Variation.hopeless` hint calls dead. The hints
:meth:`~Variation.solver_priority` (the depth-first order) and
:meth:`~Variation.solver_estimate` (added to the best-first estimate) only
change which win is found first. A win found by either decides; a loss needs
both searches to have run out of states (see :func:`solve`); the budget
bounds the expansions of both together.

In a game with a long stock (at least a quarter of the deck at the start), when the
budget leaves room for its first pass, a third search takes two turns after their two, the
**stock beam** (:mod:`solitaire.solver_beam`): it goes through the stock one draw at a time,
keeping only the most promising states at each draw, in passes of growing width. It
finds wins in many different passes through the stock, where the two complete
searches spend their budget in the endgames of a few; it claims no state, so it
leaves their loss proofs as they were.

The answer is honest: ``won`` with the move list (replayable with
:func:`solitaire.engine.apply`), ``lost`` when every state reachable from the
start was expanded without a win (a proof: safe moves never turn a winnable
position into a lost one), ``undecided`` when the budget ran out first. A state
the variation's :meth:`~Variation.hopeless` hint proves lost is claimed and
counted but not expanded: no win lies beyond it.

Piles of the kinds a variation declares ``interchangeable`` (a solver hint:
foundations with no fixed suit, free cells that are alike), or that its
:meth:`~Variation.interchangeable_in` hint names for a state, may trade
places, so two states that differ only by their order are the same position
to the solver. A variation that declares none gets none;
``solve(..., symmetric=False)`` ignores the hint.
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from collections.abc import Callable, Generator, Hashable, Iterable
from dataclasses import dataclass, field
from itertools import count

from .cards import Card
from .engine import apply_unchecked, check_move, is_action, legal_moves
from .moves import REMOVE, Move, card_move
from .piles import DISCARD, FOUNDATION, STOCK, TABLEAU, Pile
from .state import State
from .variation import Variation

WON, LOST, UNDECIDED = "won", "lost", "undecided"


@dataclass
class Solution:
    """The solver's answer: ``outcome`` (won, lost, undecided), the winning
    ``moves`` when won, the number of states expanded and the time taken."""

    outcome: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


# -- the position key ----------------------------------------------------------------
Key = Callable[[State], Hashable]


def _pile_order(pile: Pile) -> tuple[int, tuple[Card, ...], int]:
    return (len(pile.cards), pile.cards, pile.down)


def state_key(variation: Variation, symmetric: bool = True) -> Key:
    """A function giving each state a hashable key, equal for states that are the same
    position: with ``symmetric``, the piles of each interchangeable kind in any order
    (the kinds :meth:`Variation.interchangeable_in` names for the state)."""
    if not symmetric:
        return State.key
    names = variation.layout.names
    per_state = type(variation).interchangeable_in is not Variation.interchangeable_in
    layouts: dict[tuple[str, ...], tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None] = {}

    def grouping(kinds: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None:
        found = layouts.get(kinds, ())
        if found != ():
            return found  # type: ignore[return-value]
        groups = [
            tuple(index for index, name in enumerate(names) if variation.layout.by_name[name].kind == kind)
            for kind in kinds
        ]
        groups = [group for group in groups if len(group) > 1]
        grouped = {index for group in groups for index in group}
        ungrouped = tuple(index for index in range(len(names)) if index not in grouped)
        result = (ungrouped, tuple(groups)) if groups else None
        layouts[kinds] = result
        return result

    if not per_state:
        fixed = grouping(tuple(variation.interchangeable))
        if fixed is None:
            return State.key
        ungrouped, groups = fixed

        def key(state: State) -> Hashable:
            piles = tuple(state.piles.values())
            return (
                state.phase,
                tuple(sorted(state.counters.items())),
                tuple(piles[index] for index in ungrouped),
                tuple(tuple(sorted((piles[index] for index in group), key=_pile_order)) for group in groups),
            )

        return key

    def key_in_state(state: State) -> Hashable:
        kinds = tuple(variation.interchangeable_in(state))
        found = grouping(kinds)
        if found is None:
            return (kinds, State.key(state))
        ungrouped, groups = found
        piles = tuple(state.piles.values())
        return (
            kinds,
            state.phase,
            tuple(sorted(state.counters.items())),
            tuple(piles[index] for index in ungrouped),
            tuple(tuple(sorted((piles[index] for index in group), key=_pile_order)) for group in groups),
        )

    return key_in_state


# -- move order ----------------------------------------------------------------------
def _target_foundations(variation: Variation) -> tuple[str, ...]:
    """The foundations that take card moves (Scorpion's only receive removed suits)."""
    return tuple(name for name in variation.piles(FOUNDATION) if variation.layout.by_name[name].is_target)


def _move_rank(variation: Variation, state: State, move: Move, foundations: tuple[str, ...]) -> int:
    if is_action(variation, move):
        return 4
    if move.kind == REMOVE:
        return 0  # cards out of play, as onto a foundation
    by_name = variation.layout.by_name
    if by_name[move.target].kind == FOUNDATION:
        return 0
    source = state.piles[move.source]
    left = len(source.cards) - move.count
    if source.down == left:
        return 1  # turns up a face-down card, or empties the source
    if by_name[move.source].kind != TABLEAU:
        return 2
    uncovered = source.cards[left - 1]
    if any(variation.foundation_accepts(state, f, (uncovered,), move.source) for f in foundations):
        return 3
    return 6 if not state.piles[move.target].cards else 5


def hinted(variation: Variation, hint: str) -> bool:
    """Whether the variation overrides the solver hint ``hint`` (a method of
    :class:`Variation` whose default gives no help), so the solver can skip the call."""
    return getattr(type(variation), hint) is not getattr(Variation, hint)


def expansion(variation: Variation, state: State) -> list[Move]:
    """The moves the solver expands ``state`` by, unordered: none when the variation's
    :meth:`~Variation.hopeless` hint proves it lost, its safe move alone when there is
    one, else every legal move."""
    if variation.hopeless(state):
        return []
    safe = variation.safe_move(state)
    return [safe] if safe is not None else legal_moves(variation, state)


def ordered_moves(variation: Variation, state: State) -> list[Move]:
    """The moves of ``state`` in the order the depth-first search tries them: the
    variation's safe move alone when there is one, else every legal move, ranked by
    the variation's :meth:`~Variation.solver_priority` hint, then generically."""
    safe = variation.safe_move(state)
    if safe is not None:
        return [safe]
    foundations = _target_foundations(variation)
    moves = legal_moves(variation, state)
    ranks = [_move_rank(variation, state, move, foundations) for move in moves]
    if hinted(variation, "solver_priority"):  # above the generic ranks (0 to 6)
        priority = variation.solver_priority
        ranks = [(priority(state, move) << 3) + rank for move, rank in zip(moves, ranks, strict=True)]
    return [move for _, _, move in sorted(zip(ranks, range(len(moves)), moves, strict=True))]


def _moves_unless_hopeless(variation: Variation, state: State) -> list[Move]:
    """No move from a state the variation's :meth:`~Variation.hopeless` hint proves lost."""
    return [] if variation.hopeless(state) else ordered_moves(variation, state)


# -- the two searches ----------------------------------------------------------------
# A search is a generator: it yields once per expansion and returns (outcome, moves).
Outcome = tuple[str, list[Move]]  # an outcome (won, lost) and, when won, the winning moves
Search = Generator[None, None, Outcome]


class _Level:
    """A state on the depth-first search's path and its moves, ``at`` the next to try."""

    __slots__ = ("state", "moves", "at")

    def __init__(self, state: State, moves: list[Move]) -> None:
        self.state = state
        self.moves = moves
        self.at = 0


class _Path:
    """The depth-first search's path: ``levels[i]`` is reached from the start by
    ``moves[:i]``. The best-first search takes over untried moves from it (:meth:`steal`)."""

    def __init__(self) -> None:
        self.levels: list[_Level] = []
        self.moves: list[Move] = []

    def steal(self) -> tuple[State, list[Move], list[Move]] | None:
        """The untried moves of the shallowest level that has any, with its state and
        the moves that reach it; the depth-first search will not try them. None when
        every level's moves are tried."""
        for depth, level in enumerate(self.levels):
            if level.at < len(level.moves):
                untried = level.moves[level.at:]
                level.at = len(level.moves)
                return level.state, self.moves[:depth], untried
        return None


def depth_first(
    variation: Variation, state: State, key: Key, claimed: set[Hashable], shared: _Path
) -> Search:
    """Depth-first search in the order of :func:`ordered_moves`; it claims a state (adds
    its key to ``claimed``) when it steps into it and skips the states already claimed.
    Its path lives in ``shared``, where the best-first search may take over untried moves."""
    claimed.add(key(state))
    levels, path = shared.levels, shared.moves
    levels.append(_Level(state, _moves_unless_hopeless(variation, state)))
    yield
    while levels:
        level = levels[-1]
        if level.at == len(level.moves):
            levels.pop()
            if path:
                path.pop()
            continue
        move = level.moves[level.at]
        level.at += 1
        child = apply_unchecked(variation, level.state, move)
        child_key = key(child)
        if child_key in claimed:
            continue
        claimed.add(child_key)
        path.append(move)
        if variation.is_won(child):
            return WON, list(path)
        levels.append(_Level(child, _moves_unless_hopeless(variation, child)))
        yield
    return LOST, []


class _Promise:
    """The generic estimate of how promising a state is (lower is better): the cards
    not on the foundations, weighted (the variation's ``foundation_weight`` hint), plus,
    for each card a foundation takes next (asked of ``foundation_accepts``), how many
    cards lie on it (at most 8, none in the stock, whose next card is always coming),
    plus the face-down cards."""

    MAX_DEPTH = 8

    def __init__(self, variation: Variation) -> None:
        self.variation = variation
        self.weight = variation.foundation_weight
        # a game's removals go to its discard pile: cards out of play, as on a foundation
        removed = variation.piles(DISCARD) if variation.removes else ()
        self.foundations = variation.piles(FOUNDATION) + removed
        self.targets = _target_foundations(variation)
        self.others = tuple(
            (name, variation.layout.by_name[name].kind == STOCK)
            for name in variation.layout.names
            if name not in self.foundations
        )
        self.cards = sorted(set(variation.deck.pack()))
        self.source = self.others[0][0] if self.others else ""
        self.next_cards: dict[tuple[Card | None, int], frozenset[Card]] = {}
        self.wanted: dict[tuple[Pile, ...], frozenset[Card]] = {}
        self.depths: dict[tuple[Pile, frozenset[Card]], int] = {}

    def _taken_next(self, state: State, foundation: str) -> frozenset[Card]:
        # a heuristic only: it assumes what a foundation takes depends on its top and size
        pile = state.piles[foundation]
        memo = (pile.top, len(pile.cards))
        cards = self.next_cards.get(memo)
        if cards is None:
            accepts = self.variation.foundation_accepts
            cards = frozenset(c for c in self.cards if accepts(state, foundation, (c,), self.source))
            self.next_cards[memo] = cards
        return cards

    def _wanted(self, state: State) -> frozenset[Card]:
        piles = tuple(state.piles[f] for f in self.targets)
        wanted = self.wanted.get(piles)
        if wanted is None:
            wanted = frozenset().union(*(self._taken_next(state, f) for f in self.targets))
            self.wanted[piles] = wanted
        return wanted

    def _depths(self, pile: Pile, wanted: frozenset[Card]) -> int:
        memo = (pile, wanted)
        depths = self.depths.get(memo)
        if depths is None:
            top = len(pile.cards) - 1
            depths = pile.down + sum(
                min(top - index, self.MAX_DEPTH) for index, card in enumerate(pile.cards) if card in wanted
            )
            self.depths[memo] = depths
        return depths

    def __call__(self, state: State) -> int:
        piles = state.piles
        score = -self.weight * sum(len(piles[f].cards) for f in self.foundations)
        wanted = self._wanted(state)
        for name, is_stock in self.others:
            score += piles[name].down if is_stock else self._depths(piles[name], wanted)
        return score


def promise_of(variation: Variation) -> Callable[[State], int]:
    """The best-first estimate (lower is better): :class:`_Promise` plus the variation's
    :meth:`~Variation.solver_estimate` hint, when it has one."""
    generic = _Promise(variation)
    if not hinted(variation, "solver_estimate"):
        return generic
    extra = variation.solver_estimate
    return lambda state: generic(state) + extra(state)


def best_first(
    variation: Variation, state: State, key: Key, claimed: set[Hashable], shared: _Path
) -> Search:
    """Best-first search on :class:`_Promise`, ties in the order the states were reached.

    The open list holds (promise, tick, parent, move, path): a child state is made
    again when it is taken out, so only expanded states stay in memory. The start is
    expanded even when claimed (expanding a state twice costs time, never soundness);
    any other state is claimed when taken out, or skipped if already claimed.

    When the open list runs dry while the depth-first search still has moves to try
    (``shared``, its path), it takes over the untried moves of that search's shallowest
    state and goes on from them: otherwise, once the depth-first search had claimed
    every state it could reach (as when the start has a single, safe move), it would
    stop and leave the depth-first search alone, its estimate never asked.
    """
    promise = promise_of(variation)
    tick = count()
    frontier: list[tuple[int, int, State, Move | None, object]] = [
        (promise(state), next(tick), state, None, None)
    ]

    def push(current: State, moves: list[Move], path: object) -> list[Move] | None:
        """Open the children of ``current`` not yet claimed; the moves of a win, if one is."""
        for child_move in moves:
            child = apply_unchecked(variation, current, child_move)
            if key(child) in claimed:
                continue
            child_path: object = (child_move, path)
            if variation.is_won(child):
                return unwind(child_path)
            heapq.heappush(frontier, (promise(child), next(tick), current, child_move, child_path))
        return None

    while True:
        while not frontier:
            stolen = shared.steal()
            if stolen is None:
                break
            parent, reach, untried = stolen
            reach_path: object = None
            for step in reach:
                reach_path = (step, reach_path)
            won = push(parent, untried, reach_path)
            if won is not None:
                return WON, won
        if not frontier:
            return LOST, []
        _, _, parent, move, path = heapq.heappop(frontier)
        current = parent if move is None else apply_unchecked(variation, parent, move)
        current_key = key(current)
        if move is not None and current_key in claimed:
            continue
        claimed.add(current_key)
        moves = expansion(variation, current)
        yield
        won = push(current, moves, path)
        if won is not None:
            return WON, won


def unwind(path: object) -> list[Move]:
    """The moves of a search path kept as nested pairs (last move, path before it), in order."""
    moves: list[Move] = []
    while path is not None:
        step: tuple[Move, object] = path  # type: ignore[assignment]
        moves.append(step[0])
        path = step[1]
    moves.reverse()
    return moves


def solve(
    variation: Variation, state: State, budget: int = 100_000, symmetric: bool = True, beam: bool = True
) -> Solution:
    """Search from ``state`` for a win, expanding at most ``budget`` states in all.

    The two complete searches take turns, one expansion each, and share the table of
    claimed states; in a game whose stock at the start holds at least a quarter of the
    deck, with a budget that leaves room for its first pass
    (:func:`~solitaire.solver_beam.beam_fits`), the stock beam
    (:func:`~solitaire.solver_beam.stock_beam`) takes ``BEAM_TURNS`` turns after each
    round of theirs, half the budget while both run (``beam=False`` leaves it out). A win
    found by any of them decides.

    ``lost`` is returned only when both complete searches have run out of states: then
    every claimed state has been expanded, and every successor of an expanded state
    (under the safe-move rule: its safe move alone, else every legal move) was either a
    win (none was, or the answer would be ``won``) or claimed, by the search that
    expanded it or by the other (a move the best-first search took over from the
    depth-first path is opened by it, so its state too is claimed before it runs out);
    the start is claimed, so the claimed states are every state reachable from the
    start, except those beyond a state the variation's :meth:`~Variation.hopeless` hint
    proved lost (expanded as if it had no move). When one search has run out, the
    others run without it. The beam claims nothing, so it changes no step of this
    argument; its own ``lost`` (a pass that dropped no state) is a proof by the same
    argument over its own table.
    """
    started = time.perf_counter()
    if variation.is_won(state):
        return Solution(WON, [], 0, time.perf_counter() - started)
    if variation.hopeless(state):
        return Solution(LOST, [], 0, time.perf_counter() - started)
    key = state_key(variation, symmetric)
    claimed: set[Hashable] = set()
    shared = _Path()  # the depth-first path, whose untried moves the best-first search may take over
    complete = [
        depth_first(variation, state, key, claimed, shared),
        best_first(variation, state, key, claimed, shared),
    ]
    searches = list(complete)
    from .solver_beam import BEAM_TURNS, beam_fits, stock_beam  # it builds on this module's searches

    if beam and beam_fits(variation, state, budget):
        searches.extend([stock_beam(variation, state, key)] * BEAM_TURNS)  # one generator, its turns
    nodes = 0
    while any(search in searches for search in complete):
        for search in list(searches):
            try:
                next(search)
            except StopIteration as finished:
                outcome, moves = finished.value
                if outcome == WON or search not in complete:  # the beam's lost is a proof
                    return Solution(outcome, moves, nodes, time.perf_counter() - started)
                searches.remove(search)
                continue
            nodes += 1
            if nodes >= budget:
                return Solution(UNDECIDED, [], nodes, time.perf_counter() - started)
    return Solution(LOST, [], nodes, time.perf_counter() - started)


# -- a helper for Variation.safe_move ------------------------------------------------
_PACKABLE: dict[tuple[object, ...], dict[Card, frozenset[Card]]] = {}


def packing_table(variation: Variation, state: State) -> dict[Card, frozenset[Card]]:
    """The memo of :func:`packable_onto` for the variation and options of ``state``."""
    return _PACKABLE.setdefault((type(variation), tuple(sorted(state.options.items()))), {})


def packable_onto(variation: Variation, state: State, card: Card) -> frozenset[Card]:
    """The cards that the variation's ``tableau_accepts`` lets go onto ``card``.

    Asked once per card (and per variation and options) on probes: ``state``
    with ``card`` put on top of the first pile of each kind that takes card
    moves and is not a foundation (a tableau pile, a reserve built on, a cell),
    each card of the deck offered from every other pile that is not a
    foundation. It assumes what holds in the variations so far: piles of one
    kind build alike, and whether a card may be packed onto another depends on
    the two cards and the options; the rest of the state may only forbid it for
    a while (a protected or disabled pile). A game with no such pile packs
    nothing.
    """
    table = packing_table(variation, state)
    found = table.get(card)
    if found is None:
        found = frozenset(other for pile in _packing_probes(variation)
                          for other in _packed_on_probe(variation, state, pile, card))
        table[card] = found
    return found


def _packing_probes(variation: Variation) -> list[str]:
    """The first non-foundation target pile of each kind."""
    probes: dict[str, str] = {}
    for name, is_foundation, _capacity in variation.layout.targets:
        if not is_foundation:
            probes.setdefault(variation.kind(name), name)
    return list(probes.values())


def _packed_on_probe(variation: Variation, state: State, pile: str, card: Card) -> set[Card]:
    probe = state.copy()
    probe.put(pile, [card])
    sources = [name for name in variation.layout.names if name != pile and variation.kind(name) != FOUNDATION]
    return {
        other
        for other in set(variation.deck.pack())
        if any(variation.tableau_accepts(probe, pile, (other,), source) for source in sources)
    }


def safe_foundation_move(
    variation: Variation, state: State, sources: Iterable[str] | None = None
) -> Move | None:
    """A move of an available card to a foundation that can never turn a winnable
    position into a lost one, or None. A helper for :meth:`Variation.safe_move`.

    A card X may go when, by the variation's own rule methods,

    * no card that could be packed onto X (:func:`packable_onto`) is still
      outside the foundations, so no later move needs X as a base;
    * every other copy of X outside the foundations still fits a foundation
      after the move (two packs: the move does not take the place its twin needs);
    * the move has no effect beyond the card itself: the state after it is the
      card moved and the source's new top card turned up (no refill, no deal).

    Then every winning line from the position also wins after the move, with
    the moves of X left out (foundations have no fixed suit, so which one X went
    to does not matter). Cards come from ``sources`` (default: every pile that
    is not a foundation), so a variation can leave out the piles whose emptying
    matters to its rules.
    """
    foundations = _target_foundations(variation)
    if sources is None:
        sources = [name for name in variation.layout.names if variation.kind(name) != FOUNDATION]
    on_foundations = Counter(c for f in variation.piles(FOUNDATION) for c in state.piles[f].cards)
    copies = variation.deck.packs
    table = packing_table(variation, state)
    for source in sources:
        pile = state.piles[source]
        if not pile.top_is_face_up:
            continue
        card = pile.cards[-1]
        packable = table.get(card)
        if packable is None:
            packable = packable_onto(variation, state, card)
        if any(on_foundations[other] < copies for other in packable):
            continue
        if not variation.can_pick_up(state, source, 1):
            continue
        target = next(
            (f for f in foundations if variation.foundation_accepts(state, f, (card,), source)), None
        )
        if target is None:
            continue
        move = card_move(source, target)
        if check_move(variation, state, move) is not None:
            continue
        after = apply_unchecked(variation, state, move)
        plain = state.copy()
        plain.put(target, plain.take(source))
        plain.turn_up(source)
        if after != plain:
            continue
        if on_foundations[card] + 1 < copies and not any(
            variation.foundation_accepts(after, f, (card,), source) for f in foundations
        ):
            continue
        return move
    return None
