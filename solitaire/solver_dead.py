"""Dead positions: a helper for the :meth:`~solitaire.variation.Variation.hopeless` hint.

For games whose foundations have no fixed suit and build up in suit from the
ace to the king, one card at a time, with every card of the deck to go up
(Napoleon's Square, Metternich): ``deck.packs`` foundations per suit in a won
game ("lanes"). A variation names its *frozen* piles as it knows them from its
rulings: piles whose cards stay in order and leave from the top down, each card
marked when it may leave only for a foundation (a disabled column in Metternich:
every card). :func:`cannot_all_go_up` then searches a relaxed game: every card
off the foundations that lies in no frozen pile is free (it may go up whenever
a lane of its suit holds the rank below it); a frozen pile's top card goes up
the same way, or, if it is not marked, becomes free. If no line of the relaxed
game puts every card up, no line of the real game does, and the game cannot be
won.

Why that is sound: the relaxed game allows everything the real one allows. A
frozen pile gives its cards in the same order, a marked card only to a
foundation; a lane takes the same cards in the same order; free cards are there
at once. Its search plays without trying alternatives only what cannot hurt: a
free card whose other copies are all free or up (copies are alike), a frozen top
card whose other copies are not in frozen piles, an unmarked top card set free.
Where two copies of a card compete for a lane (both in frozen piles, or one free
and one frozen) it tries both orders: putting the wrong one up first can strand
cards beneath the other (tests/engine/test_solver_hints.py holds such a
position). It first plays the relaxed game greedily, whatever fits first: when that
puts every card up, the position is not dead and no search is needed. A search
that runs past its limit answers "not dead".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .cards import ACE, KING, SUITS, Card
from .piles import FOUNDATION
from .state import State
from .variation import Variation

#: a frozen pile, bottom card first: each card with whether it may leave only for a foundation
Frozen = Sequence[tuple[Card, bool]]


LIMIT = 60  # relaxed positions searched at most; past it the answer is "not dead"


def cannot_all_go_up(variation: Variation, state: State, frozen: Iterable[Frozen]) -> bool:
    """Whether, with the ``frozen`` piles (see the module docstring), some card off the
    foundations can never go up, so that ``state`` cannot be won."""
    stacks = tuple(tuple(pile) for pile in frozen if pile)
    if not stacks:
        return False
    tops = lanes(variation, state)
    # the free cards follow from the rest: the deck less the lanes' cards and the frozen ones
    memo = (type(variation), stacks, tuple(tuple(sorted(ranks)) for ranks in tops.values()))
    known = _KNOWN.get(memo)
    if known is None:
        free: Counter[Card] = Counter({card: variation.deck.packs for card in variation.deck.pack()})
        free.subtract(card for name in variation.piles(FOUNDATION) for card in state.piles[name].cards)
        free.subtract(card for stack in stacks for card, _ in stack)
        known = _Relaxed(stacks, tops, +free).dead(tuple(len(stack) for stack in stacks))
        if len(_KNOWN) >= _KNOWN_MAX:
            _KNOWN.clear()
        _KNOWN[memo] = known
    return known


_KNOWN: dict[object, bool] = {}  # answers already worked out, by frozen piles and lanes
_KNOWN_MAX = 200_000


def lanes(variation: Variation, state: State) -> dict[str, list[int]]:
    """For each suit, the top ranks of its lanes: the foundations built in that suit
    (their top card's rank), then 0 for each lane not started yet (``deck.packs``
    lanes a suit). The caller must know that the variation builds as described above."""
    tops: dict[str, list[int]] = {suit: [] for suit in SUITS}
    for name in variation.piles(FOUNDATION):
        top = state.piles[name].top
        if top is not None:
            tops[top.suit].append(top.rank)
    for ranks in tops.values():
        ranks.extend([0] * (variation.deck.packs - len(ranks)))
    return tops


class _Relaxed:
    """The relaxed game's search; a position is the frozen piles' heights, the lanes'
    tops and the free cards."""

    def __init__(self, stacks: tuple[Frozen, ...], tops: dict[str, list[int]], free: Counter[Card]) -> None:
        self.stacks = stacks
        self.start_tops = tops
        self.start_free = free
        self.seen: set[object] = set()
        self.where: dict[Card, list[tuple[int, int]]] = {}
        for index, stack in enumerate(stacks):
            for position, (card, _) in enumerate(stack):
                self.where.setdefault(card, []).append((index, position))

    def dead(self, heights: tuple[int, ...]) -> bool:
        if self._greedy_finishes(list(heights), {s: list(r) for s, r in self.start_tops.items()},
                                 Counter(self.start_free)):
            return False  # one line of the relaxed game puts every card up
        return not self._can_finish(list(heights), {s: list(r) for s, r in self.start_tops.items()},
                                    Counter(self.start_free))

    def _greedy_finishes(self, heights: list[int], tops: dict[str, list[int]], free: Counter[Card]) -> bool:
        """Whether playing whatever fits first, with no choice tried again, empties the
        frozen piles: a quick line that shows most positions are not dead."""
        moved = True
        while moved:
            moved = False
            for card in [c for c, n in free.items() if n]:
                ranks = tops[card.suit]
                while free[card] and card.rank - 1 in ranks:
                    free[card] -= 1
                    ranks[ranks.index(card.rank - 1)] = card.rank
                    moved = True
            for index, height in enumerate(heights):
                while height:
                    card, only_up = self.stacks[index][height - 1]
                    ranks = tops[card.suit]
                    if card.rank - 1 in ranks:
                        ranks[ranks.index(card.rank - 1)] = card.rank
                    elif only_up:
                        break
                    else:
                        free[card] += 1
                    height -= 1
                    heights[index] = height
                    moved = True
        return not any(heights)

    def _in_stacks(self, card: Card, heights: list[int]) -> int:
        return sum(position < heights[index] for index, position in self.where.get(card, ()))

    def _can_finish(self, heights: list[int], tops: dict[str, list[int]], free: Counter[Card]) -> bool:
        self._settle(heights, tops, free)
        if not any(heights):
            return True  # every card left is free: the free cards go up suit by suit
        memo = (tuple(heights), tuple(tuple(sorted(r)) for r in tops.values()),
                tuple(sorted((c, n) for c, n in free.items() if n)))
        if memo in self.seen:
            return False
        if len(self.seen) >= LIMIT:
            return True  # too long to decide: not dead
        self.seen.add(memo)
        for card in [c for c, n in free.items() if n and c.rank - 1 in tops[c.suit]]:
            branch = Counter(free)
            branch[card] -= 1
            ranks = {s: list(r) for s, r in tops.items()}
            ranks[card.suit][ranks[card.suit].index(card.rank - 1)] = card.rank
            if self._can_finish(list(heights), ranks, branch):
                return True
        for index, height in enumerate(heights):
            if height:
                card = self.stacks[index][height - 1][0]
                if card.rank - 1 in tops[card.suit]:
                    branch_heights = list(heights)
                    branch_heights[index] -= 1
                    ranks = {s: list(r) for s, r in tops.items()}
                    ranks[card.suit][ranks[card.suit].index(card.rank - 1)] = card.rank
                    if self._can_finish(branch_heights, ranks, Counter(free)):
                        return True
        return False

    def _settle(self, heights: list[int], tops: dict[str, list[int]], free: Counter[Card]) -> None:
        """Play, in place, every move that cannot hurt (see the module docstring)."""
        moved = True
        while moved:
            moved = False
            for index, height in enumerate(heights):
                while height:
                    card, only_up = self.stacks[index][height - 1]
                    ranks = tops[card.suit]
                    if not only_up:
                        free[card] += 1
                    elif card.rank - 1 in ranks and self._in_stacks(card, heights) == 1:
                        ranks[ranks.index(card.rank - 1)] = card.rank
                    else:
                        break
                    height -= 1
                    heights[index] = height
                    moved = True
            for card in [c for c, n in free.items() if n]:
                ranks = tops[card.suit]
                if card.rank - 1 in ranks and not self._in_stacks(card, heights):
                    free[card] -= 1
                    ranks[ranks.index(card.rank - 1)] = card.rank
                    moved = True


def blocking_in_sequences(sequences: Iterable[Sequence[Card]], base: int = ACE) -> int:
    """How many cards of ``sequences`` (each first card first: a pile bottom up, or the
    order a stock will be dealt in) lie after a lower card of their own suit, ranks counted
    up from ``base`` and wrapping past the king (foundations that start at ``base``): in a
    game that builds up in suit, each must leave before that lower card can go up. A measure
    for a variation's :meth:`~solitaire.variation.Variation.solver_estimate`."""
    blocking = 0
    for cards in sequences:
        lowest: dict[str, int] = {}
        for card in cards:
            rank = (card.rank - base) % KING
            if lowest.get(card.suit, KING) < rank:
                blocking += 1
            else:
                lowest[card.suit] = rank
    return blocking


def successors_gone(cards: Sequence[Card], gone: Counter[Card], packs: int) -> list[bool]:
    """For each card of a pile, bottom first: whether every one of the ``packs`` copies of
    the card of its suit one rank higher is counted in ``gone`` (on the foundations, or held
    where it never again becomes a top card) or lies beneath it in the same pile. In a game
    that packs down in suit such a card can never be packed onto its higher card, which is
    what a variation's ``hopeless`` needs to mark it as going only to a foundation. A king has
    no higher card: False; each variation decides what its kings can do."""
    beneath: Counter[Card] = Counter()
    result = []
    for card in cards:
        if card.rank == KING:
            result.append(False)
        else:
            higher = Card(card.rank + 1, card.suit)
            result.append(gone[higher] + beneath[higher] >= packs)
        beneath[card] += 1
    return result
