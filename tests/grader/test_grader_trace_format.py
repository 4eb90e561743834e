"""The trace format: the validator accepts real traces and rejects malformed ones clearly."""

import copy
import json

import pytest

from solitaire.replay import planned
from solitaire.traces import FORMAT, TraceError, dumps, load, state_text, validate


@pytest.fixture(scope="module")
def good(traces_of):
    """A small real trace with a deal, probes, moves, an action and a won check."""
    for trace in traces_of("scorpion"):
        steps = trace["steps"]
        dealt = "cards" in trace["start"]
        if dealt and any(s.get("action") for s in steps) and any("moves" in s for s in steps):
            return trace
    raise AssertionError("no suitable scorpion trace")


def broken(trace, change):
    bad = copy.deepcopy(trace)
    change(bad)
    return bad


def first(trace, key):
    return next(i for i, step in enumerate(trace["steps"]) if key in step)


def test_committed_traces_are_valid(traces_of, good):
    validate(good, "good")
    assert good["format"] == FORMAT
    assert planned(good)["deal"] == 1


def test_dumps_round_trips_and_is_stable(good, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(dumps(good), encoding="utf-8")
    assert load(path) == good
    assert dumps(load(path)) == dumps(good)


CASES = [
    ("wrong format", lambda t: t.update(format=2), "format: 1 was expected"),
    ("no steps", lambda t: t.pop("steps"), "'steps' is a required property"),
    ("unknown key", lambda t: t.update(extra=1), "Additional properties"),
    ("bad card", lambda t: t["start"]["cards"].__setitem__(0, "1S"), "start, cards, 0"),
    ("bad move", lambda t: t["steps"][0].update(move="t3>>t4"), "step 0: not a move"),
    ("non-canonical move", lambda t: t["steps"][0].update(move="t3:1>t4", action=False, legal=False,
                                                           categories=["can_pick_up"]),
     "not in canonical notation"),
    ("bad category", lambda t: t["steps"][0].update(categories=["deal_cards"]), "step 0, categories, 0"),
    ("state of another game", lambda t: t["start"].update(state=["indian", "phase play", "t1:"]),
     "start: state of 'indian', trace of 'scorpion'"),
    ("unparsable state", lambda t: t["start"].update(state=["scorpion moves=runs", "phaze play"]),
     "start: not a canonical state"),
]


@pytest.mark.parametrize("label,change,message", CASES, ids=[c[0] for c in CASES])
def test_validator_rejects_with_a_clear_message(good, label, change, message):
    with pytest.raises(TraceError) as error:
        validate(broken(good, change), "traces/x.json")
    assert str(error.value).startswith("traces/x.json: ")
    assert message in str(error.value)


def test_categories_must_match_the_checks(good):
    index = first(good, "probes")
    method = good["steps"][index]["probes"][0]["method"]

    def drop(t):
        t["steps"][index]["categories"] = [c for c in t["steps"][index]["categories"] if c != method]

    with pytest.raises(TraceError, match=rf"step {index}: categories .* do not match"):
        validate(broken(good, drop), "x")


def test_probe_arguments_are_checked(good):
    index = first(good, "probes")

    def bad_args(t):
        t["steps"][index]["probes"][0] = {"method": "can_pick_up", "args": ["t1"], "expect": True}

    with pytest.raises(TraceError, match=rf"step {index}, probe 0: can_pick_up: arguments must be"):
        validate(broken(good, bad_args), "x")

    def bad_expect(t):
        t["steps"][index]["probes"][0] = {"method": "special_moves", "args": [], "expect": ["t1>t2", "deal"]}

    with pytest.raises(TraceError, match="sorted list"):
        validate(broken(good, bad_expect), "x")


def test_a_legal_move_needs_its_state(good):
    index = next(i for i, s in enumerate(good["steps"]) if s.get("legal"))
    with pytest.raises(TraceError, match=rf"step {index}: a legal move needs 'state'"):
        validate(broken(good, lambda t: t["steps"][index].pop("state")), "x")


def test_moves_need_pickups(good):
    index = first(good, "moves")
    with pytest.raises(TraceError, match="'moves' and 'pickups' go together"):
        validate(broken(good, lambda t: t["steps"][index].pop("pickups")), "x")


def test_load_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(TraceError, match="broken.json: not JSON"):
        load(path)
    path.write_text(json.dumps({"format": 1}), encoding="utf-8")
    with pytest.raises(TraceError, match="broken.json: top level: 'variation' is a required property"):
        load(path)


def test_state_lines_join_to_canonical_text(good):
    assert state_text(good["start"]["state"]).endswith("\n")
    assert state_text(good["start"]["state"]).splitlines() == good["start"]["state"]
