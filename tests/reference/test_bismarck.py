"""Scenario tests of the Bismarck reference, one group per ruling (B1..B6, general).

Positions are written in the canonical state notation; each test asserts the
exact verdict on a move and, for a legal move, the exact state after it.
"""

import pytest
from scenario import Scenario, flag

from solitaire import (
    Card,
    IllegalMove,
    apply,
    catalog,
    check_move,
    format_state,
    legal_moves,
    new_game,
    parse_move,
    parse_state,
    shuffled_deck,
    start,
)
from solitaire.cards import ONE_PACK
from solitaire.engine import check_state, is_legal
from solitaire.rng import SplitMix64

BISMARCK = catalog.load("bismarck")


S = Scenario(BISMARCK)
legal, play, same, moves = S.legal, S.play, S.same, S.moves


def board(same_suit: bool = False, **piles: str):
    """A Bismarck position: the named piles hold the given cards (bottom first), others are empty."""
    return S.build(f"bismarck same_suit={flag(same_suit)}\nphase play", piles)


# A small mid-game position used by several tests (base rank 7).
FOUNDATIONS = {"f1": "7H 8H", "f2": "7D", "f3": "7S 8S 9S", "f4": "7C"}


# -- B1 the deal ----------------------------------------------------------------
@pytest.mark.ruling("B1")
def test_B1_deal_base_card_to_f1_its_rank_in_deck_order_rows_right_then_left():
    pack = ONE_PACK.pack()  # AC..KC AD..KD AH..KH AS..KS
    deck = pack[20:] + pack[:20]  # starts 8D; the other eights come in the order 8H 8S 8C
    expected = """bismarck same_suit=false
phase play
t1: 9D TD JD QD KD AH
t2: 2H 3H 4H 5H 6H 7H
t3: 9H TH JH QH KH AS
t4: 2S 3S 4S 5S 6S 7S
t5: 9S TS JS QS KS AC
t6: 2C 3C 4C 5C 6C 7C
t7: 9C TC JC QC KC AD
t8: 2D 3D 4D 5D 6D 7D
f1: 8D
f2: 8H
f3: 8S
f4: 8C
c1:
c2:
c3:
"""
    assert format_state(start(BISMARCK, deck)) == expected


@pytest.mark.ruling("B1")
def test_B1_deal_of_pinned_seed_1():
    expected = """bismarck same_suit=false
phase play
t1: 9C 4D 8H 8D 5S JD
t2: 6D 9S JC 5D KD 3C
t3: 2D JH 5H 4H 2C AD
t4: 6S KC KH TH TS JS
t5: TD 8S QC 4S 6C AS
t6: 5C AH KS 6H QS QH
t7: QD 9D 3D 3S AC 4C
t8: 2H 8C TC 3H 2S 9H
f1: 7D
f2: 7H
f3: 7C
f4: 7S
c1:
c2:
c3:
"""
    assert format_state(new_game(BISMARCK, 1)) == expected


@pytest.mark.ruling("B1")
@pytest.mark.parametrize("seed", range(8))
def test_B1_deal_shape_over_seeds(seed):
    deck = shuffled_deck(BISMARCK, seed)
    state = start(BISMARCK, deck)
    base = deck[0]
    assert state["f1"].cards == (base,)
    assert [state[f].cards[0] for f in ("f1", "f2", "f3", "f4")] == [c for c in deck if c.rank == base.rank]
    rest = [c for c in deck if c.rank != base.rank]
    rows = [state[f"t{i}"] for i in range(1, 9)]
    assert [c for row in rows for c in row.cards] == rest
    assert all(len(row) == 6 and row.down == 0 for row in rows)
    assert all(state.is_empty(c) for c in ("c1", "c2", "c3"))


@pytest.mark.ruling("B1")
def test_B1_option_same_suit_defaults_off_and_is_recorded():
    assert new_game(BISMARCK, 1).option("same_suit") is False
    state = new_game(BISMARCK, 1, {"same_suit": True})
    assert format_state(state).splitlines()[0] == "bismarck same_suit=true"


# -- B2 only the outer card, only single cards ------------------------------------
@pytest.mark.ruling("B2")
def test_B2_only_the_outer_card_moves_and_the_next_one_is_exposed():
    state = board(t1="2C 9H 5D", t2="6D", t3="TH", **FOUNDATIONS)
    assert legal(state, "t1>t2")  # 5D, the outer card, onto 6D
    assert not legal(state, "t1:2>t3")  # 9H 5D: two cards never move together
    assert not legal(state, "t1:3>t2")
    after = play(state, "t1>t2")
    same(after, board(t1="2C 9H", t2="6D 5D", t3="TH", **FOUNDATIONS))
    assert legal(after, "t1>f1")  # 9H is now the outer card of t1
    assert legal(after, "t1>t3")


@pytest.mark.ruling("B2")
def test_B2_can_pick_up_single_cards_of_rows_and_cells_only():
    state = board(t1="2C 9H 5D", c1="QS", **FOUNDATIONS)
    assert BISMARCK.can_pick_up(state, "t1", 1) is True
    assert BISMARCK.can_pick_up(state, "t1", 2) is False
    assert BISMARCK.can_pick_up(state, "c1", 1) is True
    assert BISMARCK.can_pick_up(state, "f3", 1) is False  # general: cards never leave a foundation


@pytest.mark.ruling("B2")
def test_B2_exact_legal_move_set_of_a_small_position():
    state = board(t1="2C 9H", t2="KD 5D", t3="TH", t4="", t5="4S", t6="QS", t7="JC", t8="2H",
                  c1="6D", c2="AC", c3="KH", **FOUNDATIONS)
    assert moves(state) == sorted([
        "t1>f1", "t1>t3", "t1>t4",  # 9H: on 8H, on TH, into the empty row
        "t2>t4",  # 5D: KD under it stays covered
        "t3>t1", "t3>t4",  # TH: on 9H
        "t5>t4",
        "t6>t7", "t6>t4",  # QS on JC
        "t7>t6", "t7>t4",  # JC on QS
        "t8>t4",
        "c1>t2", "c1>t4",  # 6D on 5D; never into another cell (all full anyway)
        "c2>t4",  # AC: no black two or king exposed
        "c3>t4",  # KH: no red queen or ace exposed
    ])


@pytest.mark.ruling("B2")
def test_general_foundation_cards_never_move():
    state = board(t1="2C", t2="", **FOUNDATIONS)
    for move in ("f1>t2", "f1>c1", "f3>t1", "f1>f2"):
        assert not legal(state, move), move


# -- B3 foundations ---------------------------------------------------------------
@pytest.mark.ruling("B3")
def test_B3_foundation_takes_the_next_rank_of_its_suit():
    state = board(t1="9H", t2="9D", t3="TH", t4="6H", **FOUNDATIONS)
    assert legal(state, "t1>f1")  # 9H on 8H
    assert not legal(state, "t2>f1")  # wrong suit
    assert not legal(state, "t3>f1")  # two ranks above
    assert not legal(state, "t4>f1")  # below: foundations build up only
    assert not legal(state, "t1>f2")  # 9H on 7D
    assert legal(state, "t2>f2") is False  # 9D on 7D: two above
    after = play(state, "t1>f1")
    same(after, board(t2="9D", t3="TH", t4="6H", **{**FOUNDATIONS, "f1": "7H 8H 9H"}))
    assert legal(after, "t3>f1")  # then TH


@pytest.mark.ruling("B3")
def test_B3_foundation_wraps_from_king_to_ace():
    foundations = {**FOUNDATIONS, "f3": "7S 8S 9S TS JS QS KS"}
    state = board(t1="2S AS", t2="AD", **foundations)
    assert legal(state, "t1>f3")  # AS on KS
    assert not legal(state, "t2>f3")  # AD: wrong suit
    after = play(state, "t1>f3")
    same(after, board(t1="2S", t2="AD", **{**foundations, "f3": "7S 8S 9S TS JS QS KS AS"}))
    assert legal(after, "t1>f3")  # 2S on AS


@pytest.mark.ruling("B3")
def test_B3_a_foundation_holds_13_cards():
    full = "7C 8C 9C TC JC QC KC AC 2C 3C 4C 5C 6C"
    state = board(t1="6H", **{**FOUNDATIONS, "f4": full})
    # The only card that could follow 6C would be 7C, which lies at its bottom:
    # probing the rule method directly, a 14th card is refused.
    assert BISMARCK.foundation_accepts(state, "f4", (Card(7, "C"),), "t1") is False
    assert BISMARCK.foundation_accepts(state, "f1", (Card(9, "H"),), "t1") is True


# -- B4 free cells ----------------------------------------------------------------
@pytest.mark.ruling("B4")
def test_B4_free_cell_takes_an_exposed_row_card():
    state = board(t1="2C 9H 5D", **FOUNDATIONS)
    assert legal(state, "t1>c1") and legal(state, "t1>c2") and legal(state, "t1>c3")
    after = play(state, "t1>c2")
    same(after, board(t1="2C 9H", c2="5D", **FOUNDATIONS))


@pytest.mark.ruling("B4")
def test_B4_free_cell_holds_one_card():
    state = board(t1="2C 9H 5D", c1="QS", **FOUNDATIONS)
    assert not legal(state, "t1>c1")
    assert "c1 does not take 5D" in check_move(BISMARCK, state, parse_move("t1>c1"))
    assert legal(state, "t1>c2")
    full = board(t1="2C 9H 5D", c1="QS", c2="4C", c3="JH", **FOUNDATIONS)
    assert not any(legal(full, f"t1>c{i}") for i in (1, 2, 3))
    assert [m for m in moves(full) if ">c" in m] == []


@pytest.mark.ruling("B4")
def test_B4_cell_card_does_not_move_to_another_cell():
    state = board(t1="2C", c1="QS", **FOUNDATIONS)
    assert not legal(state, "c1>c2")
    assert not legal(state, "c1>c3")
    assert BISMARCK.space_accepts(state, "c2", (Card(12, "S"),), "c1") is False
    assert BISMARCK.space_accepts(state, "c2", (Card(12, "S"),), "t1") is True


@pytest.mark.ruling("B4")
def test_B4_cell_card_goes_to_a_foundation():
    state = board(t1="2C", c3="9H", **FOUNDATIONS)
    assert legal(state, "c3>f1")
    assert not legal(state, "c3>f2")
    same(play(state, "c3>f1"), board(t1="2C", **{**FOUNDATIONS, "f1": "7H 8H 9H"}))


@pytest.mark.ruling("B4")
def test_B4_cell_card_goes_onto_a_tableau_card():
    state = board(t1="2C TD", t2="4S", c1="JH", **FOUNDATIONS)
    assert legal(state, "c1>t1")  # JH on TD: red on red, one above
    assert not legal(state, "c1>t2")  # JH on 4S
    same(play(state, "c1>t1"), board(t1="2C TD JH", t2="4S", **FOUNDATIONS))


@pytest.mark.ruling("B4")
def test_B4_cell_card_goes_into_an_empty_row():
    state = board(t1="2C TD", t5="", c2="4S", **FOUNDATIONS)
    assert legal(state, "c2>t5")
    same(play(state, "c2>t5"), board(t1="2C TD", t5="4S", **FOUNDATIONS))


# -- B5 packing on the tableau ----------------------------------------------------
@pytest.mark.ruling("B5")
@pytest.mark.parametrize(
    "card, onto, same_suit, verdict",
    [
        ("8D", "9H", False, True),  # same colour, one above
        ("8D", "7H", False, True),  # same colour, one below
        ("8D", "9D", False, True),  # same suit is a same colour too
        ("8D", "9S", False, False),  # wrong colour
        ("8D", "9C", False, False),
        ("8D", "TH", False, False),  # same colour, two above
        ("8D", "6H", False, False),  # same colour, two below
        ("8D", "8H", False, False),  # same rank
        ("KH", "AD", False, True),  # wrap: king on ace
        ("AD", "KH", False, True),  # wrap: ace on king
        ("AS", "KC", False, True),
        ("KS", "AH", False, False),  # wrap, but wrong colour
        ("QH", "AH", False, False),  # queen and ace are not adjacent
        ("2C", "KC", False, False),
        ("8D", "9H", True, False),  # same_suit: same colour is not enough
        ("8D", "9D", True, True),
        ("8D", "7D", True, True),
        ("8D", "TD", True, False),
        ("8D", "9S", True, False),
        ("KD", "AD", True, True),  # wrap holds under same_suit
        ("AD", "KD", True, True),
        ("KH", "AD", True, False),
    ],
)
def test_B5_packing_same_colour_one_rank_apart_wrapping(card, onto, same_suit, verdict):
    foundations = {"f1": "5C", "f2": "5D", "f3": "5H", "f4": "5S"}
    state = board(same_suit, t1=f"4C {card}", t2=onto, **foundations)
    assert legal(state, "t1>t2") is verdict
    assert legal(board(same_suit, t2=onto, c1=card, **foundations), "c1>t2") is verdict
    if verdict:
        same(play(state, "t1>t2"), board(same_suit, t1="4C", t2=f"{onto} {card}", **foundations))


@pytest.mark.ruling("B5")
def test_B5_same_suit_option_changes_the_legal_moves():
    position = {"t1": "3C 8D", "t2": "9H", "t3": "7D", **FOUNDATIONS, "c1": "QS", "c2": "JC", "c3": "KS"}
    assert "t1>t2" in moves(board(False, **position))
    assert "t1>t3" in moves(board(False, **position))
    assert "t1>t2" not in moves(board(True, **position))
    assert "t1>t3" in moves(board(True, **position))


# -- B6 empty rows ----------------------------------------------------------------
@pytest.mark.ruling("B6")
def test_B6_empty_row_takes_any_single_exposed_card():
    state = board(t1="2C 5C", t6="", **FOUNDATIONS)
    assert legal(state, "t1>t6")  # a five: no king rule here
    same(play(state, "t1>t6"), board(t1="2C", t6="5C", **FOUNDATIONS))
    assert not legal(state, "t1:2>t6")  # only single cards


@pytest.mark.ruling("B6")
def test_B6_empty_row_takes_a_free_cell_card_but_not_a_foundation_card():
    state = board(t1="2C", c1="QD", **FOUNDATIONS)
    assert legal(state, "c1>t8")
    assert not legal(state, "f1>t8")
    same(play(state, "c1>t8"), board(t1="2C", t8="QD", **FOUNDATIONS))


@pytest.mark.ruling("B6")
def test_B6_a_lone_card_may_move_from_row_to_empty_row():
    state = board(t1="JS", **FOUNDATIONS)  # general ruling: pointless but legal
    assert legal(state, "t1>t2")
    same(play(state, "t1>t2"), board(t2="JS", **FOUNDATIONS))


# -- winning ----------------------------------------------------------------------
SUITS_FROM_7 = [f"{r}{{s}}" for r in "789TJQKA23456"]


def full_foundation(suit: str, cards: int = 13) -> str:
    return " ".join(card.format(s=suit) for card in SUITS_FROM_7[:cards])


@pytest.mark.ruling("B3")
def test_won_when_all_52_cards_are_on_the_foundations():
    foundations = {"f1": full_foundation("H"), "f2": full_foundation("D"), "f3": full_foundation("S")}
    state = board(c2="6C", f4=full_foundation("C", 12), **foundations)
    assert BISMARCK.is_won(state) is False
    after = play(state, "c2>f4")
    same(after, board(f4=full_foundation("C"), **foundations))
    assert BISMARCK.is_won(after) is True
    assert legal_moves(BISMARCK, after) == []


@pytest.mark.ruling("B3")
def test_not_won_with_a_card_left_in_a_row():
    foundations = {"f1": full_foundation("H"), "f2": full_foundation("D"), "f3": full_foundation("S")}
    state = board(t4="6C", f4=full_foundation("C", 12), **foundations)
    assert BISMARCK.is_won(state) is False
    assert BISMARCK.is_won(play(state, "t4>f4")) is True


def test_illegal_move_raises_with_reason():
    state = board(t1="2C 5D", t2="9S", **FOUNDATIONS)
    with pytest.raises(IllegalMove, match="t2 does not take 5D"):
        play(state, "t1>t2")


# -- random playouts ----------------------------------------------------------------
@pytest.mark.parametrize("same_suit", [False, True])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playout_conserves_cards_and_round_trips(seed, same_suit):
    state = new_game(BISMARCK, seed, {"same_suit": same_suit})
    full_pack = sorted(ONE_PACK.pack())
    rng = SplitMix64(1000 + seed)
    names = BISMARCK.layout.names
    for step in range(120):
        assert sorted(state.cards()) == full_pack
        assert parse_state(format_state(state)) == state
        check_state(BISMARCK, state)
        assert all(pile.down == 0 for pile in state.piles.values())
        legal_now = legal_moves(BISMARCK, state)
        if step % 20 == 0:  # one path: check_move agrees with generation on every single-card move
            for source in names:
                for target in names:
                    if source != target:
                        move = parse_move(f"{source}>{target}")
                        assert is_legal(BISMARCK, state, move) == (move in legal_now), move
        if not legal_now:
            break
        state = apply(BISMARCK, state, legal_now[rng.below(len(legal_now))])
