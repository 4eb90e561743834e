"""The quality gate's parts: mutants, stubs, survivors files; and the traces are current."""

import json

import pytest

from grader import catalog, check_suite, mutants
from grader.traces import build
from solitaire.traces import load_dir

VARIATIONS = tuple(catalog.names())  # every variation of assignments/catalog.toml

SOURCE = '''
from solitaire.variation import Variation


class Toy(Variation):
    name = "toy"

    def helper(self, state):
        """outside the markers"""
        ### BEGIN SOLUTION
        return 1 < 2
        ### END SOLUTION

    def is_won(self, state):
        """doc"""
        x = 3
        ### BEGIN SOLUTION
        return self.helper(state) and not state
        ### END SOLUTION
'''


def test_mutants_stay_inside_the_solution_regions():
    found = mutants.generate("toy", SOURCE)
    assert {m.line for m in found} == {11, 18}  # never the docstrings or `x = 3`
    labels = {m.operator for m in found}
    assert {"compare", "constant", "boolop", "not", "statement", "return"} <= labels
    helper = next(m for m in found if m.method == "helper")
    assert helper.categories == {"is_won"}  # a helper's bug costs its callers' categories
    variant = mutants.instantiate(next(m for m in found if m.operator == "boolop"), "toy")
    assert variant.is_won(0) is True  # `helper() or not state`


def test_stub_source_replaces_every_solution_region():
    stub = check_suite.stub_source(SOURCE)
    assert "BEGIN SOLUTION" not in stub and stub.count("raise NotImplementedError") == 2
    assert "x = 3" in stub and '"""doc"""' in stub


def test_survivor_files_parse_and_name_real_mutants():
    for name in VARIATIONS:
        reasons = check_suite.read_reasons(name)
        keys = {check_suite.key(m) for m in check_suite.assign_keys(mutants.generate(name))}
        for key, reason in reasons.items():
            assert key in keys, f"{name}: survivors file names no mutant: {key}"
            assert reason and not reason.startswith("UNEXPLAINED"), f"{name}: {key}"


def test_ruling_ids_come_from_the_reference():
    source = mutants.reference_source("scorpion")[1]
    assert check_suite.ruling_ids(source, build.reference_variation("scorpion")) == {
        f"S{i}" for i in range(1, 7)}


@pytest.mark.parametrize("name", VARIATIONS)
def test_every_category_option_and_ruling_is_exercised(name, traces_of):
    variation = build.reference_variation(name)
    assert check_suite.coverage_problems(name, variation, traces_of(name)) == []


MAX_STALE_REBUILT = 3  # more than this: a shared input changed; rebuilding all here takes minutes


def test_committed_traces_are_current():
    """Each variation's traces equal a fresh build. Cheap when nothing changed: the
    hashes of the inputs and of the trace files match MANIFEST.json; when an input
    changed (a reference edited outside its rules, say), the variation is rebuilt in
    memory and compared file by file (``solitaire traces build`` refreshes the hashes).
    When many variations are stale at once, a shared input changed (an engine module, a
    shared scenario helper): rebuilding them all here would take minutes, so the test
    fails at once and names the command that refreshes them."""
    manifest = json.loads((build.HIDDEN_ROOT / build.MANIFEST).read_text(encoding="utf-8"))
    stale = [name for name in VARIATIONS if manifest.get(name) != build.fingerprint(name)]
    assert len(stale) <= MAX_STALE_REBUILT, (
        f"{len(stale)} variations' traces are stale (a shared input changed); "
        f"run: solitaire traces build   (then check that only 'inputs' lines of MANIFEST.json changed)")
    for name in stale:
        assert build.differences(build.build_variation(name)) == [], (
            f"{name}: the committed traces are stale; run: solitaire traces build --variation {name}")


def test_a_fresh_build_of_scorpion_equals_the_committed_traces():
    assert build.differences(build.build_variation("scorpion")) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIATIONS)
def test_a_fresh_build_equals_the_committed_traces(name):
    assert build.differences(build.build_variation(name)) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIATIONS)
def test_committed_traces_meet_the_schema(name):
    assert load_dir(build.HIDDEN_ROOT / name, schema=True)
    assert load_dir(build.PUBLIC_ROOT / name, schema=True)


def test_public_traces_meet_the_schema_and_differ_from_hidden_ones():
    for name in VARIATIONS:
        public = load_dir(build.PUBLIC_ROOT / name, schema=True)
        assert 1 <= len(public) <= 4
        hidden = {p.name for p in (build.HIDDEN_ROOT / name).glob("*.json")}
        assert not hidden & {f"{t['name']}.json" for t in public}
