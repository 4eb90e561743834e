"""Scenario tests of the Metternich reference, one group per ruling (M1..M6, general).

Positions are written in the canonical state notation; each test asserts the
exact verdict on a move and, for a legal move, the exact state after it.
"""

from collections import Counter

import pytest
from scenario import Scenario, flag

from reference.metternich import Metternich
from solitaire import (
    apply,
    format_state,
    legal_moves,
    new_game,
    parse_move,
    parse_state,
    shuffled_deck,
    start,
)
from solitaire.cards import TWO_PACKS, Card, parse_card
from solitaire.engine import check_state
from solitaire.rng import SplitMix64

METTERNICH = Metternich()
COLUMNS = METTERNICH.piles("tableau")
# A mid-game position's foundations (f5..f8 still empty) ...
FOUNDATIONS = {"f1": "AH 2H 3H", "f2": "AC", "f3": "AS 2S", "f4": "AD"}
# ... and columns that fill the layout (no space, so no disabled column) without playing anywhere.
FILLER = {f"t{i}": king for i, king in enumerate(["KC", "KD", "KH", "KS"] * 3, start=1)}


S = Scenario(METTERNICH)
legal, play, same, moves = S.legal, S.play, S.same, S.moves


def board(redeals: int = 1, kings_rule: bool = True, **piles: str):
    """A position: the named piles hold the given cards (bottom first), the others are empty."""
    return S.build(f"metternich kings_rule={flag(kings_rule)}\nphase play redeals={redeals}", piles)


def position(redeals: int = 1, **piles: str):
    """``board`` with the mid-game foundations and the filler columns unless given."""
    return board(redeals, **{**FOUNDATIONS, **FILLER, **piles})


def cards(text: str) -> list[Card]:
    return [parse_card(token) for token in text.split()]


def without(deck: list[Card], *removed: str) -> list[Card]:
    """``deck`` with one copy of each ``removed`` card taken out."""
    rest = list(deck)
    for text in removed:
        rest.remove(parse_card(text))
    return rest


BASE = TWO_PACKS.pack() * 2  # AC..KC AD..KD AH..KH AS..KS, twice


def columns_of(layout: list[Card]) -> list[list[Card]]:
    """The 12 columns that 48 cards dealt row by row make."""
    return [layout[column::12] for column in range(12)]


def assert_dealt(state, layout: list[Card], draw_order: list[Card]) -> None:
    """The state holds ``layout`` dealt row by row and a stock drawing ``draw_order``."""
    assert [list(state[t].cards) for t in COLUMNS] == columns_of(layout)
    assert all(state[t].down == 0 for t in COLUMNS)
    stock = state["s"]
    assert list(reversed(stock.cards)) == draw_order
    assert stock.down == len(stock) - 1  # the top card is the drawn card, face up


# -- M1 the deal --------------------------------------------------------------------
@pytest.mark.ruling("M1")
def test_M1_deal_row_by_row_into_twelve_columns_of_four():
    state = start(METTERNICH, BASE)
    assert_dealt(state, BASE[:48], BASE[48:])
    assert [str(c) for c in state["t1"].cards] == ["AC", "KC", "QD", "JH"]
    assert [str(c) for c in state["t12"].cards] == ["QC", "JD", "TH", "9S"]
    assert str(state.top("s")) == "TS" and len(state["s"]) == 56
    assert state.phase == "play" and state.counters == {"redeals": 1}
    assert all(state.is_empty(f) for f in METTERNICH.piles("foundation")) and state.is_empty("w")


@pytest.mark.ruling("M1")
def test_M1_kings_rule_sends_a_second_king_of_a_suit_to_the_bottom_of_the_stock():
    rest = without(BASE, "KS", "KS")
    state = start(METTERNICH, cards("KS KS") + rest)
    assert_dealt(state, cards("KS") + rest[:47], rest[47:] + cards("KS"))
    assert str(state["t2"].cards[0]) == "AC"  # the next card was dealt in the king's place
    assert str(state["s"].cards[0]) == "KS"


@pytest.mark.ruling("M1")
def test_M1_kings_rule_applies_to_a_king_dealt_in_a_later_row():
    rest = without(BASE, "KS", "KS")
    deck = cards("KS") + rest[:29] + cards("KS") + rest[29:]  # the second KS would be card 31 (row 3)
    state = start(METTERNICH, deck)
    assert_dealt(state, cards("KS") + rest[:47], rest[47:] + cards("KS"))


@pytest.mark.ruling("M1")
def test_M1_kings_rule_repeats_when_the_next_card_is_such_a_king_too():
    rest = without(BASE, "KS", "KS", "KH", "KH")
    state = start(METTERNICH, cards("KS KH KS KH") + rest)
    # place 3: KS set aside, then KH set aside, then AC dealt; the last king set aside is lowest
    assert_dealt(state, cards("KS KH") + rest[:46], rest[46:] + cards("KS KH"))
    assert [str(c) for c in state["s"].cards[:2]] == ["KH", "KS"]


@pytest.mark.ruling("M1")
def test_M1_kings_of_different_suits_are_not_set_aside():
    rest = without(BASE, "KS", "KH", "KD", "KC")
    state = start(METTERNICH, cards("KS KH KD KC") + rest)
    assert_dealt(state, cards("KS KH KD KC") + rest[:44], rest[44:])


@pytest.mark.ruling("M1")
def test_M1_kings_rule_off_deals_the_deck_as_it_comes():
    rest = without(BASE, "KS", "KS")
    state = start(METTERNICH, cards("KS KS") + rest, {"kings_rule": False})
    assert state.options == {"kings_rule": False}
    assert_dealt(state, cards("KS KS") + rest[:46], rest[46:])


@pytest.mark.ruling("M1")
@pytest.mark.parametrize("seed", [1, 2, 5])
def test_M1_pinned_seeds_at_most_one_king_of_a_suit_in_the_layout(seed):
    deck = shuffled_deck(METTERNICH, seed)
    state = new_game(METTERNICH, seed)
    kings = [c.suit for t in COLUMNS for c in state[t].cards if c.rank == 13]
    assert len(kings) == len(set(kings))
    assert Counter(state.cards()) == Counter(deck)
    plain = new_game(METTERNICH, seed, {"kings_rule": False})
    assert_dealt(plain, deck[:48], deck[48:])


@pytest.mark.ruling("M1")
def test_M1_pinned_seed_1_sets_a_king_of_clubs_aside():
    state = new_game(METTERNICH, 1)
    plain = new_game(METTERNICH, 1, {"kings_rule": False})
    assert str(state["s"].cards[0]) == "KC" and str(plain["s"].cards[0]) != "KC"
    assert sum(c == Card(13, "C") for t in COLUMNS for c in plain[t].cards) == 2
    # the 44th card (KC, due for the top of t8) was set aside; the 45th (JS) took its place
    assert str(plain.top("t8")) == "KC" and str(state.top("t8")) == "JS"


# -- M2 aces and foundations --------------------------------------------------------
@pytest.mark.ruling("M2")
def test_M2_an_ace_goes_to_any_empty_foundation():
    state = position(t1="9C AD")
    assert [m for m in moves(state) if m.startswith("t1")] == ["t1>f5", "t1>f6", "t1>f7", "t1>f8"]
    same(play(state, "t1>f6"), position(t1="9C", f6="AD"))


@pytest.mark.ruling("M2")
def test_M2_an_empty_foundation_takes_only_an_ace():
    state = position(t1="9C 2D", t2="KD 2C")
    assert not legal(state, "t1>f5") and not legal(state, "t2>f6")
    assert legal(state, "t1>f4") and legal(state, "t2>f2")


@pytest.mark.ruling("M2")
def test_M2_foundations_build_up_in_suit_to_the_king():
    state = position(t1="4H", t2="4D", t3="5H", t4="3S", f5="AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
                     t5="KH")
    assert legal(state, "t1>f1")
    same(play(state, "t1>f1"), position(t1="", t2="4D", t3="5H", t4="3S", t5="KH",
                                        f1="AH 2H 3H 4H", f5="AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"))
    assert not legal(state, "t2>f1")  # 4D onto 3H: wrong suit, same colour
    assert not legal(state, "t3>f1")  # 5H onto 3H: skips the 4
    assert not legal(state, "t4>f1")  # 3S onto 3H
    assert legal(state, "t5>f5")  # the king completes a foundation


@pytest.mark.ruling("M2")
def test_M2_nothing_goes_to_a_foundation_by_itself():
    state = new_game(METTERNICH, 1)
    assert str(state.top("t1")) == "AS"  # an ace lies exposed after the deal ...
    assert all(state.is_empty(f) for f in METTERNICH.piles("foundation"))  # ... and stays there
    state = position(t1="AD 8S", t2="9S")
    same(play(state, "t1>t2"), position(t1="AD", t2="9S 8S"))


@pytest.mark.ruling("M2")
def test_M2_cards_never_come_back_from_a_foundation():
    state = position(t1="4H", t2="3S")
    assert not legal(state, "f1>t1") and not legal(state, "f3>t2")
    assert not METTERNICH.can_pick_up(state, "f1", 1)


# -- M3 the stock and the waste ------------------------------------------------------
@pytest.mark.ruling("M3")
def test_M3_top_stock_card_to_a_foundation_and_the_next_one_turns_up():
    state = position(s="9c 7d AS")
    assert legal(state, "s>f5") and not legal(state, "s>f3")
    same(play(state, "s>f5"), position(s="9c 7D", f5="AS"))


@pytest.mark.ruling("M3")
def test_M3_top_stock_card_onto_a_column():
    state = position(t1="KH 9D", t2="9H", s="9c 8D")
    assert legal(state, "s>t1") and not legal(state, "s>t2")
    same(play(state, "s>t1"), position(t1="KH 9D 8D", t2="9H", s="9C"))


@pytest.mark.ruling("M3")
def test_M3_discard_is_always_legal_even_when_the_card_could_be_played():
    state = position(t1="KH 9D", s="kc 5h 8D", w="2S")
    assert legal(state, "s>t1") and legal(state, "s>w")
    same(play(state, "s>w"), position(t1="KH 9D", s="kc 5H", w="2S 8D"))


@pytest.mark.ruling("M3")
def test_M3_discard_is_refused_when_the_stock_is_empty():
    state = position(w="2S 8D", redeals=0)
    assert not legal(state, "s>w") and METTERNICH.special_moves(state) == []


@pytest.mark.ruling("M3")
def test_M3_top_waste_card_to_a_foundation_and_onto_a_column():
    state = position(t1="KH 9D", s="QC", w="3S 8D 4D")
    assert not legal(state, "w>f4")  # 4D onto AD skips two ranks
    state = position(t1="KH 9D", s="QC", w="3S 4D 8D")
    same(play(state, "w>t1"), position(t1="KH 9D 8D", s="QC", w="3S 4D"))
    state = position(t1="KH 9D", s="QC", w="8D 3S")
    same(play(state, "w>f3"), position(t1="KH 9D", s="QC", w="8D", f3="AS 2S 3S"))


@pytest.mark.ruling("M3")
def test_M3_only_the_top_card_of_the_stock_and_of_the_waste():
    state = position(t1="KH 9D", s="8d 5C", w="8D 3C")
    assert not legal(state, "s:2>t1") and not legal(state, "w:2>t1")
    assert not METTERNICH.can_pick_up(state, "w", 2)
    assert not legal(state, "w>s") and not legal(state, "t1>w")


# -- M4 packing down in suit, runs --------------------------------------------------
RUNS = dict(t1="KC 9S 8S 7S", t2="TS", t3="9S 8H", t4="TH", t5="QD 9S", t6="9S JS", t7="4S 3S",
            t8="JS")


@pytest.mark.ruling("M4")
def test_M4_a_same_suit_run_moves_onto_its_suit_one_rank_higher():
    state = position(**RUNS)
    assert legal(state, "t1:3>t2")
    same(play(state, "t1:3>t2"), position(**{**RUNS, "t1": "KC", "t2": "TS 9S 8S 7S"}))
    assert legal(state, "t1:2>t5")  # part of a run: 8S 7S onto 9S
    same(play(state, "t1:2>t5"), position(**{**RUNS, "t1": "KC 9S", "t5": "QD 9S 8S 7S"}))


@pytest.mark.ruling("M4")
def test_M4_a_single_card_packs_down_in_suit():
    state = position(**RUNS)
    assert legal(state, "t5>t2")  # 9S onto TS
    assert legal(state, "t2>t8")  # TS onto JS
    same(play(state, "t2>t8"), position(**{**RUNS, "t2": "", "t8": "JS TS"}))
    assert not legal(state, "t7>t6")  # 3S onto JS: wrong rank
    assert not legal(state, "t3>t2")  # 8H onto TS: wrong suit
    assert not legal(state, "t1>t2")  # 7S onto TS: wrong rank
    assert not legal(state, "t3>t4")  # 8H onto TH: wrong rank


@pytest.mark.ruling("M4")
def test_M4_runs_refused_onto_wrong_suit_or_rank_and_broken_runs_do_not_move():
    state = position(**RUNS)
    assert not legal(state, "t1:3>t4")  # 9S onto TH: wrong suit
    assert not legal(state, "t1:3>t8")  # 9S onto JS: wrong rank
    assert not legal(state, "t1:4>t2")  # KC 9S ... is not a run
    assert not legal(state, "t3:2>t2")  # 9S 8H: the suit breaks, though 9S fits TS
    assert not legal(state, "t6:2>t2")  # 9S JS: not descending
    assert not METTERNICH.can_pick_up(state, "t3", 2)
    assert METTERNICH.can_pick_up(state, "t1", 3) and not METTERNICH.can_pick_up(state, "t1", 4)


@pytest.mark.ruling("M4")
def test_M4_a_run_does_not_go_to_a_foundation_its_top_card_does():
    state = position(**RUNS)
    assert not legal(state, "t7:2>f3")
    assert not legal(position(t9="3S 2S"), "t9:2>f3")  # 3S would fit 2S: still one card at a time
    assert not METTERNICH.foundation_accepts(state, "f3", (Card(3, "S"), Card(2, "S")), "t9")
    same(play(state, "t7>f3"), position(**{**RUNS, "t7": "4S", "f3": "AS 2S 3S"}))


# -- M5 spaces and disabled columns --------------------------------------------------
@pytest.mark.ruling("M5")
def test_M5_spaces_are_never_filled():
    state = position(t1="9D KH", t12="", s="5c QS", w="KD")
    for move in ("t1>t12", "s>t12", "w>t12", "t11>t12"):
        assert not legal(state, move), move
    for source in ("t1", "s", "w"):
        assert METTERNICH.space_accepts(state, "t12", (Card(13, "H"),), source) is False


@pytest.mark.ruling("M5")
def test_M5_a_space_in_the_last_column_disables_nothing():
    state = position(t1="KH TD", t11="KS 9D", t12="")
    assert legal(state, "t11>t1")  # t11 lies left of the only space: still active
    same(play(state, "t11>t1"), position(t1="KH TD 9D", t11="KS", t12=""))


# A position with t3 empty: t4..t12 are disabled.
DISABLED = dict(t1="5S JD", t2="6S TC", t3="", t4="3S TD", t5="4H", t6="2S 9C 8C", t7="KD JC",
                s="8h TC", w="QD 9C")


@pytest.mark.ruling("M5")
def test_M5_columns_right_of_the_leftmost_space_neither_give_nor_take():
    state = position(**DISABLED)
    assert moves(state) == ["s>w", "t5>f1", "w>t2"]
    for move in ("t4>t1", "t2>t7", "t6:2>t2", "s>t7", "w>t7"):
        assert not legal(state, move), move
    assert not METTERNICH.can_pick_up(state, "t6", 2)  # a disabled column gives one card only


@pytest.mark.ruling("M5")
def test_M5_the_same_position_without_the_space_allows_those_moves():
    state = position(**{**DISABLED, "t3": "KC"})
    assert moves(state) == ["s>t7", "s>w", "t2>t7", "t4>t1", "t5>f1", "t6:2>t2", "w>t2"]


@pytest.mark.ruling("M5")
def test_M5_a_disabled_column_gives_its_top_card_to_a_foundation():
    state = position(**DISABLED)
    same(play(state, "t5>f1"), position(**{**DISABLED, "t5": "", "f1": "AH 2H 3H 4H"}))


@pytest.mark.ruling("M5")
def test_M5_the_leftmost_space_decides():
    both = position(**{**DISABLED, "t8": ""})  # spaces at t3 and t8
    assert not legal(both, "t4>t1")
    right_only = position(**{**DISABLED, "t3": "KC", "t8": "", "t9": "JD"})  # t9..t12 disabled
    assert legal(right_only, "t4>t1") and legal(right_only, "t2>t7")
    assert not legal(right_only, "t4>t9")  # TD onto JD: t9 is disabled
    assert legal(position(**{**DISABLED, "t3": "KC", "t8": "", "t7": "JD"}), "t4>t7")


@pytest.mark.ruling("M5")
def test_M5_an_empty_first_column_disables_every_other_column():
    state = position(t1="", t2="KH 5H", t3="QS 4H", t4="5S", t5="6S", s="4S", w="8S 3S")
    assert moves(state) == ["s>w", "t3>f1", "w>f3"]
    assert not legal(state, "t4>t5") and not legal(state, "s>t4") and not legal(state, "w>t4")


# -- M6 one redeal ---------------------------------------------------------------------
@pytest.mark.ruling("M6")
def test_M6_redeal_turns_the_waste_over_first_discard_drawn_first():
    state = position(s="", w="3C 9D 4S")
    assert legal(state, "redeal") and METTERNICH.special_moves(state) == [parse_move("redeal")]
    after = play(state, "redeal")
    same(after, position(0, s="4s 9d 3C", w=""))
    after = play(after, "s>w")
    same(after, position(0, s="4s 9D", w="3C"))


@pytest.mark.ruling("M6")
def test_M6_redeal_only_when_the_stock_is_empty():
    state = position(s="5C", w="3C 9D 4S")
    assert not legal(state, "redeal")
    assert METTERNICH.special_moves(state) == [parse_move("s>w")]


@pytest.mark.ruling("M6")
def test_M6_only_one_redeal():
    state = play(position(s="", w="3C 9D"), "redeal")
    state = play(play(state, "s>w"), "s>w")
    same(state, position(0, s="", w="3C 9D"))
    assert not legal(state, "redeal") and METTERNICH.special_moves(state) == []


@pytest.mark.ruling("M6")
def test_M6_redeal_with_an_empty_waste_is_legal_and_uses_the_redeal():
    state = position(s="", w="")
    assert legal(state, "redeal")
    same(play(state, "redeal"), position(0, s="", w=""))


# -- general: winning ----------------------------------------------------------------------
def test_won_when_every_card_is_on_the_foundations():
    def run(suit, high):
        return " ".join(str(Card(rank, suit)) for rank in range(1, high + 1))

    won = board(0, **{f"f{i}": run(s, 13) for i, s in enumerate("CDHSCDHS", start=1)})
    assert METTERNICH.is_won(won) is True
    almost = board(0, w="KS", **{f"f{i}": run(s, 13 if i != 8 else 12)
                                 for i, s in enumerate("CDHSCDHS", start=1)})
    assert METTERNICH.is_won(almost) is False
    same(play(almost, "w>f8"), won)
    assert METTERNICH.is_won(start(METTERNICH, BASE)) is False


# -- smoke: random playouts ------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playout_conserves_cards_and_round_trips(seed):
    deck = Counter(shuffled_deck(METTERNICH, seed))
    state = new_game(METTERNICH, seed)
    rng = SplitMix64(2000 + seed)
    for _ in range(300):
        options = legal_moves(METTERNICH, state)
        if not options:
            break
        state = apply(METTERNICH, state, options[rng.below(len(options))])
        assert Counter(state.cards()) == deck
        assert parse_state(format_state(state)) == state
        check_state(METTERNICH, state)
        assert state["s"].down == max(len(state["s"]) - 1, 0)
    assert state.counters == {"redeals": 0}  # these playouts run the stock out twice
