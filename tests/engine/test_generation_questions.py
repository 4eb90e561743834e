"""Move generation asks the same questions as the plain algorithm, in the same order, once each.

``engine.legal_moves`` is written for speed (issue 16): rule methods looked up
once, the accept dispatch inlined, ``can_pick_up(pile, 1)`` not asked again for
the removals. These tests keep the plain algorithm of the rule contract
(solitaire/variation.py) as the specification and check, on random playouts of
every variation, that the fast one lists the same moves in the same order and
asks the rule methods the same questions in the same order, a question asked
twice by the plain algorithm (same method, same arguments, same state) being
asked only the first time.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from solitaire import catalog, engine
from solitaire.moves import Move, card_move, removal
from solitaire.piles import DISCARD, FOUNDATION_KINDS
from solitaire.rng import SplitMix64
from solitaire.state import State
from solitaire.variation import Variation

ASKED = ("can_pick_up", "foundation_accepts", "tableau_accepts", "space_accepts", "special_moves")
Question = tuple[object, ...]


def plain_legal_moves(variation: Variation, state: State) -> list[Move]:
    """The rule contract, spelled out without any speed-up."""
    actions = list(variation.special_moves(state))
    moves = []
    for source, pile in state.piles.items():
        for count in range(1, len(pile.cards) - pile.down + 1):
            if not variation.can_pick_up(state, source, count):
                continue
            cards = pile.cards[len(pile.cards) - count:]
            for spec in variation.layout.piles:
                target = state.piles[spec.name]
                if spec.name == source or not spec.is_target:
                    continue
                if spec.capacity is not None and len(target.cards) + count > spec.capacity:
                    continue
                if spec.kind in FOUNDATION_KINDS:
                    ok = variation.foundation_accepts(state, spec.name, cards, source)
                elif not target.cards:
                    ok = variation.space_accepts(state, spec.name, cards, source)
                else:
                    ok = variation.tableau_accepts(state, spec.name, cards, source)
                if ok:
                    moves.append(card_move(source, spec.name, count))
    if variation.removes >= 2:
        discard = variation.piles(DISCARD)[0]
        capacity = variation.layout.by_name[discard].capacity
        available = [
            name for name in engine.removal_order(variation)
            if state.piles[name].top_is_face_up and variation.can_pick_up(state, name, 1)
        ]
        for size in range(2, variation.removes + 1):
            for piles in combinations(available, size):
                cards = tuple(state.piles[name].cards[-1] for name in piles)
                if capacity is not None and len(state.piles[discard].cards) + size > capacity:
                    continue
                if variation.foundation_accepts(state, discard, cards, "+".join(piles)):
                    moves.append(removal(*piles))
    return moves + actions


def recorded(variation: Variation) -> tuple[Variation, list[Question]]:
    """``variation`` with its asked rule methods wrapped to log every question (state by identity)."""
    log: list[Question] = []
    for name in ASKED:
        method = getattr(variation, name)

        def wrapper(state: State, *args: object, _name: str = name, _method=method) -> object:
            log.append((_name, id(state), *args))
            return _method(state, *args)

        setattr(variation, name, wrapper)
    return variation, log


def first_asked(questions: list[Question]) -> list[Question]:
    seen: set[Question] = set()
    kept = []
    for question in questions:
        if question not in seen:
            seen.add(question)
            kept.append(question)
    return kept


def positions(variation: Variation, deals: int = 2, length: int = 25) -> list[State]:
    rng = SplitMix64(16)
    found = []
    for seed in range(1, deals + 1):
        state = engine.new_game(variation, seed)
        for _ in range(length):
            found.append(state)
            moves = engine.legal_moves(variation, state)
            if not moves:
                break
            state = engine.apply_unchecked(variation, state, moves[rng.below(len(moves))])
    return found


@pytest.mark.parametrize("name", catalog.reference_names())
def test_generation_lists_the_plain_moves_and_asks_the_plain_questions_once(name: str) -> None:
    variation, log = recorded(catalog.load(name))
    for state in positions(variation):
        log.clear()
        expected = plain_legal_moves(variation, state)
        plain_questions = list(log)
        log.clear()
        assert engine.legal_moves(variation, state) == expected
        assert log == first_asked(plain_questions)


def test_a_removal_game_asks_can_pick_up_once_per_pile() -> None:
    """Monte Carlo's grid cards are asked for card moves and again for pairs by the plain algorithm."""
    variation, log = recorded(catalog.load("monte_carlo"))
    state = engine.new_game(variation, 1)
    plain_legal_moves(variation, state)
    plain = [q for q in log if q[0] == "can_pick_up"]
    log.clear()
    engine.legal_moves(variation, state)
    asked = [q for q in log if q[0] == "can_pick_up"]
    assert len(plain) == 2 * 25 and len(asked) == 25
    assert asked == plain[:25]
