"""Self-checks of the independent Binding module (tests/independent/binding.py), before the
differential test compares it with the reference: deal, selection, closed stack, redeals, win."""

from __future__ import annotations

from pathlib import Path

from solitaire import catalog, engine
from solitaire.cards import Card, parse_card
from solitaire.moves import Move, action, parse_move
from solitaire.piles import FOUNDATION, Pile
from solitaire.rng import SplitMix64
from solitaire.state import State, format_state, parse_state

BINDING = catalog.load_file(Path(__file__).parent / "binding.py")
FOUNDATIONS = BINDING.piles(FOUNDATION)


def moves(state: State) -> list[str]:
    return [str(m) for m in engine.legal_moves(BINDING, state)]


def play(state: State, text: str) -> State:
    return engine.apply(BINDING, state, parse_move(text))


def check_invariants(state: State) -> None:
    assert sorted(state.cards()) == sorted(BINDING.deck.pack() * 2)
    assert state["s"].down == len(state["s"])  # the stock is face down throughout
    assert state["r1"].down == 0
    r2 = state["r2"]
    assert not r2.cards or r2.down == len(r2) - 1  # G7: only the closed stack's top is face up
    for name in ("t1", "t2", "t3", "t4", "t5", *FOUNDATIONS):
        assert state[name].down == 0
    assert set(state.counters) == {"redeals", "picks"}
    assert 0 <= state.counters["redeals"] <= 2 and 0 <= state.counters["picks"] <= 3
    assert parse_state(format_state(state)) == state


def pick(state: State, count: int) -> State:
    """Make ``count`` picks, the leftmost auxiliary top onto the leftmost empty foundation,
    checking that nothing but picks is legal meanwhile."""
    for left in range(count, 0, -1):
        assert state.counters["picks"] == left
        listed = moves(state)
        assert listed and all(m.startswith("t") and ">f" in m for m in listed), listed
        assert all(not state[m.split(">")[1]].cards for m in listed)
        state = play(state, listed[0])
        check_invariants(state)
    assert state.counters["picks"] == 0
    return state


def test_the_deal_follows_bd1_and_bd2() -> None:
    cards = engine.shuffled_deck(BINDING, 7)
    state = engine.start(BINDING, cards)
    assert state["r1"] == Pile(cards[:20])
    assert state["r2"] == Pile(cards[20:30], 9)
    assert state["f1"] == Pile([cards[30]])
    assert [state[f"t{i}"].cards for i in range(1, 6)] == [(c,) for c in cards[31:36]]
    assert state["s"] == Pile(list(reversed(cards[36:])), 68)
    assert state.counters == {"redeals": 2, "picks": 3}
    assert state.phase == "play"
    check_invariants(state)


def test_selection_takes_three_three_one_then_play_opens() -> None:
    state = engine.new_game(BINDING, 3)
    assert "deal" not in moves(state)
    state = pick(state, 3)
    assert "deal" in moves(state)
    state = play(state, "deal")
    assert state.counters["picks"] == 3 and moves(state)
    state = pick(state, 3)
    state = play(state, "deal")
    assert state.counters["picks"] == 1
    state = pick(state, 1)
    assert all(state[f].cards for f in FOUNDATIONS)
    state = play(state, "deal")  # the 4th deal owes nothing
    assert state.counters["picks"] == 0
    assert all(not (m.startswith("t") and state[m.split(">")[1]].cards == ()) for m in moves(state))


def test_no_foundation_starts_outside_the_selection() -> None:
    state = pick(engine.new_game(BINDING, 5), 3)
    empty = [f for f in FOUNDATIONS if not state[f].cards]
    assert len(empty) == 4
    assert all(not m.endswith(f">{f}") for m in moves(state) for f in empty)


def test_closed_stack_turns_up_its_new_top() -> None:
    text = (
        "binding\nphase play picks=0 redeals=2\ns: ac\nf1: 4D\nf2: 9C\nf3:\nf4:\nf5:\nf6:\nf7:\nf8:\n"
        "t1: 5S\nt2:\nt3:\nt4:\nt5:\nr1: 6H\nr2: kc 2h TC\n"
    )
    state = parse_state(text)
    assert set(moves(state)) == {"t1>f1", "t1>r1", "r2>f2", "deal"}
    after = play(state, "r2>f2")
    assert after["r2"] == Pile([Card(13, "C"), Card(2, "H")], 1)


def test_open_stack_takes_one_lower_from_an_auxiliary_stack_only() -> None:
    text = (
        "binding\nphase play picks=0 redeals=0\ns:\nf1: QD\nf2:\nf3:\nf4:\nf5:\nf6:\nf7:\nf8:\n"
        "t1: KS\nt2: 2C\nt3: AH\nt4:\nt5:\nr1: 2D\nr2: AS\n"
    )
    state = parse_state(text)
    # t1 KS to f1 (Q then K); t3 AH onto r1 (2D); r2's ace not onto r1; a king not onto an ace
    assert sorted(moves(state)) == ["t1>f1", "t3>r1"]
    state = play(state, "t3>r1")
    assert "t1>r1" not in moves(state) and state.top("r1") == parse_card("AH")


def test_redeal_gathers_the_auxiliary_stacks_in_order() -> None:
    text = (
        "binding\nphase play picks=0 redeals=2\ns:\nf1: 4D\nf2: 9C\nf3:\nf4:\nf5:\nf6:\nf7:\nf8:\n"
        "t1: 5S 6S\nt2:\nt3: 7H\nt4: 8H 9H TH\nt5:\nr1: 6H\nr2: kc 2h TC\n"
    )
    state = parse_state(text)
    assert "redeal" in moves(state) and "deal" not in moves(state)
    after = play(state, "redeal")
    assert after["s"] == Pile([parse_card(c) for c in "TH 9H 8H 7H 6S 5S".split()], 6)
    assert after.counters == {"redeals": 1, "picks": 0}
    after = play(after, "deal")
    assert [after.top(f"t{i}") for i in range(1, 6)] == [parse_card(c) for c in "5S 6S 7H 8H 9H".split()]
    assert after.counters["picks"] == 0  # no selection after the first pass


def test_random_playouts_use_both_redeals() -> None:
    redeals_seen = 0
    for seed in range(3):
        state = engine.new_game(BINDING, seed)
        rng = SplitMix64(seed)
        for _ in range(400):
            check_invariants(state)
            listed = engine.legal_moves(BINDING, state)
            if not listed:
                break
            # play cards to foundations first, then deal, so that passes go by
            home = [m for m in listed if m.kind == "move" and m.target.startswith("f")]
            move: Move = home[rng.below(len(home))] if home else listed[-1]
            if move == action("redeal"):
                redeals_seen += 1
            state = engine.apply(BINDING, state, move)
        assert state.counters["redeals"] == 0 and not state["s"].cards
        assert not engine.legal_moves(BINDING, state) or engine.is_won(BINDING, state)
    assert redeals_seen == 6


def test_a_constructed_position_is_won_in_two_moves() -> None:
    ranks = "A23456789TJQK"
    runs = [" ".join(r + s for r in ranks) for s in "CDHS" for _ in range(2)]
    runs[0] = runs[0][:-3]          # clubs A..Q: KC still out
    runs[7] = runs[7][:-6]          # spades A..J: QS, KS still out
    lines = "\n".join(f"f{i + 1}: {run}" for i, run in enumerate(runs))
    text = (f"binding\nphase play picks=0 redeals=1\ns:\n{lines}\n"
            "t1: KS KC\nt2:\nt3:\nt4:\nt5: QS\nr1:\nr2:\n")
    state = parse_state(text)
    assert not engine.is_won(BINDING, state)
    for move in ("t1>f1", "t5>f8", "t1>f8"):
        assert move in moves(state), (move, moves(state))
        state = play(state, move)
    assert engine.is_won(BINDING, state)


def test_a_pick_may_take_a_card_the_selection_exposed() -> None:
    """The gap of the module docstring: the state cannot tell a just-dealt card from one a pick
    exposed under it, so any auxiliary top may be picked while picks are owed."""
    state = engine.new_game(BINDING, 11)
    for move in ("t1>f2", "t2>f3", "t3>f4", "deal"):  # t4 and t5 keep their deal-1 cards
        state = play(state, move)
    assert len(state["t4"]) == 2 and state.counters["picks"] == 3
    older = state["t4"].cards[0]
    state = play(state, "t4>f5")
    assert state.top("t4") == older
    assert "t4>f6" in moves(state)


def test_the_first_pass_is_fifteen_deals_the_last_of_three_cards() -> None:
    state = engine.new_game(BINDING, 4)
    deals = 1
    while state["s"].cards:
        if state.counters["picks"]:
            state = pick(state, state.counters["picks"])
            continue
        before = [len(state[f"t{i}"]) for i in range(1, 6)]
        state = play(state, "deal")
        deals += 1
        grew = [len(state[f"t{i}"]) - before[i - 1] for i in range(1, 6)]
    assert deals == 15 and grew == [1, 1, 1, 0, 0]
    assert moves(state)[-1] == "redeal" and "deal" not in moves(state)


def test_a_foundation_wraps_and_stops_at_thirteen_cards() -> None:
    full = "5C 6C 7C 8C 9C TC JC QC KC AC 2C 3C 4C"
    text = (
        f"binding\nphase play picks=0 redeals=0\ns:\nf1: {full}\nf2: JH QH KH\nf3: 8D\nf4: 4S\n"
        "f5: 2S\nf6: 2S\nf7: 3S\nf8: 6D\nt1: 5H\nt2: AH\nt3:\nt4:\nt5:\nr1:\nr2:\n"
    )
    state = parse_state(text)
    # 5H goes on the fours (f4) and on f1's 4C only while f1 holds fewer than 13 cards
    assert sorted(moves(state)) == ["t1>f4", "t2>f2"]
