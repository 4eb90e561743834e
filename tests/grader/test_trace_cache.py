"""The hidden traces validated once per grading process, and handed to the suite as one file."""

import json
import os
import shutil

import pytest

from grader import trace_cache
from grader.grade import run_suite
from grader.traces.build import HIDDEN_ROOT, hidden_traces
from solitaire.errors import UserError


@pytest.fixture
def root(tmp_path):
    """A hidden-trace root holding a copy of bismarck's traces."""
    shutil.copytree(HIDDEN_ROOT / "bismarck", tmp_path / "bismarck")
    return tmp_path


def test_the_traces_are_those_of_the_directory_validated_once(root, monkeypatch):
    calls = []
    real = trace_cache.hidden_traces
    monkeypatch.setattr(trace_cache, "hidden_traces", lambda *a: calls.append(a) or real(*a))
    first = trace_cache.hidden("bismarck", root)
    assert first == hidden_traces("bismarck", root) and len(calls) == 1
    first.clear()  # each call gets its own list
    assert trace_cache.hidden("bismarck", root) == hidden_traces("bismarck", root) and len(calls) == 1


def test_a_changed_trace_file_is_read_again(root):
    before = trace_cache.hidden("bismarck", root)
    path = sorted((root / "bismarck").glob("*.json"))[0]
    trace = json.loads(path.read_text(encoding="utf-8"))
    trace["steps"] = trace["steps"][:1]
    path.write_text(json.dumps(trace), encoding="utf-8")
    os.utime(path, ns=(1, 1))  # a new modification time even on a coarse clock
    after = trace_cache.hidden("bismarck", root)
    assert after != before and len(after[0]["steps"]) == 1


def test_a_broken_trace_file_still_fails_and_is_not_kept(root):
    path = sorted((root / "bismarck").glob("*.json"))[0]
    path.write_text('{"format": 1}', encoding="utf-8")
    for _ in range(2):
        with pytest.raises(Exception, match=path.name):
            trace_cache.hidden("bismarck", root)
    with pytest.raises(UserError):
        trace_cache.hidden("no_such_variation", root)


def test_the_suite_given_the_checked_traces_counts_as_from_the_directory(tmp_path):
    """run_suite hands the suite the checked file; the counts equal those of the directory."""
    from grader.mutants import reference_source

    # the reference with its is_won stubbed: some checks pass, some fail
    text = reference_source("bismarck")[1]
    rules = tmp_path / "bismarck.py"
    rules.write_text(text + "\n\nBismarck.is_won = lambda self, state: 1 / 0\n", encoding="utf-8")
    counts = []
    for traces_dir in (None, HIDDEN_ROOT / "bismarck"):
        work = tmp_path / f"work{len(counts)}"
        work.mkdir()
        found, output = run_suite(rules, "bismarck", "local", work, 300, 60, traces_dir)
        assert found is not None, output
        assert (work / "traces.json").is_file() == (traces_dir is None)
        counts.append((found["cells"], found["first_failures"], found["traces"]))
    assert counts[0] == counts[1]
    passed = [p == t for cells in counts[0][0].values() for p, t in cells.values()]
    assert any(passed) and not all(passed)
