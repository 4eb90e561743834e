"""The ``hopeless`` hint (a loss argument) never calls a winnable position lost.

Scorpion (``moves=any_faceup``) proves deadlocks of cards that can never leave
the card they lie on (reference/scorpion.py, ``Scorpion.hopeless``). Checked
here against :func:`exhaustive` (a plain search of every reachable state, no
hint): on hand-made positions, each a small case of one clause of the argument,
and on random positions with one or two suits in play (the others removed),
cards face down and in the reserve. The sample is shown able to
catch plausible unsound arguments: the random positions hold winnable ones that
calling "a card lies above its successor in its column" dead would call lost, and
the hand-made ones fail an argument that forgot the king's escape into an emptied
column, the successor still in the reserve, or that a card lying on its successor
need not leave it.
"""

from __future__ import annotations

import pytest
from test_solver_soundness import exhaustive

from solitaire import catalog
from solitaire.piles import TABLEAU, Pile
from solitaire.rng import SplitMix64
from solitaire.solver import LOST, UNDECIDED, WON, solve
from solitaire.state import State, parse_state

ANY_FACEUP = {"moves": "any_faceup"}


def position(columns: str, reserve: str = "") -> State:
    """A Scorpion ``any_faceup`` state: ``columns`` as t1..t7 lines (the others empty),
    ``reserve`` face down, every suit with no card in them already removed."""
    lines = dict(line.strip().split(":", 1) for line in columns.strip().splitlines())
    rows = [f"t{number}: {lines.get(f't{number}', '').strip()}" for number in range(1, 8)]
    present = {token[1].upper() for text in [*lines.values(), reserve] for token in text.split()}
    removed = [suit for suit in "CDHS" if suit not in present]
    runs = [" ".join(f"{rank}{suit}" for rank in "KQJT98765432A") for suit in removed]
    runs += [""] * (4 - len(runs))
    foundations = [f"f{number}: {run}" for number, run in enumerate(runs, 1)]
    text = "scorpion moves=any_faceup\nphase play\n" + "\n".join(rows + foundations)
    return parse_state(text + f"\nr: {reserve}\n")


def truth(state: State) -> str | None:
    return exhaustive(catalog.load("scorpion"), state, limit=50_000)


HAND_MADE = {  # name: (position, hopeless, exhaustive verdict)
    # 3S needs 4S free, under 5S; 5S needs 6S free, under 3S
    "two-column cycle": (position("""
        t1: KS QS JS TS 9S 8S 7S 6S 3S
        t2: 4S 5S
        t3: 2S AS
    """), True, LOST),
    # 2S lies above 3S, but 8H carries it away onto 9H (a naive "above its successor" is wrong)
    "above its successor, carried away": (position("""
        t1: KS QS JS TS 9S 8S 7S 6S 5S 4S
        t2: 3S 8H 2S AS
        t3: KH QH JH TH 9H
        t4: 7H 6H 5H 4H 3H 2H AH
    """), False, WON),
    # 5S needs 6S free, under the face-down 2s, which turns up only once 5S has left
    "face-down cycle": (position("""
        t1: 6s 2s 5S
        t2: KS QS JS TS 9S 8S 7S
        t3: 4S 3S
        t4: AS
    """), True, LOST),
    # the same with 2S face up: 2S carries 5S onto 3S, and the game is won
    "face-up, no cycle": (position("""
        t1: 6S 2S 5S
        t2: KS QS JS TS 9S 8S 7S
        t3: 4S 3S
        t4: AS
    """), False, WON),
    # 7H needs 8H free, under KS: the king escapes into t7 once AC has left it
    "a king escapes into a column emptied later": (position("""
        t1: 8H KS 7H
        t2: QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
        t3: 6H 5H 4H 3H 2H AH
        t4: KH QH JH TH 9H
        t5: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C
        t6: 2C
        t7: AC
    """), False, WON),
    # the successor still in the reserve will be dealt on top of a column
    "successor in the reserve": (position("""
        t1: 2S 4S 3S AS
        t2: KS QS JS TS 9S 8S 7S 6S
    """, reserve="5s"), False, WON),
}


@pytest.mark.parametrize("name", list(HAND_MADE))
def test_hand_made_positions(name):
    state, hopeless, verdict = HAND_MADE[name]
    variation = catalog.load("scorpion")
    assert variation.hopeless(state) is hopeless
    assert truth(state) == verdict
    assert solve(variation, state, budget=5_000).outcome == verdict


def naive_dead(state: State) -> bool:
    """An unsound loss argument: a non-king card lying above its successor in one column."""
    for name in catalog.load("scorpion").piles(TABLEAU):
        cards = state[name].cards
        for index, card in enumerate(cards):
            if card.rank < 13 and any(
                below.suit == card.suit and below.rank == card.rank + 1
                for below in cards[: max(0, index - 1)]
            ):
                return True
    return False


LIMIT = 2_000  # states: a position with a larger space is skipped


def small_position(rng: SplitMix64, suits: str, moves: str = "any_faceup") -> State:
    """A random position with only ``suits`` in play (the others removed): their cards
    shuffled into the seven columns and up to three into the reserve, face down, with
    some cards face down at the bottom of columns 1..4."""
    variation = catalog.load("scorpion")
    state = position("t1: " + " ".join(f"{rank}{suit}" for suit in suits for rank in "A23456789TJQK"))
    state.options["moves"] = moves
    cards = list(state["t1"].cards)
    rng.shuffle(cards)
    state.set_pile("t1", Pile(()))
    reserve = rng.below(4)
    state.put("r", cards[:reserve], face_up=False)
    for card in cards[reserve:]:
        state.put(variation.piles(TABLEAU)[rng.below(7)], [card])
    for name in variation.piles(TABLEAU)[:4]:
        pile = state[name]
        state.set_pile(name, Pile(pile.cards, rng.below(len(pile.cards)) if pile.cards else 0))
    return state


@pytest.mark.parametrize("suits,count,moves,wins", [
    ("S", 200, "any_faceup", 10), ("HS", 40, "any_faceup", 10), ("HS", 40, "runs", 1),
])
def test_hopeless_small_random_positions_are_lost(suits, count, moves, wins):
    """Random positions of one or two suits: wherever ``hopeless`` says True, the plain
    search finds no win; both verdicts occur, and the naive argument would be caught
    (``moves=runs`` wins rarely: there it is the solver's agreement that counts). The
    solver with all its hints (safe move, symmetry, hopeless) agrees too."""
    variation = catalog.load("scorpion")
    rng = SplitMix64(len(suits))
    counts = {"hopeless": 0, "won": 0, "naive caught": 0, "solver agreed": 0}
    for _ in range(count):
        state = small_position(rng, suits, moves)
        verdict = exhaustive(variation, state, limit=LIMIT)
        if verdict is None:
            continue
        hopeless = variation.hopeless(state)
        assert not (hopeless and verdict == WON), str(state)
        solved = solve(variation, state, budget=LIMIT).outcome
        assert solved in (verdict, UNDECIDED), str(state)
        counts["hopeless"] += hopeless
        counts["won"] += verdict == WON
        counts["naive caught"] += naive_dead(state) and verdict == WON
        counts["solver agreed"] += solved == verdict
    assert counts["hopeless"] >= 10 and counts["won"] >= wins, counts
    assert counts["naive caught"] >= (3 if moves == "any_faceup" else 0), counts
    assert counts["solver agreed"] >= count // 4, counts
