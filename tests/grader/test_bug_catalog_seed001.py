"""The realistic-bug catalogs of the seed-001 games (grader/bugs/maria.toml, number_ten.toml).

Every bug applies exactly once inside its method's solution region, names a ruling
of its game's rules page, and makes a change no other bug makes; the catalog covers
every rule method the reference implements. That each bug is detected by the hidden
traces, at a fair share of its method's points, is measured by ``solitaire
check-suite`` (the slow test below grades a few of them in process).
"""

from __future__ import annotations

import re

import pytest

from grader import bugs
from grader.grade import grade_in_process
from grader.mutants import reference_source
from grader.traces.build import ROOT, hidden_traces, reference_variation
from solitaire.variation import RULE_METHODS

GAMES = ("maria", "number_ten")


@pytest.mark.parametrize("name", GAMES)
def test_catalog_covers_every_rule_method_and_applies(name):
    catalog = bugs.load(name)
    assert len(catalog) >= 15
    _, text = reference_source(name)
    reference = reference_variation(name)
    implemented = {m for m in RULE_METHODS if m in type(reference).__dict__}
    assert {bug.method for bug in catalog} == implemented
    rules = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    assert {bug.ruling for bug in catalog} <= set(re.findall(r"^- \*\*([A-Z]{1,2}[0-9]+)\*\*", rules, re.M))
    changes = set()
    for bug in catalog:
        patched = bug.source(text)  # raises unless once and inside the method's region
        assert patched != text
        changes.add(patched)
        assert type(bugs.instantiate(bug)) is not type(reference)
    assert len(changes) == len(catalog), "two bugs make the same change"


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_bug_loses_points_in_its_own_method(name):
    traces = hidden_traces(name)
    for bug in bugs.load(name):
        scores = {m.method: m for m in grade_in_process(bugs.instantiate(bug), name, traces)}
        lost = {method for method, m in scores.items() if m.score < m.max_score}
        assert lost == {bug.method}, f"{bug.id}: lost points in {sorted(lost)}"
