"""Scenario tests of the Double Fives reference: one or more per ruling (D1..D6
and the general rulings), with near misses, and a random-playout smoke test."""

import pytest
from scenario import Scenario

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

V = catalog.load("double_fives")


S = Scenario(V)
legal, play, same, specials = S.legal, S.play, S.same, S.specials


def board(phase="hand", **piles):
    """A state of Double Fives in ``phase``: the given piles (``t1="KD QD"``), every other pile empty."""
    return S.build(f"double_fives\nphase {phase}", piles)


# -- D1: the deal ----------------------------------------------------------------
@pytest.mark.ruling("D1")
def test_D1_deal_from_pack_a_and_pack_b():
    cards = shuffled_deck(V, 5)
    pack = sorted(V.deck.pack())
    assert sorted(cards[:52]) == pack and sorted(cards[52:]) == pack  # two separate packs
    state = start(V, cards)
    for column in range(5):
        assert state[f"t{column + 1}"].cards == tuple(cards[column + 5 * row] for row in range(5))
        assert state[f"t{column + 6}"].cards == tuple(cards[25 + column + 5 * row] for row in range(5))
    assert all(state[f"t{i}"].down == 0 for i in range(1, 11))  # all face up
    assert state["f1"].cards == (cards[50],) and state["f1"].down == 0
    assert state["h1"].cards == (cards[51],) and state["h1"].down == 0
    assert all(state.is_empty(p) for p in ("h2", "h3", "h4", "h5", "d", "w"))
    assert all(state.is_empty(f"f{i}") for i in range(2, 9))
    stock = state["s"]
    assert stock.cards == tuple(reversed(cards[52:])) and stock.down == 52  # face down, 53rd on top
    assert state.phase == "hand" and state.counters == {}


@pytest.mark.ruling("D1")
def test_D1_deal_text_of_the_unshuffled_packs():
    lines = format_state(start(V, V.deck.pack() * 2)).splitlines()
    assert lines[:3] == ["double_fives", "phase hand", "t1: AC 6C JC 3D 8D"]
    assert lines[6] == "t5: 5C TC 2D 7D QD"
    assert lines[7] == "t6: KD 5H TH 2S 7S"
    assert lines[11] == "t10: 4H 9H AS 6S JS"
    assert lines[12] == "f1: QS" and lines[20] == "h1: KS" and lines[25] == "d:"
    assert lines[26].startswith("s: ks qs js") and lines[26].endswith("3c 2c ac")


# -- D2: foundations ---------------------------------------------------------------
@pytest.mark.ruling("D2")
def test_D2_any_empty_foundation_takes_a_base_rank_card():
    state = board(f1="5H", t1="5C", t2="5H", t3="6C", t4="AS", h1="5S", s="2c")
    moves = {str(m) for m in legal_moves(V, state)}
    assert {f"t1>f{i}" for i in range(2, 9)} <= moves and "t1>f1" not in moves
    assert legal(state, "h1>f2") and legal(state, "t2>f8")  # the other 5H too
    assert not legal(state, "t3>f2")  # not the base rank
    assert not legal(state, "t4>f2")  # an ace does not start a foundation here
    same(play(state, "h1>f3"), board(f1="5H", f3="5S", t1="5C", t2="5H", t3="6C", t4="AS", s="2c"))


@pytest.mark.ruling("D2")
def test_D2_foundations_build_up_in_suit_one_at_a_time():
    state = board(f1="5H", t1="6H", t2="6D", t3="7H", t4="7h 6H", s="2c")
    assert legal(state, "t1>f1")
    assert not legal(state, "t2>f1")  # wrong suit
    assert not legal(state, "t3>f1")  # wrong rank
    assert not legal(state, "t4:2>f1")  # one card at a time


@pytest.mark.ruling("D2")
def test_D2_foundations_wrap_from_king_to_ace():
    state = board(f1="9C TC JC QC KC", t1="AC", t2="AD", s="2c")
    assert legal(state, "t1>f1")
    assert not legal(state, "t2>f1")
    same(play(state, "t1>f1"), board(f1="9C TC JC QC KC AC", t2="AD", s="2c"))


@pytest.mark.ruling("D2")
def test_D2_a_foundation_holds_13_cards():
    full = "5C 6C 7C 8C 9C TC JC QC KC AC 2C 3C 4C"
    state = board(f1="5H", f2=full, t1="5C", s="2c")
    assert not legal(state, "t1>f2")  # a 14th card would follow the 4C in suit
    assert legal(state, "t1>f3")  # but it starts another foundation
    assert not legal(state, "f2>t1") and not legal(state, "f1>f3")  # cards never come back


# -- D3: columns -------------------------------------------------------------------
@pytest.mark.ruling("D3")
def test_D3_columns_pack_down_in_suit():
    state = board(f1="9S", t1="7H", t2="6H", t3="6D", t4="5H", t5="6S", t6="8H", s="2c")
    assert legal(state, "t2>t1")
    assert not legal(state, "t3>t1")  # same colour, other suit
    assert not legal(state, "t5>t1")  # other suit
    assert not legal(state, "t4>t1")  # two ranks lower
    assert not legal(state, "t6>t1")  # packing goes down, not up
    same(play(state, "t2>t1"), board(f1="9S", t1="7H 6H", t3="6D", t4="5H", t5="6S", t6="8H", s="2c"))


@pytest.mark.ruling("D3")
def test_D3_a_king_may_go_on_an_ace_but_not_an_ace_on_a_king():
    state = board(f1="9S", t1="3D AH", t2="KH", t3="KD", t4="QC 2H", s="2c")
    assert legal(state, "t2>t1")
    assert not legal(state, "t3>t1")
    assert legal(state, "t1>t4")  # AH on 2H
    assert not legal(board(f1="9S", t1="QC KH", t2="AH", s="2c"), "t2>t1")


@pytest.mark.ruling("D3")
def test_D3_one_card_at_a_time():
    state = board(f1="9S", t1="KC 8H 7H", t2="9H", s="2c")
    assert not legal(state, "t1:2>t2")
    assert not V.can_pick_up(state, "t1", 2) and V.can_pick_up(state, "t1", 1)


# -- D4: spaces --------------------------------------------------------------------
@pytest.mark.ruling("D4")
def test_D4_a_space_takes_any_single_available_card_at_any_time():
    state = board(f1="9S", t2="KC 8H 7H", h3="4D", s="3c 2c")  # phase 1, stock not empty
    assert legal(state, "t2>t1") and legal(state, "h3>t1")
    assert not legal(state, "t2:2>t1")
    assert not legal(state, "f1>t1")
    same(play(state, "h3>t1"), board(f1="9S", t1="4D", t2="KC 8H 7H", s="3c 2c"))


@pytest.mark.ruling("D4")
def test_D4_a_space_takes_the_stock_and_waste_tops_in_phase_2():
    state = board("stock", f1="9S", t2="KC", s="3c 2C", w="8H 5D")
    assert legal(state, "s>t1") and legal(state, "w>t1") and legal(state, "t2>t1")
    assert not legal(state, "w:2>t1")
    same(play(state, "s>t1"), board("stock", f1="9S", t1="2C", t2="KC", s="3C", w="8H 5D"))


# -- D5: the hand row (phase 1) ------------------------------------------------------
@pytest.mark.ruling("D5")
def test_D5_deal_sweeps_the_hand_row_in_slot_order_then_deals_five():
    state = board(f1="9S", t1="KC", h1="7S", h3="2D", h5="QH", d="kh", s="9c 8c 7c 6c 5c 4c 3c")
    assert specials(state) == ["deal"]
    after = play(state, "deal")
    same(after, board(f1="9S", t1="KC", h1="3C", h2="4C", h3="5C", h4="6C", h5="7C",
                      d="kh 7s 2d qh", s="9c 8c"))


@pytest.mark.ruling("D5")
def test_D5_deal_turns_fewer_cards_at_the_end_of_the_stock():
    state = board(f1="9S", h2="JD", s="4c 3c")
    after = play(state, "deal")
    same(after, board(f1="9S", h1="3C", h2="4C", d="jd"))
    assert specials(after) == ["redeal"] and not legal(after, "deal")


@pytest.mark.ruling("D5")
def test_D5_deal_is_legal_at_any_time_while_the_stock_has_cards():
    state = board(f1="9S", t1="9H", h1="8H", h2="TS", s="2c")  # both hand cards could be played
    assert legal(state, "h1>t1") and legal(state, "h2>f1") and legal(state, "deal")
    same(play(state, "deal"), board(f1="9S", t1="9H", h1="2C", d="8h ts"))


@pytest.mark.ruling("D5")
def test_D5_hand_row_slots_are_fixed():
    state = board(f1="9S", t1="9H", h1="4D", h2="8H", h3="QC", s="2c")
    after = play(state, "h2>t1")
    same(after, board(f1="9S", t1="9H 8H", h1="4D", h3="QC", s="2c"))  # h3 does not shift
    assert not legal(after, "t1>h2") and not legal(after, "h1>h2")  # slots are never targets


@pytest.mark.ruling("D5")
def test_D5_every_hand_card_is_available():
    state = board(f1="9S", t1="9H", t3="KD", h1="4D", h2="8H", h3="QD", h4="TS", s="2c")
    assert legal(state, "h2>t1") and legal(state, "h3>t3") and legal(state, "h4>f1")
    assert legal(state, "h1>t2")  # into a space
    assert not legal(state, "h1>t1")


@pytest.mark.ruling("D5")
def test_D5_stock_and_discard_pile_are_not_available_in_phase_1():
    state = board(f1="9S", t1="3C", h1="4D", d="ts", s="2c")
    assert not legal(state, "s>t1") and not legal(state, "s>w") and not legal(state, "d>f1")
    assert not V.can_pick_up(state, "s", 1) and not V.can_pick_up(state, "d", 1)
    assert specials(state) == ["deal"]


# -- D6: the redeal and phase 2 ------------------------------------------------------
@pytest.mark.ruling("D6")
def test_D6_redeal_only_when_the_stock_is_empty():
    state = board(f1="9S", h1="4D", d="ts", s="2c")
    assert not legal(state, "redeal")
    with pytest.raises(IllegalMove, match="redeal is not allowed now"):
        apply(V, state, parse_move("redeal"))


@pytest.mark.ruling("D6")
def test_D6_redeal_turns_the_discard_pile_over_first_swept_card_first():
    state = board(f1="9S", h2="4D", h5="9S", d="ks 2h 3c")
    assert specials(state) == ["redeal"]
    same(play(state, "redeal"), board("stock", f1="9S", s="9s 4d 3c 2h KS"))


@pytest.mark.ruling("D6")
def test_D6_full_cycle_from_a_deal_first_hand_card_drawn_first():
    cards = shuffled_deck(V, 11)
    state = start(V, cards)
    deals = 0
    while legal(state, "deal"):
        state = play(state, "deal")
        deals += 1
    assert deals == 11  # 52 stock cards: ten deals of five and one of two
    assert state.is_empty("s") and specials(state) == ["redeal"]
    state = play(state, "redeal")
    assert state.phase == "stock" and len(state["s"]) == 53 and state.is_empty("d")
    assert state["s"].top == cards[51] and state["s"].down == 52  # the 52nd card of pack A
    assert state["s"].cards[-2] == cards[52]  # then pack B's first card


@pytest.mark.ruling("D6")
def test_D6_phase_2_is_stock_play():
    state = board("stock", f1="9S", t1="4C", s="kd 3C", w="TS")
    assert specials(state) == ["s>w"]
    same(play(state, "s>w"), board("stock", f1="9S", t1="4C", s="KD", w="TS 3C"))
    same(play(state, "s>t1"), board("stock", f1="9S", t1="4C 3C", s="KD", w="TS"))
    same(play(state, "w>f1"), board("stock", f1="9S TS", t1="4C", s="kd 3C"))
    assert not V.can_pick_up(state, "s", 2) and not V.can_pick_up(state, "h1", 1)


@pytest.mark.ruling("D6")
def test_D6_no_further_redeal():
    state = board("stock", f1="9S", t1="4C", w="TS 3D")
    assert specials(state) == []
    assert not legal(state, "redeal") and not legal(state, "deal") and not legal(state, "s>w")
    assert not legal(board("stock", f1="9S", s="kd 3C"), "deal")


# -- general rulings ---------------------------------------------------------------
def test_general_won_when_every_card_is_on_the_foundations():
    suit = {s: " ".join(str(Card(r, s)) for r in (*range(9, 14), *range(1, 9))) for s in "CDHS"}
    piles = {f"f{i}": suit["SCDH"[(i - 1) % 4]] for i in range(1, 9)}
    piles["f8"] = piles["f8"][:-3]  # f8 (hearts) lacks its last card, the 8H
    state = board("stock", s="8H", **piles)
    assert not V.is_won(state)
    assert V.is_won(play(state, "s>f8"))


# -- random playouts -----------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_playout_conserves_cards_and_round_trips(seed):
    state = start(V, shuffled_deck(V, seed))
    deck = sorted(state.cards())
    rng = SplitMix64(seed)
    for _ in range(300):
        assert sorted(state.cards()) == deck
        assert parse_state(format_state(state)) == state
        assert all(len(state[f"f{i}"]) <= 13 for i in range(1, 9))
        assert state["d"].down == len(state["d"])
        if state.phase == "stock":
            assert all(state.is_empty(f"h{i}") for i in range(1, 6)) and state.is_empty("d")
        moves = legal_moves(V, state)
        if not moves:
            break
        for move in moves:
            assert check_move(V, state, move) is None
        state = apply(V, state, moves[rng.below(len(moves))])
