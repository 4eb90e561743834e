"""Scenario tests of the Scorpion reference, one group per ruling (S1..S6, general).

Positions are written in the canonical state notation (face-down cards in lower
case); each test asserts the exact verdict on a move and, for a legal move, the
exact state after it, effects included.
"""

import pytest
from scenario import Scenario

from solitaire import (
    IllegalMove,
    apply,
    catalog,
    format_state,
    legal_moves,
    new_game,
    parse_state,
    shuffled_deck,
    start,
)
from solitaire.cards import ONE_PACK
from solitaire.engine import check_state, is_legal
from solitaire.rng import SplitMix64

SCORPION = catalog.load("scorpion")


S = Scenario(SCORPION)
legal, play, same = S.legal, S.play, S.same


def board(moves: str = "runs", **piles: str):
    """A Scorpion position: the named piles hold the given cards (bottom first), others are empty."""
    return S.build(f"scorpion moves={moves}\nphase play", piles)


def suit(letter: str, high: str = "K", low: str = "A") -> str:
    """The descending run of one suit from rank ``high`` down to ``low``, e.g. ``KH QH .. AH``."""
    ranks = "KQJT98765432A"
    return " ".join(r + letter for r in ranks[ranks.index(high): ranks.index(low) + 1])


# -- S1 the deal ----------------------------------------------------------------
@pytest.mark.ruling("S1")
def test_S1_deal_of_the_unshuffled_pack():
    expected = """scorpion moves=runs
phase play
t1: ac 8c 2d 9D 3H TH 4S
t2: 2c 9c 3d TD 4H JH 5S
t3: 3c tc 4d JD 5H QH 6S
t4: 4c jc 5d QD 6H KH 7S
t5: 5C QC 6D KD 7H AS 8S
t6: 6C KC 7D AH 8H 2S 9S
t7: 7C AD 8D 2H 9H 3S TS
f1:
f2:
f3:
f4:
r: ks qs js
"""
    assert format_state(start(SCORPION, ONE_PACK.pack())) == expected


@pytest.mark.ruling("S1")
def test_S1_deal_of_pinned_seed_1():
    expected = """scorpion moves=runs
phase play
t1: 7d 6d jh KC QC KS 3S
t2: 9c 9s 5h KH 4S 6H AC
t3: 4d jc 7h TH 6C QS 4C
t4: 8h 5d 4h TS 7C QH 2H
t5: 8D KD 2C JS AS QD 8C
t6: 5S 3C AD TD 5C 9D TC
t7: JD 2D 6S 8S AH 3D 3H
f1:
f2:
f3:
f4:
r: 7s 9h 2s
"""
    assert format_state(new_game(SCORPION, 1)) == expected


@pytest.mark.ruling("S1")
@pytest.mark.parametrize("seed", range(6))
def test_S1_deal_shape_over_seeds(seed):
    deck = shuffled_deck(SCORPION, seed)
    state = start(SCORPION, deck)
    for column in range(7):
        pile = state[f"t{column + 1}"]
        assert pile.cards == tuple(deck[7 * row + column] for row in range(7))
        assert pile.down == (3 if column < 4 else 0)
    assert state["r"].cards == (deck[51], deck[50], deck[49])  # the 50th card on top
    assert state["r"].down == 3
    assert all(state.is_empty(f"f{i}") for i in range(1, 5))


@pytest.mark.ruling("S1")
def test_S1_option_moves_defaults_to_runs():
    assert new_game(SCORPION, 1).option("moves") == "runs"
    assert format_state(new_game(SCORPION, 1, {"moves": "any_faceup"})).startswith(
        "scorpion moves=any_faceup\n"
    )


# -- S2 packing -------------------------------------------------------------------
@pytest.mark.ruling("S2")
@pytest.mark.parametrize(
    "card, onto, verdict",
    [
        ("5S", "6S", True),  # same suit, one rank higher
        ("5S", "6C", False),  # wrong suit, same colour
        ("5S", "6H", False),  # wrong suit
        ("5S", "7S", False),  # two ranks higher
        ("5S", "4S", False),  # lower: packing is descending
        ("5S", "5C", False),  # same rank
        ("KS", "AS", False),  # no king on an ace: ranks do not wrap
        ("QS", "KS", True),
        ("AS", "2S", True),
    ],
)
def test_S2_card_goes_on_same_suit_one_rank_higher(card, onto, verdict):
    state = board(t1=f"9d {card}", t2=f"3h {onto}")
    assert legal(state, "t1>t2") is verdict
    if verdict:
        same(play(state, "t1>t2"), board(t1="9D", t2=f"3h {onto} {card}"))


@pytest.mark.ruling("S2")
def test_S2_a_run_goes_where_its_lowest_moved_card_fits():
    state = board(t1="4C 9D 8D 7D", t2="TD", t3="9C", t4="8C")
    assert legal(state, "t1:3>t2")  # 9D heads the run: on TD
    assert not legal(state, "t1:2>t2")  # 8D heads: not on TD
    assert not legal(state, "t1:3>t3")  # 9D on 9C
    same(play(state, "t1:3>t2"), board(t1="4C", t2="TD 9D 8D 7D", t3="9C", t4="8C"))


# -- S3 what moves ------------------------------------------------------------------
@pytest.mark.ruling("S3")
def test_S3_runs_top_card_or_same_suit_descending_run():
    state = board(t1="4C 9H 8H 7H", t2="TH", t3="8C", t4="9S")
    assert legal(state, "t1>t3") is False  # 7H on 8C: wrong suit
    assert legal(state, "t1:3>t2")  # 9H 8H 7H is a run
    assert not legal(state, "t1:4>t2")  # 4C 9H 8H 7H is not
    assert SCORPION.can_pick_up(state, "t1", 1) is True
    assert SCORPION.can_pick_up(state, "t1", 3) is True
    assert SCORPION.can_pick_up(state, "t1", 4) is False


@pytest.mark.ruling("S3")
@pytest.mark.parametrize(
    "column, count, target, runs, any_faceup",
    [
        ("9H 7H 6H", 3, "TH", False, True),  # a gap in ranks breaks the run
        ("9H 8D 7D", 3, "TH", False, True),  # a change of suit breaks the run
        ("9H 8D 7D", 2, "9D", True, True),  # but 8D 7D is a run
        ("9H 8H 7H", 3, "TH", True, True),
        ("9H 8H 7H", 2, "9D", False, False),  # 8H on 9D: wrong suit in both modes
        ("7H 8H 9H", 3, "8D", False, False),  # ascending is no run; 7H on 8D: wrong suit
    ],
)
def test_S3_run_vs_broken_run_under_both_options(column, count, target, runs, any_faceup):
    for mode, verdict in (("runs", runs), ("any_faceup", any_faceup)):
        state = board(mode, t1=f"2c {column}", t2=target)
        move = f"t1:{count}>t2"
        assert legal(state, move) is verdict, (mode, move)
        if verdict:
            moved = column.split()[-count:]
            kept = " ".join(column.split()[:-count])
            rest = f"2c {kept}" if kept else "2C"  # the face-down 2C turns up when exposed
            same(play(state, move), board(mode, t1=rest, t2=f"{target} {' '.join(moved)}"))


@pytest.mark.ruling("S3")
def test_S3_any_faceup_moves_a_face_up_card_with_everything_above_it():
    state = board("any_faceup", t1="ks 5C 9H 2D QS", t2="6C")
    assert legal(state, "t1:4>t2")  # 5C 9H 2D QS onto 6C
    assert not legal(state, "t1:5>t2")  # the face-down king never moves
    after = play(state, "t1:4>t2")
    same(after, board("any_faceup", t1="KS", t2="6C 5C 9H 2D QS"))  # KS turned up
    assert not legal(board("runs", t1="ks 5C 9H 2D QS", t2="6C"), "t1:4>t2")


@pytest.mark.ruling("S3")
def test_S3_reserve_and_removed_suits_never_give_cards():
    for mode in ("runs", "any_faceup"):
        state = board(mode, t1="", t2="5D", f1=suit("S"), r="kh 9d 4s")
        assert SCORPION.can_pick_up(state, "f1", 13) is False
        assert SCORPION.can_pick_up(state, "f1", 1) is False
        assert not legal(state, "f1:13>t1")
        assert not legal(state, "f1>t2")
        assert not legal(state, "r>t1")
        assert not legal(state, "t2>f2")  # removed-suit piles are not targets


# -- S4 spaces ----------------------------------------------------------------------
@pytest.mark.ruling("S4")
def test_S4_space_takes_a_king_alone():
    state = board(t1="3C KD", t2="5c QH", t7="")
    assert legal(state, "t1>t7")
    assert not legal(state, "t2>t7")  # a queen may not fill a space
    same(play(state, "t1>t7"), board(t1="3C", t2="5c QH", t7="KD"))


@pytest.mark.ruling("S4")
def test_S4_space_takes_a_run_headed_by_a_king_only():
    state = board(t1="3C KD QD JD", t7="")
    assert legal(state, "t1:3>t7")
    assert not legal(state, "t1:2>t7")  # QD JD: headed by a queen
    assert not legal(state, "t1>t7")  # JD alone
    assert not legal(state, "t1:4>t7")  # 3C KD QD JD: not a run
    same(play(state, "t1:3>t7"), board(t1="3C", t7="KD QD JD"))


@pytest.mark.ruling("S4")
def test_S4_whole_column_headed_by_king_may_move_to_a_space():
    state = board(t1="KD QD", t5="")  # general ruling: pointless but legal
    assert legal(state, "t1:2>t5")
    same(play(state, "t1:2>t5"), board(t5="KD QD"))


@pytest.mark.ruling("S4")
def test_S4_any_faceup_king_heading_a_broken_group_fills_a_space():
    assert legal(board("any_faceup", t1="3c KD 5C 2H", t7=""), "t1:3>t7")
    assert not legal(board("runs", t1="3c KD 5C 2H", t7=""), "t1:3>t7")
    assert not legal(board("any_faceup", t1="3c KD 5C 2H", t7=""), "t1:2>t7")  # 5C heads
    same(play(board("any_faceup", t1="3c KD 5C 2H", t7=""), "t1:3>t7"),
         board("any_faceup", t1="3C", t7="KD 5C 2H"))


# -- S5 the reserve deal --------------------------------------------------------------
@pytest.mark.ruling("S5")
def test_S5_deal_puts_the_reserve_on_columns_1_2_3_in_deck_order_once():
    state = start(SCORPION, ONE_PACK.pack())
    assert "deal" in [str(m) for m in legal_moves(SCORPION, state)]
    after = play(state, "deal")
    expected = """scorpion moves=runs
phase play
t1: ac 8c 2d 9D 3H TH 4S JS
t2: 2c 9c 3d TD 4H JH 5S QS
t3: 3c tc 4d JD 5H QH 6S KS
t4: 4c jc 5d QD 6H KH 7S
t5: 5C QC 6D KD 7H AS 8S
t6: 6C KC 7D AH 8H 2S 9S
t7: 7C AD 8D 2H 9H 3S TS
f1:
f2:
f3:
f4:
r:
"""
    assert format_state(after) == expected
    assert "deal" not in [str(m) for m in legal_moves(SCORPION, after)]
    assert SCORPION.special_moves(after) == []
    with pytest.raises(IllegalMove, match="deal is not allowed now"):
        play(after, "deal")


@pytest.mark.ruling("S5")
def test_S5_deal_fills_empty_columns_too():
    state = board(t1="", t2="", t3="7c 8H", t4="KS", r="kh 9d 4s")
    after = play(state, "deal")
    same(after, board(t1="4S", t2="9D", t3="7c 8H KH", t4="KS"))


@pytest.mark.ruling("S5")
def test_S5_deal_is_legal_at_any_time_even_with_card_moves_available():
    state = board(t1="5S", t2="6S", r="kh 9d 4s")
    assert sorted(str(m) for m in legal_moves(SCORPION, state)) == ["deal", "t1>t2"]
    stalled = board(t1="5S", t2="9H", r="kh 9d 4s")
    assert [str(m) for m in legal_moves(SCORPION, stalled)] == ["deal"]


@pytest.mark.ruling("S5")
def test_S5_deal_is_an_action_not_a_card_move():
    state = board(t1="5S", r="kh 9d 4s")
    assert not legal(state, "r>t1")
    assert not legal(state, "redeal")


# -- S6 turning up and removal --------------------------------------------------------
@pytest.mark.ruling("S6")
def test_S6_exposed_face_down_card_turns_up():
    state = board(t1="4d 7c 5S", t2="6S")
    same(play(state, "t1>t2"), board(t1="4d 7C", t2="6S 5S"))  # only the top card turns
    state = board(t1="qh KD QD", t7="")
    same(play(state, "t1:2>t7"), board(t1="QH", t7="KD QD"))


@pytest.mark.ruling("S6")
def test_S6_suit_removed_right_after_the_move_that_completes_it():
    state = board(t1="2c " + suit("H", "K", "2"), t2="9S AH", f1=suit("D"))
    after = play(state, "t2>t1")
    # the run goes to the first empty removal pile, king lowest; 2C turns up
    same(after, board(t1="2C", t2="9S", f1=suit("D"), f2=suit("H")))


@pytest.mark.ruling("S6")
def test_S6_suit_removed_after_a_run_move_and_card_below_turns_up():
    state = board(t1="5c " + suit("S", "K", "7"), t2="3d 9H " + suit("S", "6"))
    after = play(state, "t2:6>t1")
    same(after, board(t1="5C", t2="3d 9H", f1=suit("S")))


@pytest.mark.ruling("S6")
def test_S6_suits_removed_right_after_the_reserve_deal_then_cards_turn_up():
    state = board(t1="9h " + suit("C", "K", "2"), t2="jh " + suit("D", "K", "2"), t3="5S",
                  r="4h ad ac")
    after = play(state, "deal")
    same(after, board(t1="9H", t2="JH", t3="5S 4H", f1=suit("C"), f2=suit("D")))


@pytest.mark.ruling("S6")
def test_S6_no_removal_unless_all_13_cards_are_face_up():
    state = board(t1="kh " + suit("H", "Q", "2"), t2="9S AH")
    after = play(state, "t2>t1")
    same(after, board(t1="kh " + suit("H", "Q", "A"), t2="9S"))


@pytest.mark.ruling("S6")
def test_S6_no_removal_of_twelve_cards_or_a_mixed_run():
    after = play(board(t1="5C " + suit("H", "Q", "2"), t2="9S AH"), "t2>t1")
    same(after, board(t1="5C " + suit("H", "Q", "A"), t2="9S"))  # no king
    after = play(board(t1="KS " + suit("H", "Q", "2"), t2="9S AH"), "t2>t1")
    same(after, board(t1="KS " + suit("H", "Q", "A"), t2="9S"))  # king of another suit


@pytest.mark.ruling("S6")
def test_S6_removal_when_run_lies_on_other_face_up_cards():
    state = board(t1="4c 7D " + suit("H", "K", "2"), t2="AH")
    same(play(state, "t2>t1"), board(t1="4c 7D", f1=suit("H")))


@pytest.mark.ruling("S6")
def test_S6_won_when_all_four_suits_are_removed():
    removed = {"f1": suit("H"), "f2": suit("D"), "f3": suit("C")}
    state = board(t1=suit("S", "K", "2"), t2="AS", **removed)
    assert SCORPION.is_won(state) is False
    after = play(state, "t2>t1")
    same(after, board(f4=suit("S"), **removed))
    assert SCORPION.is_won(after) is True
    assert legal_moves(SCORPION, after) == []


@pytest.mark.ruling("S6")
def test_S6_not_won_with_three_suits_removed():
    state = board(t1=suit("S"), f1=suit("H"), f2=suit("D"), f3=suit("C"))
    assert SCORPION.is_won(state) is False


# -- random playouts ------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["runs", "any_faceup"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_playout_conserves_cards_and_round_trips(seed, mode):
    state = new_game(SCORPION, seed, {"moves": mode})
    full_pack = sorted(ONE_PACK.pack())
    rng = SplitMix64(2000 + seed)
    for _ in range(150):
        assert sorted(state.cards()) == full_pack
        assert parse_state(format_state(state)) == state
        check_state(SCORPION, state)
        for column in SCORPION.piles("tableau"):
            assert state.is_empty(column) or state[column].top_is_face_up
        for removed in ("f1", "f2", "f3", "f4"):
            assert len(state[removed]) in (0, 13)
        moves = legal_moves(SCORPION, state)
        for move in moves:
            assert is_legal(SCORPION, state, move)
        if not moves:
            break
        state = apply(SCORPION, state, moves[rng.below(len(moves))])
