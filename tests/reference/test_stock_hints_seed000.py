"""The solver hints (``safe_move``) of Clock (seed 000) and Four Queens never change a verdict.

A hint lets the solver play one move without trying the others, so a wrong hint
turns winnable deals into "lost" ones and skews the measured win rates. Near the
end of a game the solver decides a position without the hint too: there the two
verdicts must agree. Positions: a won game with some cards taken back off the
piles into the stock and the waste, in a seeded order, with a seeded number of
redeals left.
"""

from __future__ import annotations

import pytest

from reference.clock_dial import ClockDial
from reference.four_queens import FourQueens
from solitaire import engine
from solitaire.cards import ACE, JACK, KING, QUEEN, SUITS, Card
from solitaire.piles import Pile
from solitaire.rng import SplitMix64
from solitaire.solver import LOST, UNDECIDED, WON, solve
from solitaire.state import State
from solitaire.variation import Variation

MATE = {"C": "S", "S": "C", "D": "H", "H": "D"}
OTHER = {"C": "DH", "S": "DH", "D": "CS", "H": "CS"}


class ClockNoHint(ClockDial):
    def safe_move(self, state: State) -> None:
        return None


class FourQueensNoHint(FourQueens):
    def safe_move(self, state: State) -> None:
        return None


def clock_won(variation: Variation, rng: SplitMix64, options: dict[str, object]) -> State:
    state = variation.new_state(options)  # type: ignore[arg-type]
    primary = SUITS[rng.below(4)]
    second = OTHER[primary][rng.below(2)]
    for rank, pile in enumerate(variation.piles("foundation"), start=1):
        if not options.get("suit_sequence"):
            second = OTHER[primary][rng.below(2)]
        state.put(pile, [Card(rank, suit) for suit in (primary, second, MATE[primary], MATE[second])])
    return state


def queens_won(variation: Variation, rng: SplitMix64, options: dict[str, object]) -> State:
    state = variation.new_state(options)  # type: ignore[arg-type]
    piles = variation.piles("foundation")
    for group, ranks in enumerate(((QUEEN,), (5, 4, 3, 2, ACE, KING), (6, 7, 8, 9, 10, JACK))):
        suits = list(SUITS)
        rng.shuffle(suits)
        for slot, suit in zip(piles[4 * group: 4 * group + 4], suits, strict=True):
            state.put(slot, [Card(rank, suit) for rank in ranks])
    return state


def near_end(variation: Variation, won: State, rng: SplitMix64, pulls: int, keep: int) -> State:
    """``won`` with up to ``pulls`` top cards of five of its piles taken back (never below
    ``keep`` cards a pile),
    shuffled and laid onto the waste or into the stock, the stock's top face up; no
    redeal left, or one."""
    state = won.copy()
    state.counters["redeals"] = rng.below(2)
    piles = list(variation.piles("foundation"))
    rng.shuffle(piles)
    piles = piles[:5]  # a few piles, emptied deeply, so that early positions are in play
    pulled: list[Card] = []
    for _ in range(pulls):
        candidates = [p for p in piles if len(state[p]) > keep]
        if not candidates:
            break
        pulled += state.take(candidates[rng.below(len(candidates))])
    rng.shuffle(pulled)
    for card in pulled:
        state.put("w" if rng.below(2) else "s", [card], face_up=False)
    state.set_pile("w", Pile(state["w"].cards, 0))
    state.turn_up("s")
    engine.check_state(variation, state)
    return state


CASES = [
    (ClockDial(), ClockNoHint(), clock_won, {}, 0),
    (ClockDial(), ClockNoHint(), clock_won, {"suit_sequence": True}, 0),
    (ClockDial(), ClockNoHint(), clock_won, {"primary_suit": "h"}, 0),
    (FourQueens(), FourQueensNoHint(), queens_won, {}, 1),
    (FourQueens(), FourQueensNoHint(), queens_won, {"strict_phases": False}, 0),
]


@pytest.mark.parametrize("hinted,plain,won,options,keep", CASES,
                         ids=[f"{c[0].name}-{c[3] or 'default'}" for c in CASES])
def test_hint_never_changes_a_decided_verdict(hinted, plain, won, options, keep):
    rng = SplitMix64(2024)
    outcomes = {WON: 0, LOST: 0}
    for trial in range(24):
        start = near_end(hinted, won(hinted, rng, options), rng, 8 + trial % 8, keep)
        with_hint = solve(hinted, start, budget=20_000).outcome
        without = solve(plain, start, budget=20_000).outcome
        if without != UNDECIDED:
            assert with_hint == without, f"trial {trial}:\n{start}"
            outcomes[without] += 1
    assert outcomes[WON] and outcomes[LOST]  # both verdicts were put to the test
