"""Fixtures of the grader's tests: references, hidden traces, in-process grading."""

import pytest

from grader import catalog
from grader.grade import grade_in_process
from grader.traces.build import hidden_traces, reference_variation

VARIATIONS = tuple(catalog.names())  # every variation of assignments/catalog.toml


@pytest.fixture(scope="session")
def traces_of():
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = hidden_traces(name)
        return cache[name]

    return get


@pytest.fixture(scope="session")
def reference_scores(traces_of):
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = grade_in_process(reference_variation(name), name, traces_of(name))
        return cache[name]

    return get
