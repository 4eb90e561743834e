"""The hidden suite's entry (grader/suite/run.py): the sandboxes start before pytest is imported."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from grader.grade import grade_submission, sandbox_available
from grader.suite import warm
from grader.suite.run import _option

REFERENCE = Path(__file__).resolve().parents[2] / "reference"


@pytest.fixture(autouse=True)
def nothing_started_yet(monkeypatch):
    """Each test starts with nothing started early, and leaves nothing to the next."""
    monkeypatch.setattr(warm, "_prelaunched", {})


def test_option_reads_both_spellings_and_the_last_one():
    argv = ["x.py", "--solitaire-submission", "a.py", "--solitaire-worker=local",
            "--solitaire-submission=b.py"]
    assert _option(argv, "--solitaire-submission") == "b.py"
    assert _option(argv, "--solitaire-worker") == "local"
    assert _option(argv, "--solitaire-results") is None
    assert _option(["--solitaire-results"], "--solitaire-results") is None  # no value after it


def test_what_was_started_early_is_taken_once(monkeypatch):
    made = []
    monkeypatch.setattr(warm, "prelaunch", lambda submission, results: made.append(submission) or object())
    warm.prelaunch_early("a.py", "out/counts.json")
    taken = warm.take_prelaunched("a.py", "out/counts.json")
    assert taken is not None and made == ["a.py"]
    assert warm.take_prelaunched("a.py", "out/counts.json") is None  # once only
    warm.prelaunch_early("b.py", None)
    assert warm.take_prelaunched("a.py", None) is None  # another submission's is not taken


def test_what_no_plugin_took_is_closed(monkeypatch):
    closed = []

    class Started:
        def __init__(self, name):
            self.name = name

        def close(self):
            closed.append(self.name)

    monkeypatch.setattr(warm, "prelaunch", lambda submission, results: Started(submission))
    warm.prelaunch_early("taken.py", None)
    warm.prelaunch_early("left.py", None)
    assert warm.take_prelaunched("taken.py", None).name == "taken.py"
    warm.close_untaken()
    assert closed == ["left.py"]  # the one taken is the plugin's to close
    warm.close_untaken()
    assert closed == ["left.py"]


def test_a_failure_to_start_early_is_left_to_the_plugin(monkeypatch):
    def refuse(submission, results):
        raise RuntimeError("no sandbox here")

    monkeypatch.setattr(warm, "prelaunch", refuse)
    warm.prelaunch_early("c.py", None)  # no exception: the plugin makes the factory and reports it
    assert warm.take_prelaunched("c.py", None) is None


@pytest.mark.skipif(not sandbox_available(), reason="the sandbox is not installed")
def test_a_sandboxed_grade_makes_its_factory_before_pytest_is_imported(tmp_path, monkeypatch):
    submission = tmp_path / "sub"
    submission.mkdir()
    shutil.copy(REFERENCE / "bismarck.py", submission / "bismarck.py")
    timeline = tmp_path / "timeline.json"
    monkeypatch.setenv(warm.PROFILE_ENV, str(timeline))
    results = grade_submission(submission, "bismarck", tmp_path / "out", worker="sandbox")
    assert results["score"] == pytest.approx(sum(t["max_score"] for t in results["tests"]))
    events = [event for event, _moment in json.loads(timeline.read_text())]
    assert events.index("suite started") < events.index("factory made") < events.index("plugin imported")
    assert events.count("factory made") == 1  # the plugin took the sandboxes started early


def test_leaving_waits_for_threads_runs_exit_functions_and_keeps_the_exit_status(tmp_path):
    """The suite's end skips only the interpreter's teardown: a thread that is not a daemon (the
    sandboxes' cleanup) finishes, atexit functions and finalizers run, what was printed arrives."""
    import subprocess
    import sys

    marker = tmp_path / "removed"
    marker.mkdir()
    code = f"""
import atexit, shutil, threading, time, weakref
from grader.suite.run import leave
class Holder: pass
holder = Holder()
weakref.finalize(holder, print, "finalizer ran")
atexit.register(shutil.rmtree, {str(marker)!r})
threading.Thread(target=lambda: (time.sleep(0.3), print("cleanup done", flush=True))).start()
threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
print("results", end="")
leave(3)
"""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=30)
    assert done.returncode == 3, done.stderr
    assert done.stdout.startswith("results") and "cleanup done" in done.stdout
    assert "finalizer ran" in done.stdout
    assert not marker.exists()


def test_the_suite_entry_skips_only_the_teardown(tmp_path):
    """``python -m grader.suite.run`` keeps pytest's exit status and runs atexit functions, but
    frees nothing at the end: a module's object whose ``__del__`` would print at teardown stays."""
    import subprocess
    import sys

    (tmp_path / "test_one.py").write_text(
        "import atexit\n"
        "class Loud:\n"
        "    def __del__(self):\n"
        "        print('torn down', flush=True)\n"
        "kept = Loud()\n"
        "atexit.register(print, 'atexit ran')\n"
        "def test_fails():\n"
        "    assert False\n")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run([sys.executable, "-m", "grader.suite.run", str(tmp_path / "test_one.py"), "-q",
                           "-p", "no:cacheprovider"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr  # one test failed
    assert "1 failed" in done.stdout and "atexit ran" in done.stdout
    assert "torn down" not in done.stdout


@pytest.mark.skipif(not sandbox_available(), reason="needs a sandbox")
def test_pytest_timeout_still_stops_a_trace_in_the_suite(tmp_path):
    """The suite loads only some of pytest's plugins (grader/suite/pytest.ini): pytest-timeout still
    stops a trace that outlasts the per-trace timeout, and the suite still writes its counts."""
    import time

    from grader.grade import run_suite
    from grader.traces.build import HIDDEN_ROOT

    traces = tmp_path / "traces"
    traces.mkdir()
    shutil.copy(HIDDEN_ROOT / "scorpion" / "deal-default-1.json", traces)
    submission = tmp_path / "sub"
    submission.mkdir()
    text = (REFERENCE / "scorpion.py").read_text(encoding="utf-8")
    head = ("    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], "
            "source: str) -> bool:\n")
    slow = text.replace(head, head + "        import time; time.sleep(0.3)\n", 1)
    assert slow != text
    (submission / "scorpion.py").write_text(slow, encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    started = time.monotonic()
    counts, output = run_suite(submission / "scorpion.py", "scorpion", "sandbox", work, 120.0, 1.5,
                               traces_dir=traces)
    assert "Timeout" in output
    assert counts is not None
    assert time.monotonic() - started < 30
