"""In-game shuffles as RULINGS-000 G6 fixes them, pinned by the vectors of docs/engine.md.

The shuffle seed is derived from the deal's cards (SHA-256), the k-th shuffle
seeds SplitMix64 with ``seed + k * gamma``; a toy game that shuffles its
stock on ``redeal`` shows the counters a state carries and that replaying from
a recorded state shuffles the same.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Sequence

import pytest

from solitaire import engine
from solitaire.cards import ONE_PACK, Card, parse_card
from solitaire.errors import InvalidNotation
from solitaire.moves import Move, parse_move
from solitaire.piles import STOCK, TABLEAU, Layout, numbered, single
from solitaire.rng import GOLDEN_GAMMA, MASK64, deal_shuffle_seed, shuffle_seed_k, shuffled
from solitaire.state import State, format_state, parse_state
from solitaire.variation import SHUFFLE_SEED_OPTION, Variation

DEAL_1_SEED = 0x45A6E1D9E8F97931
SMALL = [parse_card(text) for text in "AC 2C 3C 4C 5C 6C 7C 8C 9C TC".split()]


def cards(text: str) -> list[Card]:
    return [parse_card(token) for token in text.split()]


def texts(items: Sequence[Card]) -> str:
    return " ".join(str(card) for card in items)


def test_derived_seed_of_deal_1():
    deal = engine.shuffled_deck(Toy(), 1)
    assert texts(deal[:10]) == "7D 9C 4D 8H 8D 5S JD 6D 9S JC"
    assert deal_shuffle_seed(deal) == DEAL_1_SEED == 5018947160783812913
    # the definition spelled out: first 8 bytes, big-endian, of SHA-256 of "7D 9C ..."
    digest = hashlib.sha256(texts(deal).encode("ascii")).digest()
    assert deal_shuffle_seed(deal) == int.from_bytes(digest[:8], "big")


def test_seed_of_the_kth_shuffle():
    assert shuffle_seed_k(DEAL_1_SEED, 1) == 0xE3DE5B936843F546
    assert shuffle_seed_k(DEAL_1_SEED, 2) == (DEAL_1_SEED + 2 * GOLDEN_GAMMA) & MASK64
    assert shuffle_seed_k(MASK64, 1) < MASK64  # wraps mod 2**64


def test_shuffle_vectors():
    assert texts(shuffled(SMALL, DEAL_1_SEED, 1)) == "9C 2C 7C 8C 5C 4C 6C 3C TC AC"
    assert texts(shuffled(SMALL, DEAL_1_SEED, 2)) == "7C 5C AC 3C 8C 6C 2C 4C 9C TC"
    assert texts(shuffled(SMALL, 0, 1)) == "9C 8C 7C 6C 4C TC 3C 5C 2C AC"
    assert texts(SMALL) == "AC 2C 3C 4C 5C 6C 7C 8C 9C TC"  # the input is not changed


class Toy(Variation):
    """All cards on t1..t4 by fours, the rest in the stock; ``redeal`` shuffles the stock."""

    name = "toy_shuffle"
    title = "Toy shuffle"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, 4), single(STOCK))
    options = (SHUFFLE_SEED_OPTION,)

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        self.start_shuffles(state, cards)
        for i, pile in enumerate(self.piles(TABLEAU)):
            state.put(pile, cards[4 * i:4 * i + 4])
        state.put("s", cards[16:], face_up=False)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        return False

    def foundation_accepts(self, state, foundation, cards, source) -> bool:
        return False

    def tableau_accepts(self, state, pile, cards, source) -> bool:
        return False

    def space_accepts(self, state, pile, cards, source) -> bool:
        return False

    def special_moves(self, state: State) -> list[Move]:
        return [parse_move("redeal")]

    def apply_special(self, state: State, move: Move) -> None:
        stock = state.take("s", len(state["s"]))
        state.put("s", state.shuffled(stock), face_up=False)

    def is_won(self, state: State) -> bool:
        return False


def test_counters_at_the_deal_and_after_each_shuffle():
    toy = Toy()
    state = engine.new_game(toy, 1)
    assert state.counters == {"shuffle_seed": DEAL_1_SEED, "shuffles": 0}
    stock = list(state["s"].cards)
    once = engine.apply(toy, state, parse_move("redeal"))
    assert once.counters["shuffles"] == 1
    assert list(once["s"].cards) == shuffled(stock, DEAL_1_SEED, 1)
    twice = engine.apply(toy, once, parse_move("redeal"))
    assert twice.counters["shuffles"] == 2
    assert list(twice["s"].cards) == shuffled(shuffled(stock, DEAL_1_SEED, 1), DEAL_1_SEED, 2)
    assert "shuffle_seed=5018947160783812913 shuffles=2" in format_state(twice)


def test_replay_from_a_recorded_state_shuffles_the_same():
    toy = Toy()
    once = engine.apply(toy, engine.new_game(toy, 7), parse_move("redeal"))
    recorded = parse_state(format_state(once))
    move = parse_move("redeal")
    assert engine.apply(toy, recorded, move) == engine.apply(toy, once, move)


def test_option_fixes_the_seed():
    toy = Toy()
    state = engine.new_game(toy, 1, {"shuffle_seed": 12345})
    assert state.counters["shuffle_seed"] == 12345
    state = engine.new_game(toy, 1, {"shuffle_seed": 0})
    assert state.counters["shuffle_seed"] == DEAL_1_SEED


def test_the_same_cards_give_the_same_seed_whatever_the_deal_number():
    toy = Toy()
    deal = engine.shuffled_deck(toy, 3)
    assert engine.start(toy, deal).counters["shuffle_seed"] == deal_shuffle_seed(deal)
    assert engine.start(toy, deal) == engine.new_game(toy, 3)


@pytest.mark.parametrize("text", ["-1", str(MASK64 + 1), "many"])
def test_option_out_of_range_is_one_clear_error(text):
    with pytest.raises(InvalidNotation, match="shuffle_seed cannot be"):
        Toy().resolve_options({"shuffle_seed": text})
    assert Toy().resolve_options({"shuffle_seed": str(MASK64)}) == {"shuffle_seed": MASK64}


def test_the_command_line_names_the_bounds_and_refuses_others_in_one_line():
    env = dict(os.environ, COLUMNS="200")
    listing = subprocess.run([sys.executable, "-m", "solitaire", "variations"], capture_output=True,
                             text=True, env=env, check=False)
    assert listing.returncode == 0, listing.stderr
    assert f"shuffle_seed=0  (default; allowed: a whole number 0..{MASK64})" in listing.stdout
    command = [sys.executable, "-m", "solitaire", "deal", "trefoil", "--set", "shuffle_seed=-5"]
    refused = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert refused.returncode != 0
    assert refused.stderr.strip().splitlines() == [
        f"solitaire: error: option shuffle_seed cannot be '-5' (allowed: a whole number from 0 to {MASK64})"
    ]
