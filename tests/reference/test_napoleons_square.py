"""Scenario tests of the Napoleon's Square reference, one group per ruling (N1..N7, general).

Positions are written in the canonical state notation; each test asserts the
exact verdict on a move and, for a legal move, the exact state after it.
"""

from collections import Counter

import pytest
from scenario import Scenario

from reference.napoleons_square import NapoleonsSquare
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
from solitaire.cards import TWO_PACKS, Card
from solitaire.engine import check_state
from solitaire.rng import SplitMix64

NAPOLEON = NapoleonsSquare()
# Foundations of a mid-game position: each pile bottom first.
FOUNDATIONS = {"f1": "AH 2H 3H", "f2": "AC", "f3": "AS 2S", "f4": "AD", "f5": "AS", "f6": "AH",
               "f7": "AD 2D 3D 4D", "f8": "AC 2C"}


S = Scenario(NAPOLEON)
legal, play, same, moves = S.legal, S.play, S.same, S.moves


def board(phase: str = "play", rounds: int = 4, **piles: str):
    """A position: the named piles hold the given cards (bottom first), the others are empty."""
    return S.build(f"napoleons_square\nphase {phase} rounds={rounds}", piles)


def position(phase: str = "play", rounds: int = 4, **piles: str):
    """``board`` with the mid-game foundations above unless given."""
    return board(phase, rounds, **{**FOUNDATIONS, **piles})


def unshuffled_deck() -> list[Card]:
    """Two packs in base order: AC..KC AD..KD AH..KH AS..KS, twice."""
    return TWO_PACKS.pack() * 2


def suit_run(suit: str, low: int, high: int) -> str:
    """The cards low..high of ``suit`` in state notation, face up."""
    return " ".join(str(Card(rank, suit)) for rank in range(low, high + 1))


# -- N1 aces to the foundations, the rest is the stock --------------------------
@pytest.mark.ruling("N1")
def test_N1_aces_to_f1_f8_in_deck_order_and_the_other_96_are_the_stock():
    state = start(NAPOLEON, unshuffled_deck())
    assert [str(state.top(f)) for f in NAPOLEON.piles("foundation")] == \
        ["AC", "AD", "AH", "AS", "AC", "AD", "AH", "AS"]
    assert all(len(state[f]) == 1 for f in NAPOLEON.piles("foundation"))
    # round 1 took the first 12 non-aces; the stock holds the other 84, next card on top
    stock = state["s"]
    assert len(stock) == 84 and stock.down == 84
    assert str(stock.top) == "2D" and str(stock.cards[0]) == "KS"
    assert len(state["w"]) == 0


@pytest.mark.ruling("N1")
def test_N1_pinned_seed_aces_follow_the_shuffled_deck():
    deck = shuffled_deck(NAPOLEON, 11)
    state = new_game(NAPOLEON, 11)
    aces = [c for c in deck if c.rank == 1]
    others = [c for c in deck if c.rank != 1]
    assert [state.top(f) for f in NAPOLEON.piles("foundation")] == aces
    assert list(reversed(state["s"].cards)) == others[12:]
    assert Counter(state.cards()) == Counter(deck)


# -- N2 four rounds of twelve with pauses ----------------------------------------
@pytest.mark.ruling("N2")
def test_N2_initial_state_is_the_pause_after_round_one():
    state = start(NAPOLEON, unshuffled_deck())
    assert state.phase == "pause" and state.counters == {"rounds": 1}
    assert [str(state.top(t)) for t in NAPOLEON.piles("tableau")] == \
        ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]
    assert all(len(state[t]) == 1 and state[t].down == 0 for t in NAPOLEON.piles("tableau"))


@pytest.mark.ruling("N2")
def test_N2_building_in_a_pause_then_deal_gives_every_pile_a_card_the_empty_one_too():
    state = play(start(NAPOLEON, unshuffled_deck()), "t1>f1")  # 2C onto AC empties t1
    assert state.phase == "pause" and state.is_empty("t1") and str(state.top("f1")) == "2C"
    dealt = play(state, "deal")
    assert dealt.phase == "pause" and dealt.counters == {"rounds": 2}
    tops = ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD"]
    assert [str(dealt.top(t)) for t in NAPOLEON.piles("tableau")] == tops
    assert len(dealt["t1"]) == 1 and all(len(dealt[t]) == 2 for t in NAPOLEON.piles("tableau")[1:])
    assert len(dealt["s"]) == 72 and dealt["s"].down == 72


@pytest.mark.ruling("N2")
def test_N2_exact_state_after_a_deal_in_a_pause():
    state = board("pause", 3, t1="9H", t2="QS", f1="AH", f2="AS",
                  s="kd kc 2c 3c 4c 5c 6c 7c 8c 9c tc jc qc")
    expected = board("play", 4, t1="9H QC", t2="QS JC", t3="TC", t4="9C", t5="8C", t6="7C", t7="6C",
                     t8="5C", t9="4C", t10="3C", t11="2C", t12="KC", f1="AH", f2="AS", s="KD")
    same(play(state, "deal"), expected)


@pytest.mark.ruling("N2")
def test_N2_play_begins_after_the_fourth_round_and_deal_is_no_longer_legal():
    state = start(NAPOLEON, unshuffled_deck())
    for rounds in (2, 3):
        state = play(state, "deal")
        assert state.phase == "pause" and state.counters == {"rounds": rounds}
        assert state["s"].down == len(state["s"])
    state = play(state, "deal")
    assert state.phase == "play" and state.counters == {"rounds": 4}
    assert [str(c) for c in state["t5"].cards] == ["6C", "6D", "6H", "6S"]
    stock = state["s"]
    assert len(stock) == 48 and stock.down == 47 and str(stock.top) == "2C"  # drawn card face up
    assert not legal(state, "deal")
    assert "deal" not in moves(state) and "s>w" in moves(state)


@pytest.mark.ruling("N2")
def test_N2_a_space_may_not_be_filled_during_a_pause():
    state = position("pause", 2, t2="5C KH", t3="QS", s="4d 8d")
    assert not legal(state, "t2>t1")  # a king from the tableau, the space rule's own case
    assert not legal(state, "t3>t1")
    assert legal(position(t2="5C KH", t3="QS", s="4d 8D"), "t2>t1")  # the same move in play


@pytest.mark.ruling("N2")
def test_N2_the_stock_is_not_in_play_during_a_pause():
    state = position("pause", 2, t1="4C", s="4d 3c")  # 3C would fit f8 (2C) and t1 (4C)
    for move in ("s>w", "s>f8", "s>t1", "s>t2"):
        assert not legal(state, move), move
    assert not NAPOLEON.can_pick_up(state, "s", 1)
    shown = position("pause", 2, t1="4C", s="4d 3C")  # even a face-up top card is not picked up
    assert not NAPOLEON.can_pick_up(shown, "s", 1)


@pytest.mark.ruling("N2")
def test_N2_building_and_packing_are_allowed_in_a_pause():
    state = position("pause", 1, t1="9D 4H", t2="7C 3C", t3="KS 4C", s="5d 6d")
    assert moves(state) == ["deal", "t1>f1", "t2>f8", "t2>t3"]
    same(play(state, "t2>t3"), position("pause", 1, t1="9D 4H", t2="7C", t3="KS 4C 3C", s="5d 6d"))
    same(play(state, "t1>f1"),
         position("pause", 1, t1="9D", t2="7C 3C", t3="KS 4C", s="5d 6d", f1="AH 2H 3H 4H"))


@pytest.mark.ruling("N2")
def test_N2_deal_is_refused_once_play_has_begun_even_with_cards_in_the_stock():
    state = position(t1="9D", s="5d 6d 7d 8d 9d td jd qd kd 2c 3c 4C")
    assert not legal(state, "deal") and NAPOLEON.special_moves(state) == [parse_move("s>w")]


# -- N3 the stock in play -------------------------------------------------------
@pytest.mark.ruling("N3")
def test_N3_top_stock_card_to_a_foundation_and_the_next_one_turns_up():
    state = position(t1="9D", s="8c 7d 4H")
    assert legal(state, "s>f1") and not legal(state, "s>f6")  # f6 is AH: 4H is not its next card
    same(play(state, "s>f1"), position(t1="9D", s="8c 7D", f1="AH 2H 3H 4H"))


@pytest.mark.ruling("N3")
def test_N3_top_stock_card_onto_a_tableau_pile_and_into_a_space():
    state = position(t1="9D", t2="QS", s="8c 8D")
    assert legal(state, "s>t1")
    same(play(state, "s>t1"), position(t1="9D 8D", t2="QS", s="8C"))
    assert legal(state, "s>t3")  # any card from the stock fills a space
    same(play(state, "s>t3"), position(t1="9D", t2="QS", t3="8D", s="8C"))


@pytest.mark.ruling("N3")
def test_N3_top_stock_card_wrong_suit_or_rank_is_refused():
    state = position(t1="9D", t2="JC", t3="9H", s="8c 8H", **{"f1": "AH 2H 3H 4H 5H 6H"})
    assert not legal(state, "s>t1")  # 8H onto 9D: same colour, wrong suit
    assert not legal(state, "s>t2")  # 8H onto JC
    assert legal(state, "s>t3")
    assert not legal(state, "s>f1")  # 8H onto 6H skips the 7


@pytest.mark.ruling("N3")
def test_N3_discard_is_always_legal_even_when_the_card_could_be_played():
    state = position(t1="9D", s="kc 5h 8D", w="2S")
    assert legal(state, "s>t1") and legal(state, "s>w")
    same(play(state, "s>w"), position(t1="9D", s="kc 5H", w="2S 8D"))


@pytest.mark.ruling("N3")
def test_N3_discard_is_refused_when_the_stock_is_empty():
    state = position(t1="9D", w="2S 8D")
    assert not legal(state, "s>w") and NAPOLEON.special_moves(state) == []


@pytest.mark.ruling("N3")
def test_N3_cards_below_the_stock_top_are_not_available():
    state = position(t1="9D", s="8d 5C")
    assert not legal(state, "s:2>t1")
    assert not NAPOLEON.can_pick_up(state, "s", 2)


# -- N4 the waste ----------------------------------------------------------------
@pytest.mark.ruling("N4")
def test_N4_top_waste_card_to_a_foundation():
    state = position(t1="9D", s="KC", w="5C 3C")
    assert legal(state, "w>f8")
    same(play(state, "w>f8"), position(t1="9D", s="KC", w="5C", f8="AC 2C 3C"))


@pytest.mark.ruling("N4")
def test_N4_top_waste_card_onto_a_tableau_pile_and_into_a_space():
    state = position(t1="9D", t2="QS", s="KC", w="JS 8D")
    same(play(state, "w>t1"), position(t1="9D 8D", t2="QS", s="KC", w="JS"))
    same(play(state, "w>t3"), position(t1="9D", t2="QS", t3="8D", s="KC", w="JS"))


@pytest.mark.ruling("N4")
def test_N4_only_the_top_waste_card_and_only_where_it_fits():
    state = position(t1="9D", t2="QS", t3="KD", s="KC", w="JS 8D")
    assert not legal(state, "w:2>t2")  # JS lies under 8D
    assert not legal(state, "w>t2")  # 8D onto QS
    assert not legal(state, "w>f7")  # f7 tops at 4D
    assert not legal(state, "w>s")


# -- N5 foundations up in suit, tableau down in suit one card at a time -----------
@pytest.mark.ruling("N5")
def test_N5_foundation_takes_the_next_card_of_its_suit():
    state = position(t1="2H", t2="3S", t3="4H", t4="2S", s="KC")
    assert legal(state, "t1>f6") and legal(state, "t2>f3") and legal(state, "t4>f5")
    same(play(state, "t1>f6"), position(t2="3S", t3="4H", t4="2S", s="KC", f6="AH 2H"))


@pytest.mark.ruling("N5")
def test_N5_foundation_refuses_wrong_suit_and_wrong_rank():
    state = position(t1="2H", t2="4D", t3="3S", t4="5H", s="KC")
    assert not legal(state, "t1>f5")  # 2H onto AS: wrong suit
    assert not legal(state, "t1>f1")  # 2H onto 3H: wrong rank
    assert not legal(state, "t2>f1")  # 4D onto 3H: same colour, wrong suit
    assert not legal(state, "t4>f1")  # 5H onto 3H skips the 4
    assert not legal(state, "t2>f7")  # 4D onto 4D
    assert legal(state, "t3>f3")
    assert legal(board(t1="AD", t2="2D", s="KC"), "t1>f1")  # an empty foundation takes an ace
    assert not legal(board(t1="AD", t2="2D", s="KC"), "t2>f1")


@pytest.mark.ruling("N5")
def test_N5_cards_never_come_back_from_a_foundation():
    state = position(t1="4H", t2="3S", s="KC")  # f1 tops at 3H; 3H onto 4H would fit
    assert not legal(state, "f1>t1") and not legal(state, "f3>t2")
    assert not NAPOLEON.can_pick_up(state, "f1", 1)


@pytest.mark.ruling("N5")
def test_N5_tableau_packs_down_in_suit():
    state = position(t1="8H", t2="KS 7H", t3="7D", t4="9H", t5="6H", s="KC")
    assert legal(state, "t2>t1")
    same(play(state, "t2>t1"), position(t1="8H 7H", t2="KS", t3="7D", t4="9H", t5="6H", s="KC"))
    assert not legal(state, "t3>t1")  # 7D onto 8H: same colour, wrong suit
    assert not legal(state, "t4>t1")  # 9H onto 8H: up, not down
    assert not legal(state, "t5>t1")  # 6H onto 8H: two ranks
    assert not legal(state, "t1>t2")  # 8H onto 7H: up


@pytest.mark.ruling("N5")
def test_N5_one_card_at_a_time_no_runs_and_no_wrap():
    state = position(t1="9S 8S 7S", t2="TS", t3="AH", t4="KH", s="KC")
    assert not legal(state, "t1:2>t2") and not legal(state, "t1:3>t2")
    assert not NAPOLEON.can_pick_up(state, "t1", 2)
    assert not legal(state, "t4>t3")  # a king does not go onto an ace


# -- N6 spaces --------------------------------------------------------------------
@pytest.mark.ruling("N6")
def test_N6_a_space_takes_a_king_from_the_top_of_a_tableau_pile():
    state = position(t1="9D KH", t2="KS", s="5C")
    assert legal(state, "t1>t3")
    same(play(state, "t1>t3"), position(t1="9D", t2="KS", t3="KH", s="5C"))
    assert legal(state, "t2>t3")  # a lone king into another space: pointless but legal


@pytest.mark.ruling("N6")
def test_N6_a_space_refuses_a_non_king_from_the_tableau():
    state = position(t1="9D QH", t2="2C", s="5C")
    assert not legal(state, "t1>t3") and not legal(state, "t2>t3")


@pytest.mark.ruling("N6")
def test_N6_a_space_takes_any_stock_or_waste_card_and_nothing_else():
    state = position(t1="9D QH", s="5c 2D", w="7S")
    assert legal(state, "s>t2") and legal(state, "w>t2")
    assert sorted(m for m in moves(state) if m.endswith(">t2")) == ["s>t2", "w>t2"]
    assert not NAPOLEON.space_accepts(state, "t2", (Card(12, "H"),), "t1")
    assert not NAPOLEON.space_accepts(state, "t2", (Card(3, "H"),), "f1")


@pytest.mark.ruling("N6")
def test_N6_a_space_is_never_filled_by_itself():
    state = position(t1="4H", t2="9C", s="5c 2D", w="7S")
    after = play(state, "t1>f1")
    same(after, position(t2="9C", s="5c 2D", w="7S", f1="AH 2H 3H 4H"))
    assert after.is_empty("t1")


# -- N7 no redeal -------------------------------------------------------------------
@pytest.mark.ruling("N7")
def test_N7_no_redeal_when_the_stock_is_exhausted():
    state = position(t1="9D", w="5C 8S 4S")
    assert not legal(state, "redeal") and not legal(state, "deal") and not legal(state, "s>w")
    assert NAPOLEON.special_moves(state) == []
    listed = moves(state)
    assert "w>t2" in listed  # the waste stays usable (4S into a space) ...
    assert all(m.startswith(("t", "w")) for m in listed)  # ... but no action is left


@pytest.mark.ruling("N7")
def test_N7_discarding_the_last_stock_card_leaves_no_action():
    state = position(t1="9D", s="5C", w="8S")
    after = play(state, "s>w")
    same(after, position(t1="9D", w="8S 5C"))
    assert NAPOLEON.special_moves(after) == [] and not legal(after, "redeal")


# -- general: winning ---------------------------------------------------------------
def test_won_when_every_card_is_on_the_foundations():
    won = board(**{f"f{i}": suit_run(s, 1, 13) for i, s in enumerate("CDHSCDHS", start=1)})
    assert NAPOLEON.is_won(won) is True
    almost = board(w="KS", **{f"f{i}": suit_run(s, 1, 13 if i != 8 else 12)
                              for i, s in enumerate("CDHSCDHS", start=1)})
    assert NAPOLEON.is_won(almost) is False
    same(play(almost, "w>f8"), won)
    assert NAPOLEON.is_won(start(NAPOLEON, unshuffled_deck())) is False


# -- smoke: random playouts ---------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playout_conserves_cards_and_round_trips(seed):
    deck = Counter(shuffled_deck(NAPOLEON, seed))
    state = new_game(NAPOLEON, seed)
    rng = SplitMix64(1000 + seed)
    for _ in range(250):
        options = legal_moves(NAPOLEON, state)
        if not options:
            break
        state = apply(NAPOLEON, state, options[rng.below(len(options))])
        assert Counter(state.cards()) == deck
        assert parse_state(format_state(state)) == state
        check_state(NAPOLEON, state)
        assert state["s"].down >= len(state["s"]) - (1 if state.phase == "play" else 0)
    assert state.phase == "play"
