"""The realistic-bug catalogs of Napoleon's Square, Metternich and Bismarck (grader/bugs).

Every bug must apply exactly once inside its method's solution region, import, and be
really wrong: somewhere, through the rule contract, it answers differently from the
reference. Where that is looked for is the same for every bug of a variation, in a
fixed order: a few hand-built positions (for triggers that random play seldom
reaches), the start states of the hidden traces with short seeded walks from them, and
seeded deals (the engine's own PRNG) walked on. At each position the answers compared
are the legal moves, is_won, the state after each legal move, and direct calls of
``can_pick_up`` and the accept methods for the top cards of every pile onto every target.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from grader import bugs
from grader.mutants import reference_source
from grader.traces.build import ROOT, hidden_traces, option_sets, reference_variation
from solitaire import engine
from solitaire.cards import Card, parse_card
from solitaire.moves import MOVE, parse_move
from solitaire.piles import FOUNDATION
from solitaire.rng import SplitMix64
from solitaire.state import State, format_state, parse_state
from solitaire.traces import state_text
from solitaire.variation import RULE_METHODS, Variation

VARIATIONS = ("napoleons_square", "metternich", "bismarck")
SEEDS = (1, 2, 3)
WALK = 30  # moves walked from each seeded deal
TRACE_WALK = 4  # moves walked from each hidden trace's start state

Event = tuple[str, Any]  # ("deal", (cards, options)) or ("at", state)


def _pack(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines()) + "\n"


# Positions for triggers random play does not reach in a few dozen moves. Each is a
# legal position of its game (every card once), written in state notation.
HAND_BUILT: dict[str, list[str]] = {
    # the tableau cleared, 52 cards still in the stock and the waste: not won
    "napoleons_square": [_pack("""
        napoleons_square
        phase play rounds=4
        t1:
        t2:
        t3:
        t4:
        t5:
        t6:
        t7:
        t8:
        t9:
        t10:
        t11:
        t12:
        f1: AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC
        f2: AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD
        f3: AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH
        f4: AS 2S 3S 4S 5S 6S 7S 8S 9S
        f5: AC
        f6: AD
        f7: AH
        f8: AS
        s: ts js qs ks 2d 3d 4d 5d 6d 7d 8d 9d td jd qd kd 2s 3s 4s 5s 6s 7s 8s 9s ts js qs KS
        w: 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH
        """)],
    # 52 cards on the foundations, stock and waste empty, the redeal unused: not won,
    # and redeal is legal (M6: an empty waste does not forbid it)
    "metternich": [_pack("""
        metternich kings_rule=true
        phase play redeals=1
        t1: QC 6D TC KH 5S
        t2: 2H JS JH QS KS
        t3: TS KD 2S 7H 3H
        t4: 6H 5D 9D 2D 8D
        t5: 7D 5C 3C AH
        t6: KC 9H 6C 9C
        t7: AD 7S QH AC
        t8: TH 7C QD 4S
        t9: 5H JD 8C JC
        t10: 4C 8S 3D 4H
        t11: 2C 8H 3S 6S
        t12: TD 9S 4D AS
        f1: AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC
        f2: AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD
        f3: AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH
        f4: AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS
        f5:
        f6:
        f7:
        f8:
        s:
        w:
        """)],
    # the rows cleared, three cards in the free cells: not won
    "bismarck": [_pack("""
        bismarck same_suit=false
        phase play
        t1:
        t2:
        t3:
        t4:
        t5:
        t6:
        t7:
        t8:
        f1: 7D 8D 9D TD JD QD KD AD 2D 3D 4D 5D 6D
        f2: 7H 8H 9H TH JH QH KH AH 2H 3H 4H 5H
        f3: 7C 8C 9C TC JC QC KC AC 2C 3C 4C 5C
        f4: 7S 8S 9S TS JS QS KS AS 2S 3S 4S 5S
        c1: 6H
        c2: 6C
        c3: 6S
        """)],
}


def _safe(call: Callable[..., Any], *args: Any) -> Any:
    """The answer of ``call(*args)``, or the name of what it raised (a difference too)."""
    try:
        return call(*args)
    except Exception as error:  # noqa: BLE001 - a bug that raises answers differently
        return f"raised {type(error).__name__}"


def _answers(variation: Variation, event: Event) -> Iterator[tuple[str, Any]]:
    """(question, answer) pairs of ``variation`` at ``event``, in a fixed order."""
    kind, what = event
    if kind == "deal":
        cards, options = what
        yield "deal", _safe(lambda: format_state(engine.start(variation, cards, options)))
        return
    state: State = what.copy()  # a bug may change what it is given
    moves = _safe(lambda: sorted(str(m) for m in engine.legal_moves(variation, state)))
    yield "legal moves", moves
    yield "is_won", _safe(variation.is_won, state)
    for text in moves if isinstance(moves, list) else ():
        yield f"after {text}", _safe(_after, variation, state, text)
    for source, pile in state.piles.items():
        up = len(pile.cards) - pile.down
        for count in sorted({1, 2, up} & set(range(1, up + 1))):
            yield f"can_pick_up {source} {count}", _safe(variation.can_pick_up, state, source, count)
            if variation.kind(source) == FOUNDATION:
                continue  # nothing is ever asked about a foundation's cards but whether they move
            cards = pile.cards[len(pile.cards) - count:]
            for spec in variation.layout.piles:
                target = spec.name
                size = len(state[target].cards)
                if target == source or not spec.is_target or (
                        spec.capacity is not None and size + count > spec.capacity):
                    continue
                method = ("foundation_accepts" if spec.kind == FOUNDATION
                          else "tableau_accepts" if size else "space_accepts")
                ask = getattr(variation, method)
                yield f"{method} {target} {cards} {source}", _safe(ask, state, target, cards, source)


def _after(variation: Variation, state: State, move: str) -> str:
    return format_state(engine.apply_unchecked(variation, state, parse_move(move)))


def _walk(variation: Variation, state: State, seed: int, moves: int) -> list[Event]:
    """The positions of a seeded walk: a foundation move half the time when there is one."""
    rng = SplitMix64(seed)
    events: list[Event] = []
    for _ in range(moves):
        events.append(("at", state))
        legal = engine.legal_moves(variation, state)
        if not legal:
            break
        up = [m for m in legal if m.kind == MOVE and variation.kind(m.target) == FOUNDATION]
        choices = up if up and rng.below(2) else legal
        state = engine.apply_unchecked(variation, state, choices[rng.below(len(choices))])
    return events


@functools.cache
def _script(name: str) -> tuple[list[Event], list[list[tuple[str, Any]]]]:
    """The events of ``name`` and the reference's answers at each."""
    reference = reference_variation(name)
    events: list[Event] = [("at", parse_state(text)) for text in HAND_BUILT.get(name, ())]
    for number, trace in enumerate(hidden_traces(name)):
        start = trace["start"]
        if "cards" in start:
            events.append(("deal", ([parse_card(c) for c in start["cards"]], trace["options"])))
        events += _walk(reference, parse_state(state_text(start["state"])), number, TRACE_WALK)
    for options in option_sets(reference):
        for seed in SEEDS:
            cards: list[Card] = engine.shuffled_deck(reference, seed)
            events.append(("deal", (cards, options)))
            events += _walk(reference, engine.start(reference, cards, options), seed, WALK)
    return events, [list(_answers(reference, event)) for event in events]


def first_difference(variation: Variation, name: str) -> str | None:
    """Where ``variation`` first answers differently from the reference, or None."""
    events, expected = _script(name)
    for index, (event, answers) in enumerate(zip(events, expected, strict=True)):
        for (question, want), (_, got) in zip(answers, _answers(variation, event), strict=True):
            if want != got:
                return f"event {index} ({event[0]}): {question}: reference {want!r}, bug {got!r}"
    return None


def _all_bugs() -> list[bugs.Bug]:
    return [bug for name in VARIATIONS for bug in bugs.load(name)]


# -- the catalogs -----------------------------------------------------------------
@pytest.mark.parametrize("name", VARIATIONS)
def test_catalog_covers_every_rule_method_and_applies(name):
    catalog = bugs.load(name)
    assert len(catalog) >= 15
    assert name in bugs.variations()
    _, text = reference_source(name)
    reference = reference_variation(name)
    implemented = {m for m in RULE_METHODS if m in type(reference).__dict__}
    assert {bug.method for bug in catalog} == implemented
    rules = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    assert {bug.ruling for bug in catalog} <= set(re.findall(r"^- \*\*([A-Z][0-9]+)\*\*", rules, re.M))
    changes = set()
    for bug in catalog:
        assert "\n" not in bug.description and bug.ruling
        patched = bug.source(text)  # raises unless once and inside the method's region
        assert patched != text
        changes.add(patched)
        variation = bugs.instantiate(bug)
        assert type(variation).__name__ == type(reference).__name__
        assert type(variation) is not type(reference)
    assert len(changes) == len(catalog), "two bugs make the same change"


@pytest.mark.parametrize("name", VARIATIONS)
def test_the_comparison_finds_no_difference_in_the_reference(name):
    # a fresh reference instance must agree everywhere: differences come from the bugs
    assert first_difference(reference_variation(name), name) is None


def test_an_equivalent_rewrite_is_not_taken_for_a_bug():
    rewrite = bugs.Bug("bismarck", "same", "is_won", "B3", "a rewrite that changes nothing",
                       "return all(len(state[f]) == SUIT_LENGTH for f in self.piles(FOUNDATION))",
                       "return sum(len(state[f]) for f in self.piles(FOUNDATION)) == 4 * SUIT_LENGTH")
    assert first_difference(bugs.instantiate(rewrite), "bismarck") is None


@pytest.mark.parametrize("bug", _all_bugs(), ids=lambda bug: f"{bug.variation}:{bug.id}")
def test_bug_is_really_wrong(bug):
    assert first_difference(bugs.instantiate(bug), bug.variation) is not None


# -- the loader -------------------------------------------------------------------
ENTRY = '''
[[bug]]
id = "{id}"
method = "{method}"
ruling = "N5"
description = "one line"
find = "{find}"
replace = "return False"
'''
GOOD = {"id": "a", "method": "is_won", "find": "return sum(len(state[f])"}


def _catalog(tmp_path, monkeypatch, *entries: dict[str, str]) -> None:
    monkeypatch.setattr(bugs, "HERE", tmp_path)
    text = "".join(ENTRY.format(**entry) for entry in entries)
    (tmp_path / "napoleons_square.toml").write_text(text, encoding="utf-8")


def test_loader_reads_a_good_entry(tmp_path, monkeypatch):
    _catalog(tmp_path, monkeypatch, GOOD)
    (bug,) = bugs.load("napoleons_square")
    assert (bug.variation, bug.id, bug.method, bug.ruling) == ("napoleons_square", "a", "is_won", "N5")
    assert bugs.variations() == ["napoleons_square"]


@pytest.mark.parametrize(("entries", "message"), [
    ([{**GOOD, "id": "a"}, {**GOOD, "id": "a"}], "bug 'a': duplicate id"),
    ([{**GOOD, "method": "is_lost"}], "bug 'a': unknown method 'is_lost'"),
    ([{**GOOD, "id": "Bad Id"}], "bug 'Bad Id': id must be"),
])
def test_loader_names_file_and_bug_of_a_malformed_entry(tmp_path, monkeypatch, entries, message):
    _catalog(tmp_path, monkeypatch, *entries)
    with pytest.raises(bugs.BugError, match=f"napoleons_square.toml: {message}"):
        bugs.load("napoleons_square")


def test_loader_names_a_missing_key(tmp_path, monkeypatch):
    monkeypatch.setattr(bugs, "HERE", tmp_path)
    (tmp_path / "napoleons_square.toml").write_text('[[bug]]\nid = "b"\nmethod = "deal"\n', encoding="utf-8")
    with pytest.raises(bugs.BugError, match=r"napoleons_square.toml: bug 'b': missing or empty \['ruling'"):
        bugs.load("napoleons_square")


@pytest.mark.parametrize(("change", "message"), [
    ({"find": "state"}, "occurs [0-9]+ times"),  # many times
    ({"find": "no such text"}, "occurs 0 times"),
    ({"method": "deal"}, "not inside the solution region of deal"),  # is_won's text, said to be deal's
    ({"find": "the game is won when all 104"}, "not inside the solution region"),  # a docstring
])
def test_a_bug_that_does_not_fit_the_reference_is_refused(change, message):
    bug = bugs.Bug("napoleons_square", "x", "is_won", "N5", "d", GOOD["find"], "0 * sum(len(state[f])")
    _, text = reference_source("napoleons_square")
    assert "0 * sum" in bug.source(text)
    with pytest.raises(bugs.BugError, match=message):
        bugs.Bug(**{**bug.__dict__, **change}).source(text)
