"""Engine basics: cards, PRNG, notation round trips, engine guarantees."""

import pytest

from solitaire import (
    Card,
    IllegalMove,
    InvalidNotation,
    Pile,
    State,
    apply,
    card_move,
    format_state,
    parse_card,
    parse_move,
    parse_state,
)
from solitaire.rng import SplitMix64
from solitaire.state import parse_pile


def test_card_text_round_trip():
    for text in ("AS", "TD", "QH", "2C", "KS"):
        assert str(parse_card(text)) == text
    assert parse_card("10h") == Card(10, "H")
    assert parse_card("as") == Card(1, "S")


@pytest.mark.parametrize("bad", ["", "1S", "AX", "ASS", "11H"])
def test_bad_cards_are_rejected(bad):
    with pytest.raises(InvalidNotation):
        parse_card(bad)


def test_splitmix64_known_values():
    # Reference values of SplitMix64 seeded with 0 (published with the algorithm).
    rng = SplitMix64(0)
    assert rng.next64() == 0xE220A8397B1DCDAF
    assert rng.next64() == 0x6E789E6AA1B965F4
    assert rng.next64() == 0x06C45D188009454F


def test_bounded_draws_are_in_range_and_shuffle_permutes():
    rng = SplitMix64(42)
    assert all(0 <= rng.below(7) < 7 for _ in range(200))
    items = list(range(52))
    rng.shuffle(items)
    assert sorted(items) == list(range(52)) and items != list(range(52))


@pytest.mark.parametrize(
    "text", ["t3>f2", "t4:3>t7", "s>w", "deal", "redeal", "rotate t4", "t3+t5", "t1+t2+t3"]
)
def test_move_notation_round_trips(text):
    move = parse_move(text)
    assert str(move) == text
    assert parse_move(str(move)) == move


@pytest.mark.parametrize("bad", ["", "t3>", ">f2", "t3>t3", "t4:0>t7", "DEAL", "t3 > f2 > f1"])
def test_bad_moves_are_rejected(bad):
    with pytest.raises(InvalidNotation):
        parse_move(bad)


def test_count_of_one_is_canonicalised():
    assert str(parse_move("t4:1>t7")) == "t4>t7"


def test_pile_face_down_cards_are_lower_case_and_below():
    name, pile = parse_pile("t1: as kd QH 2C")
    assert name == "t1" and pile.down == 2 and pile.top == Card(2, "C")
    with pytest.raises(InvalidNotation):
        parse_pile("t1: AS kd")


def test_state_round_trip_and_equality():
    state = State("demo", {"x": True, "mode": "runs"}, {"t1": Pile([Card(1, "S")], 0), "s": Pile()},
                  phase="pause", counters={"rounds": 2})
    text = format_state(state)
    assert text.splitlines()[:2] == ["demo mode=runs x=true", "phase pause rounds=2"]
    assert parse_state(text) == state
    other = state.copy()
    other.put("s", [Card(2, "H")], face_up=False)
    assert other != state and state.is_empty("s")


@pytest.mark.parametrize("bad", ["", "scorpion", "scorpion\nphase\n", "Scorpion\nphase play\n",
                                 "scorpion x\nphase play\n", "scorpion\nphase play n=x\n",
                                 "scorpion\nphase play\nt1 AS\n", "scorpion\nphase play\nt1: AS\nt1:\n"])
def test_malformed_states_are_rejected(bad):
    with pytest.raises(InvalidNotation):
        parse_state(bad)


def test_engine_refuses_face_down_and_unknown_piles(scorpion):
    from solitaire import new_game

    state = new_game(scorpion, 1)
    with pytest.raises(IllegalMove, match="no pile t9"):
        apply(scorpion, state, card_move("t1", "t9"))
    with pytest.raises(IllegalMove, match="face-up"):
        apply(scorpion, state, card_move("t1", "t2", 6))
