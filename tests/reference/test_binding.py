"""Binding (seed 000): the deal of BD1/BD2, the selection of BD3 (picks 3, 3, 1 in the
first pass, nothing else legal meanwhile), the open-stack build of BD6, the redeal of
BD7, and the solver's symmetry hint (foundations interchangeable), which must never
change a decided verdict. (The generic safe_foundation_move is no safe hint here: the
foundations have different bases and hold 13 cards each, so which foundation a card
goes to matters; a test like the one below found a won position it called lost.)"""

from scenario import Scenario

from reference.binding import Binding
from solitaire import catalog, shuffled_deck, start
from solitaire.cards import KING, SUITS, Card
from solitaire.piles import Pile
from solitaire.rng import SplitMix64
from solitaire.solver import LOST, UNDECIDED, WON, solve
from solitaire.state import State

V = catalog.load("binding")
S = Scenario(V)
legal, play, moves = S.legal, S.play, S.moves
STACKS = ("t1", "t2", "t3", "t4", "t5")


def test_deal_places_the_stacks_the_base_and_the_first_deal():
    cards = shuffled_deck(V, 5)
    state = start(V, cards)
    assert state["r1"].cards == tuple(cards[:20]) and state["r1"].down == 0
    assert state["r2"].cards == tuple(cards[20:30]) and state["r2"].down == 9
    assert state["f1"].cards == (cards[30],)
    assert [state[t].cards for t in STACKS] == [(c,) for c in cards[31:36]]
    assert state["s"].cards == tuple(reversed(cards[36:])) and state["s"].down == 68
    assert state.counters == {"redeals": 2, "picks": 3}


def test_selection_owes_three_three_one_and_blocks_everything_else():
    state = start(V, shuffled_deck(V, 9))
    assert set(moves(state)) == {f"{t}>f{i}" for t in STACKS for i in range(2, 9)}
    state = play(state, "t1>f2", "t2>f3", "t3>f4")
    assert state.counters["picks"] == 0 and "deal" in moves(state)
    assert not any(legal(state, f"{t}>f5") for t in ("t4", "t5", "r1", "r2"))
    state = play(state, "deal")
    assert state.counters["picks"] == 3 and "deal" not in moves(state)
    assert all(m.split(">")[0].startswith("t") and m.split(">")[1] in ("f5", "f6", "f7", "f8")
               for m in moves(state))
    state = play(state, "t4>f5")  # t4 keeps its first-deal card under the picked one
    assert legal(state, "t4>f6")  # on top of its stack while the selection is pending
    state = play(state, "t4>f6", "t5>f7", "deal")
    assert state.counters["picks"] == 1
    state = play(state, "t1>f8")
    assert state.counters["picks"] == 0 and all(state[f] for f in V.piles("foundation"))


def _position(counters: str, piles: dict[str, str]) -> State:
    used = " ".join(piles.values()).upper().split()
    rest = [str(c) for c in V.deck.pack() * 2]
    for card in used:
        rest.remove(card)
    piles = dict(piles, f8=" ".join([piles.get("f8", "")] + rest).strip())
    return S.build(f"binding\nphase play {counters}", piles)


def test_open_stack_takes_one_rank_lower_without_wrap_and_only_from_a_stack():
    state = _position("picks=0 redeals=2", {"r1": "5H 6D AS", "t1": "KC", "t2": "QS",
                                             "r2": "jd 4H", "f1": "9C"})
    assert not legal(state, "t1>r1") and not legal(state, "t2>r1")  # no wrap: nothing on an ace
    state = _position("picks=0 redeals=2", {"r1": "5H 6D", "t1": "5C", "t2": "7S", "r2": "jd 5D",
                                             "f1": "9C"})
    assert legal(state, "t1>r1") and not legal(state, "t2>r1") and not legal(state, "r2>r1")
    assert not legal(state, "t1>t2") and not legal(state, "t1>r2")


def test_redeal_gathers_t1_first_bottom_to_top_and_deals_in_that_order():
    state = _position("picks=0 redeals=1", {"t1": "2C 3C", "t3": "4D", "t5": "5S 6S 7S", "f1": "9C"})
    assert "redeal" in moves(state) and "deal" not in moves(state)
    state = play(state, "redeal")
    assert state.counters["redeals"] == 0
    assert [str(c) for c in reversed(state["s"].cards)] == ["2C", "3C", "4D", "5S", "6S", "7S"]
    state = play(state, "deal")
    assert [str(state.top(t)) for t in STACKS] == ["2C", "3C", "4D", "5S", "6S"]
    state = play(state, "deal")
    assert str(state.top("t1")) == "7S" and not state["s"] and "redeal" not in moves(state)


class NoSymmetry(Binding):
    interchangeable = ()


def near_end(rng: SplitMix64, pulls: int) -> State:
    """A won game (bases 1..8) with ``pulls`` cards taken back, shuffled, and laid onto the
    auxiliary stacks, the open stack (mostly) and the stock; 0, 1 or 2 redeals left."""
    state = V.new_state()
    state.counters.update(picks=0, redeals=rng.below(3))
    for index, foundation in enumerate(V.piles("foundation")):
        suit = (SUITS * 2)[index]  # suits do not matter (BD4); the two packs are all there
        state.put(foundation, [Card((index + step) % KING + 1, suit) for step in range(13)])
    pulled: list[Card] = []
    for _ in range(pulls):
        foundation = V.piles("foundation")[rng.below(8)]
        if len(state[foundation]) > 1:
            pulled += state.take(foundation)
    rng.shuffle(pulled)  # out of order: the open stack may bury what is needed first
    targets = ["s", "r1", "r1", "r1", *STACKS]
    for card in pulled:
        state.put(targets[rng.below(len(targets))], [card])
    state.set_pile("s", Pile(state["s"].cards, len(state["s"])))
    return state


def test_hint_never_changes_a_decided_verdict():
    rng = SplitMix64(77)
    hinted, plain = Binding(), NoSymmetry()
    outcomes = {WON: 0, LOST: 0}
    for trial in range(20):
        position = near_end(rng, 10 + trial)
        without = solve(plain, position, budget=20_000).outcome
        if without != UNDECIDED:
            assert solve(hinted, position, budget=20_000).outcome == without, f"trial {trial}:\n{position}"
            outcomes[without] += 1
    assert outcomes[WON] and outcomes[LOST]
