"""Every attack submission, driven through SandboxWorker directly: nothing it answers is accepted."""

from __future__ import annotations

import os
import time

import pytest
from security_support import (
    ATTACK_NAMES,
    PLANTED,
    REPO,
    SECRET,
    Guard,
    compose,
    drive,
    processes_of,
    reference_run,
    unsafe_characters,
)

from grader.sandbox import LoadFailure, SandboxWorker

REFERENCE = reference_run()
SLACK_S = 3.0  # process start, kill and sweep on a loaded machine


def _rule_outcomes(run):
    return [o for o in run.outcomes if o.student_code]


def _messages(run):
    return [str(o.error) for o in _rule_outcomes(run) if o.error is not None]


# What each attack must show besides the common checks.
def _exit_status_zero(run, worker):
    assert isinstance(worker.load_failure, LoadFailure)
    assert "stopped the worker while loading (exit status 0)" in str(worker.load_failure)


def _system_exit(run, worker):
    assert isinstance(worker.load_failure, LoadFailure)
    assert "called exit() while loading" in str(worker.load_failure)


def _all_messages(prefix):
    def check(run, worker):
        messages = _messages(run)
        assert messages and all(m.startswith(prefix) or prefix in m for m in messages), messages
    return check


def _timeouts(run, worker):
    # After a timeout the next request meets a fresh worker holding no game ("no game yet"), or the
    # submission's budget is spent; the script does not resync.
    kinds = [o.kind for o in _rule_outcomes(run)]
    assert kinds[0] == "timeout" and set(kinds) <= {"timeout", "error"}, kinds
    assert "did not answer within 1 s" in run.messages() or "used up the 4 s" in run.messages()


def _memory(run, worker):
    # Allocation stops at RLIMIT_AS (MemoryError) or the deadline (zero-filling 512 MiB is slow: on a
    # loaded machine every call may reach its deadline first). test_memory_bounds.py checks the limits.
    kinds = [o.kind for o in _rule_outcomes(run)]
    assert set(kinds) <= {"error", "crashed", "timeout"}, kinds
    errors = " ".join(o.error.error for o in _rule_outcomes(run) if o.error)
    assert "MemoryError" in errors or "timeout" in kinds, kinds


def _forks_bounded(run, worker):
    counts = [int(m.split("FORKED:")[1].split()[0]) for m in _messages(run) if "FORKED:" in m]
    assert counts and max(counts) < worker.limits.processes, counts


def _grader_alive(run, worker):
    # Still here: the grader survived. Then either the worker kept answering after the attack, or
    # (bwrap layer: the child killed its own zygote, whose namespace ends with it) every start of the
    # worker ended by SIGKILL, and a request after such a restart finds no game. Which comes first is
    # a race that the machine's load decides (loaded full runs gave the second, and mixes of both);
    # none lets anything count (checked by the caller).
    assert os.getppid() > 0
    messages = _messages(run)
    assert messages
    contained = ("KILLED:", "killed by SIGKILL", "no game yet")
    assert all(any(mark in m for mark in contained) for m in messages), messages
    assert any("KILLED:" in m or "killed by SIGKILL" in m for m in messages), messages[:3]


def _rejected_types(run, worker):
    # Truthy objects never cross: the probes fail as protocol errors (an int is not true/false) or errors;
    # what the engine itself concluded from them (a bool) is simply wrong (checked above).
    kinds = [o.kind for o in _rule_outcomes(run)]
    assert "protocol" in kinds, kinds


def _stdout_ignored(run, worker):
    assert all(o.error is not None and o.error.error == "NotImplementedError" for o in _rule_outcomes(run))
    assert '{"ok": true, "value": true' in worker.output


def _injection(run, worker):
    assert isinstance(worker.load_failure, LoadFailure)
    assert "while loading" in str(worker.load_failure)


def _flood(run, worker):
    assert len(worker.output.encode()) <= worker.limits.output_bytes + 200
    assert "more bytes dropped" in worker.output


def _network(run, worker):
    messages = _messages(run)
    assert messages and all(m.startswith("NET:none if:") for m in messages), messages
    assert set(messages[0].split("if:")[1].split(",")) <= {"lo", ""}


def _sanitised(marker):
    """Student text reaches the trusted side with no control, bidi or invalid character; still readable."""
    def check(run, worker):
        messages = run.messages() + "".join(o.error.error for o in run.outcomes if o.error is not None)
        values = [v for o in run.outcomes if isinstance(o.value, list) for v in o.value]
        for text in (messages, worker.output, *values):
            assert unsafe_characters(text) == [], (text[:200], unsafe_characters(text)[:5])
            text.encode("utf-8", "strict")
        assert marker in messages, messages[:500]
    return check


def _handshake_not_believed(run, worker):
    # Written after the entry script's "ready" line, the fake SandboxError is the submission's own load
    # failure: labelled as such, or a broken channel when the real load line arrives with it (the grader
    # logs nothing either way: test_channel_and_leases.py).
    failure = worker.load_failure
    assert isinstance(failure, LoadFailure) and failure.error in ("LoadError", "ProtocolError"), failure
    said = str(failure)
    assert "claimed a sandbox failure" in said or "broke the answer channel while loading" in said


EXPECT = {
    "always_true_eq": _rejected_types,
    "engine_tampering": _all_messages("TAMPER:readonly"),
    "forge_results": _all_messages("FORGED:"),
    "fork_storm": _forks_bounded,
    "ignore_signals": _timeouts,
    "import_grader_code": _all_messages("IMPORT:none"),
    "infinite_loop": _timeouts,
    "introspection": _all_messages("INTRO:none"),
    "kill_parent": _grader_alive,
    "memory_bomb": _memory,
    "network_access": _network,
    "os_exit_at_import": _exit_status_zero,
    "output_flood": _flood,
    "pytest_monkeypatch": _all_messages("PYTEST:unreachable"),
    "read_hidden_files": _all_messages("LEAK:none"),
    "reply_pipe_injection": _injection,
    "sleep_forever": _timeouts,
    "stdout_protocol_lines": _stdout_ignored,
    "system_exit_at_import": _system_exit,
    "surrogate_message": _sanitised("SURROGATE:"),
    "fake_total_markdown": _sanitised("__FAKE__"),
    "html_script": _sanitised("<script>"),
    "javascript_link": _sanitised("javascript:alert(1)"),
    "terminal_escapes": _sanitised("\\x1b[2J"),
    "nul_and_bidi": _sanitised("RLO\\u202e001"),
    "fake_sandbox_handshake": _handshake_not_believed,
    "probe_cache_tampering": _all_messages("CACHE:none"),
}


def test_every_attack_has_an_expectation():
    assert sorted(EXPECT) == ATTACK_NAMES
    assert len(ATTACK_NAMES) >= 15


@pytest.mark.parametrize("attack", ATTACK_NAMES)
def test_attack_is_contained(attack, tmp_path, isolation, attack_limits):
    submission = tmp_path / "submission"
    path = compose(attack, submission)
    guard = Guard(submission, REPO / "reference")
    assert PLANTED["expected"] == SECRET
    started = time.monotonic()
    worker = SandboxWorker(path, attack_limits)
    try:
        run = drive(worker)
        uid = worker._lease.uid if worker._lease is not None else None
        root = worker.submission.root
    finally:
        worker.close()
    elapsed = time.monotonic() - started

    # Nothing the attack answered counts: every rule step is an error or differs from the reference.
    for mine, right in zip(_rule_outcomes(run), _rule_outcomes(REFERENCE), strict=True):
        assert mine.error is not None or mine.value != right.value, (mine.label, mine.value)
    # The run ended within its limits.
    assert elapsed <= attack_limits.wall_s + attack_limits.startup_s + SLACK_S, elapsed
    # No hidden text reached the student's messages; nothing outside the temp copy changed.
    assert SECRET not in run.messages() and SECRET not in worker.output
    assert "BEGIN SOLUTION" not in run.messages()
    assert guard.changes() == []
    assert not root.exists()
    if uid is not None:
        time.sleep(0.05)
        assert processes_of(uid) == []
    EXPECT[attack](run, worker)
