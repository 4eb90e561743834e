"""Golden deals and perft counts, compared against the data files in tests/data/.

The data files are written by ``scripts/make_golden.py``; a failure here means
a deal or the move generation of a variation changed. If the change is
deliberate, regenerate the files and review the diff.

The shuffle itself is pinned below independently of every variation, so that
a change of the PRNG or of Fisher-Yates is caught even if all data files were
regenerated.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from solitaire import catalog, engine
from solitaire.cards import ONE_PACK, TWO_PACKS, TWO_SEPARATE_PACKS, Deck
from solitaire.moves import parse_move
from solitaire.state import format_state, parse_state
from solitaire.variation import Variation

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def _load_script():
    spec = importlib.util.spec_from_file_location("make_golden", ROOT / "scripts" / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_golden = _load_script()
VARIATIONS = catalog.reference_names()


def load_variation(name: str) -> Variation:
    try:
        return catalog.load(name)
    except ModuleNotFoundError as error:  # a reference module still being written
        pytest.skip(f"reference module of {name} not available: {error}")


# -- the shuffle, pinned independently of the variations --------------------------------
def _deck_only(deck: Deck) -> SimpleNamespace:
    """What shuffled_deck reads of a variation: its deck."""
    return SimpleNamespace(deck=deck)


def _first_cards(deck: Deck, seed: int, start: int = 0) -> str:
    holder = _deck_only(deck)
    return " ".join(str(card) for card in engine.shuffled_deck(holder, seed)[start:start + 10])


PINNED_SHUFFLES = [
    (ONE_PACK, 1, 0, "7D 9C 4D 8H 8D 5S JD 6D 9S JC"),
    (ONE_PACK, 2, 0, "QH 3S 4C 5H 7H 2D KH TD AC 6C"),
    (ONE_PACK, 3, 0, "AD 3D 7S QS 9S 2C 5S AH 3H JC"),
    (TWO_PACKS, 1, 0, "6H 7H JC 8C KS 7D 6S 8C 6C 9C"),
    (TWO_PACKS, 2, 0, "TD AH 6H JS 2D QS 5H 3D 7C AC"),
    (TWO_PACKS, 3, 0, "8C QS 4D JC 7C TS 4S AD JS 9H"),
    # two separate packs: the first is shuffled like one pack, the second continues the generator
    (TWO_SEPARATE_PACKS, 1, 0, "7D 9C 4D 8H 8D 5S JD 6D 9S JC"),
    (TWO_SEPARATE_PACKS, 1, 52, "QD 8S 5C TH 5H 7H AD 6S 9D 2H"),
    (TWO_SEPARATE_PACKS, 2, 52, "KS QH 8H 7D AC 4S KH 2D AH 8D"),
    (TWO_SEPARATE_PACKS, 3, 52, "7D 5S KC AD QD 6S 2S QC AC 6D"),
]


@pytest.mark.parametrize(("deck", "seed", "start", "expected"), PINNED_SHUFFLES)
def test_shuffled_deck_is_pinned(deck, seed, start, expected):
    assert _first_cards(deck, seed, start) == expected


def test_shuffled_decks_are_permutations_of_the_deck():
    for deck in (ONE_PACK, TWO_PACKS, TWO_SEPARATE_PACKS):
        cards = engine.shuffled_deck(_deck_only(deck), 7)
        assert sorted(cards) == sorted(deck.pack() * deck.packs)
        if deck.separate:
            assert sorted(cards[:52]) == sorted(deck.pack())


# -- golden deals ---------------------------------------------------------------------
@pytest.mark.parametrize("name", VARIATIONS)
def test_golden_deals(name):
    variation = load_variation(name)
    path = DATA / "golden" / f"{name}.txt"
    assert path.is_file(), f"missing {path}: run scripts/make_golden.py"
    sections = make_golden.parse_golden(path.read_text(encoding="utf-8"))
    pinned = make_golden.golden_sections(variation)
    assert list(sections) == [make_golden.describe(seed, opts) for seed, opts in pinned]
    for seed, options in make_golden.golden_sections(variation):
        title = make_golden.describe(seed, options)
        dealt = format_state(engine.new_game(variation, seed, options))
        assert dealt == sections[title], f"{name} {title}: the deal changed"
        assert parse_state(sections[title]) == engine.new_game(variation, seed, options)


def test_golden_deals_differ_between_seeds():
    for name in VARIATIONS:
        path = DATA / "golden" / f"{name}.txt"
        if path.is_file():
            sections = make_golden.parse_golden(path.read_text(encoding="utf-8"))
            states = [sections[f"seed {seed}"] for seed in make_golden.GOLDEN_SEEDS]
            assert len(set(states)) == len(states), name


# -- perft --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", VARIATIONS)
def test_perft_counts(name):
    variation = load_variation(name)
    path = DATA / "perft" / f"{name}.json"
    assert path.is_file(), f"missing {path}: run scripts/make_golden.py"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["variation"] == name
    depth = data["depth"]
    assert data["positions"], "no pinned positions"
    for position in data["positions"]:
        label = f"{name} {position['label']}"
        state = engine.new_game(variation, position["seed"], position["options"])
        for text in position["moves"]:
            state = engine.apply(variation, state, parse_move(text))
        assert format_state(state) == position["state"], f"{label}: the position changed"
        counts = [make_golden.perft(variation, state, d) for d in range(1, depth + 1)]
        if counts != position["counts"]:
            divide = make_golden.divide(variation, state, depth)
            changed = {
                move: (position["divide"].get(move), divide.get(move))
                for move in sorted(set(divide) | set(position["divide"]))
                if divide.get(move) != position["divide"].get(move)
            }
            pytest.fail(f"{label}: perft {counts} != {position['counts']}; (pinned, now) by move: {changed}")
        assert sum(position["divide"].values()) == position["counts"][-1]


def test_perft_counts_a_known_tree():
    """perft itself: depth 0 is one sequence; depth 1 is the number of legal moves."""
    variation = catalog.load("scorpion")
    state = engine.new_game(variation, 1)
    assert make_golden.perft(variation, state, 0) == 1
    assert make_golden.perft(variation, state, 1) == len(engine.legal_moves(variation, state))
    by_hand = sum(
        len(engine.legal_moves(variation, engine.apply_unchecked(variation, state, m)))
        for m in engine.legal_moves(variation, state)
    )
    assert make_golden.perft(variation, state, 2) == by_hand
