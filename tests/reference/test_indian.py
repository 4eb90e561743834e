"""Scenario tests of the Indian reference: one or more per ruling (I1..I6 and the
general rulings), with near misses, and a random-playout smoke test."""

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
    parse_move,
    parse_state,
    shuffled_deck,
    start,
)
from solitaire.rng import SplitMix64

V = catalog.load("indian")


FILLER = "AC"  # an ace accepts no card: it stands in for columns a scenario does not use


S = Scenario(V)
legal, play, same = S.legal, S.play, S.same


def board(strict=False, fill=True, **piles):
    """A state of Indian: the given piles (``t1="kd QS"``), every other pile empty.

    While the stock has cards a reachable position has no space (I6), so with
    ``fill`` every column not given holds the filler card (give ``t1=""`` for a space).
    """
    filler = FILLER if fill else ""
    return S.build(f"indian strict_protection={flag(strict)}\nphase play", piles,
                   default=lambda name: filler if name.startswith("t") else "")


# -- I1: the deal ---------------------------------------------------------------
@pytest.mark.ruling("I1")
def test_I1_deal_ten_columns_of_three_row_by_row():
    cards = shuffled_deck(V, 7)
    state = start(V, cards)
    for k in range(10):
        pile = state[f"t{k + 1}"]
        assert pile.cards == (cards[k], cards[10 + k], cards[20 + k])
        assert pile.down == 1  # row 1 face down, rows 2 and 3 face up
    stock = state["s"]
    assert len(stock) == 74 and stock.top == cards[30] and stock.cards[0] == cards[103]
    assert stock.down == 73  # the top stock card is face up: the drawn card
    assert all(state.is_empty(f"f{i}") for i in range(1, 9)) and state.is_empty("w")
    assert state.phase == "play" and state.options == {"strict_protection": False}


@pytest.mark.ruling("I1")
def test_I1_deal_text_of_the_unshuffled_deck():
    # two packs in base order: clubs A..K, diamonds, hearts, spades, twice
    state = start(V, V.deck.pack() * 2)
    lines = format_state(state).splitlines()
    assert lines[:4] == ["indian strict_protection=false", "phase play", "t1: ac JC 8D", "t2: 2c QC 9D"]
    assert lines[11] == "t10: tc 7D 4H"
    assert lines[20].startswith("s: ks qs js ts") and lines[20].endswith("7h 6h 5H")
    assert lines[21] == "w:"


# -- I2: stock play -----------------------------------------------------------
@pytest.mark.ruling("I2")
def test_I2_discard_moves_the_drawn_card_and_turns_up_the_next():
    state = board(t1="9D", s="2c 5h KC", w="3D")
    assert legal(state, "s>w")
    same(play(state, "s>w"), board(t1="9D", s="2c 5H", w="3D KC"))


@pytest.mark.ruling("I2")
def test_I2_discard_allowed_even_when_the_drawn_card_could_be_played():
    state = board(t1="9D", s="2c 8C")
    assert legal(state, "s>t1") and legal(state, "s>w")


@pytest.mark.ruling("I2")
def test_I2_stock_and_waste_tops_go_to_foundations_and_columns():
    state = board(t1="9D", t2="4S", f1="AH 2H", s="2c 3H", w="KC 8S")
    assert legal(state, "s>f1")
    assert legal(state, "w>t1")
    same(play(state, "w>t1"), board(t1="9D 8S", t2="4S", f1="AH 2H", s="2c 3H", w="KC"))
    same(play(state, "s>t2"), board(t1="9D", t2="4S 3H", f1="AH 2H", s="2C", w="KC 8S"))
    same(play(state, "s>f1"), board(t1="9D", t2="4S", f1="AH 2H 3H", s="2C", w="KC 8S"))
    lone = board(t1="9D", s="2c 3H", w="8S")  # a lone waste card is not a protected card
    same(play(lone, "w>t1"), board(t1="9D 8S", s="2c 3H"))


@pytest.mark.ruling("I2")
def test_I2_only_the_top_waste_card_and_drawn_card_are_available():
    state = board(t1="9D", t2="4S", s="8c 3H", w="8S KC")
    assert not legal(state, "w:2>t1")  # 8S lies under KC
    assert not legal(state, "s:2>t1")
    assert not legal(state, "w>t1")


@pytest.mark.ruling("I2")
def test_I2_no_redeal_when_the_stock_is_exhausted():
    state = board(t1="9D", w="8S KC 4H")
    assert V.special_moves(state) == []
    assert not legal(state, "redeal") and not legal(state, "s>w") and not legal(state, "deal")


# -- I3: foundations ------------------------------------------------------------
@pytest.mark.ruling("I3")
def test_I3_an_ace_may_go_to_any_empty_foundation():
    state = board(t1="3c AD", f2="AS", s="9h KH")
    moves = {str(m) for m in legal_moves(V, state)}
    assert {f"t1>f{i}" for i in (1, 3, 4, 5, 6, 7, 8)} <= moves
    assert "t1>f2" not in moves


@pytest.mark.ruling("I3")
def test_I3_foundations_build_up_in_suit_to_the_king():
    state = board(f1="AS", f2="AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
                  t1="2S", t2="2D", t3="3S", t4="KH", t5="9c 5C", s="3h KS")
    assert legal(state, "t1>f1")
    assert not legal(state, "t2>f1")  # right rank, wrong suit
    assert not legal(state, "t3>f1")  # right suit, wrong rank
    assert not legal(state, "t5>f3")  # only an ace starts a foundation
    assert legal(state, "t4>f2")
    full = play(state, "t4>f2")
    assert not legal(board(f2="QH KH", t1="AH", s="3h KS"), "t1>f2")  # no wrap after the king
    assert legal(board(f2="QH KH", t1="AH", s="3h KS"), "t1>f1")
    assert full["f2"].top == Card(13, "H")
    assert not legal(board(f1="KS", s="3h AS"), "s>f1")


@pytest.mark.ruling("I3")
def test_I3_cards_never_return_from_a_foundation():
    state = board(f1="AS 2S", t1="3H", s="9h KH")
    assert not legal(state, "f1>t1")
    assert not legal(state, "f1>f2")


# -- I4: packing on the columns ------------------------------------------------
@pytest.mark.ruling("I4")
def test_I4_pack_down_in_any_suit_but_its_own():
    state = board(t1="8S", t2="9c 7H", t3="9c 7S", t4="9c 7D", t5="9c 6H", t6="9c 8H", s="2c 3D")
    assert legal(state, "t2>t1")  # red on black
    assert not legal(state, "t3>t1")  # same suit: the near miss
    assert legal(board(t1="8D", t4="9c 7D", s="2c 3D"), "t4>t1") is False
    assert legal(board(t1="8H", t4="9c 7D", s="2c 3D"), "t4>t1")  # same colour, other suit
    assert not legal(state, "t5>t1")  # two ranks lower
    assert not legal(state, "t6>t1")  # same rank
    assert not legal(board(t1="qc AH", t2="jc KS", s="2c 3D"), "t2>t1")  # no king on an ace: no wrap
    same(play(state, "t2>t1"),
         board(t1="8S 7H", t2="9C", t3="9c 7S", t4="9c 7D", t5="9c 6H", t6="9c 8H", s="2c 3D"))


@pytest.mark.ruling("I4")
def test_I4_one_card_at_a_time():
    state = board(t1="kc 9S 8H", t2="9c TD", s="2c 3D")
    assert not legal(state, "t1:2>t2")
    assert not V.can_pick_up(state, "t1", 2)
    assert V.can_pick_up(state, "t1", 1)


# -- I5: protected cards --------------------------------------------------------
@pytest.mark.ruling("I5")
def test_I5_turned_up_card_is_protected_it_may_go_only_to_a_foundation():
    state = board(t1="8d 7S", t2="8H", t3="9C", f1="AD 2D 3D 4D 5D 6D 7D", s="3c 5C")
    assert V._protected(state, "t1") is False  # 8D still lies face down
    after = play(state, "t1>t2")  # exposes the face-down 8D: it turns up, protected
    same(after, board(t1="8D", t2="8H 7S", t3="9C", f1="AD 2D 3D 4D 5D 6D 7D", s="3c 5C"))
    assert V._protected(after, "t1")
    assert not legal(after, "t1>t3")  # 8D would fit on 9C, but it is protected
    assert legal(after, "t1>f1")
    moves = {str(m) for m in legal_moves(V, after)}
    assert "t1>f1" in moves and not any(m.startswith("t1>t") for m in moves)


@pytest.mark.ruling("I5")
def test_I5_protected_card_goes_to_a_foundation():
    state = board(t1="4D", f1="AD 2D 3D", t2="2c 9S", s="3c 5C 6H 7C")
    assert legal(state, "t1>f1")


@pytest.mark.ruling("I5")
def test_I5_cards_that_were_dealt_face_up_are_not_protected():
    state = board(t1="kc 8D", t2="9S", s="3c 5C")
    assert not V._protected(state, "t1")
    assert legal(state, "t1>t2")
    assert not V._protected(state, "s")  # the drawn stock card is never protected


@pytest.mark.ruling("I5")
def test_I5_packing_onto_a_protected_card_allowed_by_default():
    state = board(t1="8D", t2="kc 7S", t3="8H", s="3c 5C")
    assert legal(state, "t2>t1")
    after = play(state, "t2>t1")
    same(after, board(t1="8D 7S", t2="KC", t3="8H", s="3c 5C"))
    assert not V._protected(after, "t1")  # the top card 7S is not protected
    assert legal(after, "t1>t3")
    assert V._protected(after, "t2")  # KC was dealt face down and has turned up


@pytest.mark.ruling("I5")
def test_I5_strict_protection_forbids_packing_onto_a_protected_card():
    state = board(strict=True, t1="8D", t2="kc 7S", t3="jc 8H", s="3c 5C")
    assert not legal(state, "t2>t1")
    assert legal(state, "t2>t3")  # 8H was dealt face up: not protected
    assert not legal(board(strict=True, t1="8D", s="3c 7S"), "s>t1")
    assert legal(board(strict=False, t1="8D", s="3c 7S"), "s>t1")


@pytest.mark.ruling("I5")
def test_I5_protected_card_stays_protected_under_packed_cards():
    state = board(t1="8D 7S", t2="9C", t3="8H", s="3c 5C")
    after = play(state, "t1>t3")  # 7S leaves: 8D is alone again
    assert V._protected(after, "t1")
    assert not legal(after, "t1>t2")


@pytest.mark.ruling("I5")
def test_I5_protection_ends_when_the_stock_is_exhausted():
    state = board(t1="8D", t2="9S", s="5C", strict=True)
    assert not legal(state, "t1>t2")
    after = play(state, "s>w")  # the last stock card: the stock is exhausted
    same(after, board(t1="8D", t2="9S", w="5C", strict=True))
    assert legal(after, "t1>t2")
    assert not V._protected(after, "t1")
    # strict_protection no longer forbids packing onto it either
    assert legal(board(t1="8D", t2="kc 7S", strict=True), "t2>t1")


@pytest.mark.ruling("I5")
def test_I5_protection_ends_when_the_last_stock_card_is_played():
    state = board(t1="8D", t2="9S", t3="6c 6H", s="5C")
    after = play(state, "s>t3")
    assert after.is_empty("s") and legal(after, "t1>t2")


# -- I6: refilling spaces and spaces after exhaustion ----------------------------
@pytest.mark.ruling("I6")
def test_I6_emptied_column_refilled_with_one_down_two_up_from_the_stock():
    state = board(t1="2D", f1="AD", t2="9S", s="7h 6c 5s 4h 3C")
    after = play(state, "t1>f1")
    # next card (the drawn 3C) goes face down, then 4H and 5S face up; 6C is drawn next
    same(after, board(t1="3c 4H 5S", f1="AD 2D", t2="9S", s="7h 6C"))


@pytest.mark.ruling("I6")
@pytest.mark.parametrize(
    "stock, column, left",
    [
        ("6c 5s 4h 3C", "3c 4H 5S", "6C"),
        ("5s 4h 3C", "3c 4H 5S", ""),
        ("4h 3C", "3c 4H", ""),
        ("3C", "3C", ""),  # a lone last card goes face up
        ("", "", ""),
    ],
    ids=["4_cards", "3_cards", "2_cards", "1_card", "0_cards"],
)
def test_I6_refill_with_short_stock(stock, column, left):
    state = board(t1="2D", f1="AD", t2="9S", s=stock, w="KH")
    same(play(state, "t1>f1"), board(t1=column, f1="AD 2D", t2="9S", s=left, w="KH"))


@pytest.mark.ruling("I6")
def test_I6_refilled_face_down_card_becomes_protected_when_exposed():
    state = board(t1="2D", f1="AD", t2="8S", t3="kc 6D", t4="9C", s="qc jd 5s 7h 8D")
    after = play(state, "t1>f1")
    same(after, board(t1="8d 7H 5S", f1="AD 2D", t2="8S", t3="kc 6D", t4="9C", s="qc JD"))
    assert not V._protected(after, "t1")
    after = play(after, "t1>t3", "t1>t2")
    same(after, board(t1="8D", f1="AD 2D", t2="8S 7H", t3="kc 6D 5S", t4="9C", s="qc JD"))
    assert V._protected(after, "t1") and not legal(after, "t1>t4")


@pytest.mark.ruling("I6")
def test_I6_refill_that_exhausts_the_stock_ends_protection_at_once():
    state = board(t1="2D", f1="AD", t2="8H", t3="9S", s="4h 3C")
    assert not legal(state, "t2>t3")  # 8H is protected
    after = play(state, "t1>f1")
    same(after, board(t1="3c 4H", f1="AD 2D", t2="8H", t3="9S"))
    assert legal(after, "t2>t3")


@pytest.mark.ruling("I6")
def test_I6_no_player_may_fill_a_space_while_the_stock_has_cards():
    # only in a constructed position: a reachable one never has a space while the stock has cards
    state = board(t1="", t2="kc 9S", s="4h 3C", w="5D")
    assert not legal(state, "t2>t1") and not legal(state, "w>t1") and not legal(state, "s>t1")
    same(play(state, "s>w"), board(t1="4H", t2="kc 9S", w="5D 3C"))  # refill from the stock


@pytest.mark.ruling("I6")
def test_I6_after_exhaustion_a_space_takes_any_single_available_card():
    state = board(t1="", t2="kc 9S", t3="qd 8C 7H", t4="TC", w="5D 2H")
    assert legal(state, "t2>t1") and legal(state, "w>t1") and legal(state, "t4>t1")
    assert not legal(state, "t3:2>t1") and not legal(state, "w:2>t1")
    same(play(state, "w>t1"), board(t1="2H", t2="kc 9S", t3="qd 8C 7H", t4="TC", w="5D"))
    same(play(state, "t4>t1"), board(t1="TC", t2="kc 9S", t3="qd 8C 7H", t4="", w="5D 2H"))
    emptied = play(state, "t4>t1", "t1>t4")  # a space after exhaustion stays empty
    assert emptied.is_empty("t1")


# -- general rulings ------------------------------------------------------------
def test_general_exposed_face_down_card_turns_up_at_once():
    state = board(t1="kc qd 9S", t2="TH", s="3c 5C")
    same(play(state, "t1>t2"), board(t1="kc QD", t2="TH 9S", s="3c 5C"))


def test_general_won_when_every_card_is_on_the_foundations():
    suits = {s: " ".join(str(Card(r, s)) for r in range(1, 14)) for s in "CDHS"}
    piles = {f"f{i}": suits["CDHS"[i % 4]] for i in range(1, 9)}
    piles["f8"] = piles["f8"][:-3]  # f8 lacks its king (8 % 4 = 0: clubs)
    state = board(s="KC", fill=False, **piles)
    assert not V.is_won(state)
    after = play(state, "s>f8")
    assert V.is_won(after)


def test_illegal_move_raises_with_a_reason():
    state = board(t1="8S", t2="9c 7S", s="3c 5C")
    with pytest.raises(IllegalMove, match="t1 does not take 7S"):
        apply(V, state, parse_move("t2>t1"))


# -- random playouts --------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_playout_conserves_cards_and_round_trips(seed):
    strict = seed % 2 == 0
    state = start(V, shuffled_deck(V, seed), {"strict_protection": strict})
    deck = sorted(state.cards())
    rng = SplitMix64(seed)
    for _ in range(250):
        assert sorted(state.cards()) == deck
        assert parse_state(format_state(state)) == state
        if not state.is_empty("s"):
            assert all(not state.is_empty(f"t{i}") for i in range(1, 11))
            assert state["s"].top_is_face_up
        moves = legal_moves(V, state)
        if not moves:
            break
        for move in moves:
            assert check_move(V, state, move) is None
        state = apply(V, state, moves[rng.below(len(moves))])
