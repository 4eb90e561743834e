"""The sandboxed worker's contract: answers as in-process, clear load errors, strict replies, restarts."""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import time

import pytest
from security_support import ATTACKS, SCORPION, compose, drive, processes_of, reference_copy

from grader.sandbox import Limits, LoadFailure, SandboxWorker, sandbox_factory
from grader.sandbox.channel import Broken, check_reply
from grader.sandbox.isolation import announce
from grader.sandbox.uids import UID_POOL_START
from solitaire import shuffled_deck
from solitaire.protocol import LocalWorker, WorkerError

QUICK = Limits(call_s=2.0, startup_s=10.0, wall_s=30.0)


def _rules(tmp_path, body: str, name: str = "scorpion.py"):
    """A submission: the stubbed Scorpion followed by ``body``."""
    path = tmp_path / name
    path.write_text((ATTACKS / "_prelude.py").read_text() + "\n" + body)
    return path


# -- the isolation in force ---------------------------------------------------------


def test_the_active_layer_is_logged(isolation, caplog):
    from grader.sandbox.isolation import _logged

    _logged.cache_clear()
    with caplog.at_level(logging.INFO, logger="grader.sandbox"):
        announce(isolation)
    assert f"sandbox isolation: {isolation.name} (" in caplog.text


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")
def test_bwrap_is_chosen_where_it_works(isolation):
    assert isolation.name == "bwrap" and isolation.kills_descendants


EVIDENCE = '''
import os, socket


def _evidence(rule):
    def method(self, *args):
        status = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if ":" in l)
        mounts = sorted({l.split()[1] for l in open("/proc/self/mounts")})
        print("EVIDENCE:" + repr({
            "uid": os.getresuid(), "gid": os.getresgid(), "groups": os.getgroups(),
            "cap_eff": status["CapEff"].strip(), "no_new_privs": status["NoNewPrivs"].strip(),
            "pid": os.getpid(), "interfaces": [n for _i, n in socket.if_nameindex()],
            "mounts": mounts, "cwd": os.getcwd(), "env": sorted(os.environ),
            "rlimit_as": __import__("resource").getrlimit(__import__("resource").RLIMIT_AS),
        }), flush=True)
        raise RuntimeError("see output")
    return method


patch_every_rule(_evidence)
'''


def test_evidence_of_isolation(tmp_path, isolation):
    """What the student's code sees from inside (printed with -s for the record)."""
    with SandboxWorker(_rules(tmp_path, EVIDENCE), QUICK) as worker:
        worker.load(drive_state())
        with pytest.raises(WorkerError, match="see output"):
            worker.won()
    evidence = eval(worker.output.split("EVIDENCE:", 1)[1])  # noqa: S307 - our own repr
    print("\nisolation:", isolation.describe(), "\nevidence:", evidence)
    assert evidence["rlimit_as"] == (QUICK.memory_bytes, QUICK.memory_bytes)
    if os.geteuid() == 0:
        assert evidence["uid"][0] != 0 and len(set(evidence["uid"])) == 1 and evidence["groups"] == []
        assert evidence["cap_eff"] == "0000000000000000"
    if isolation.name == "bwrap":
        assert evidence["interfaces"] == ["lo"]
        assert evidence["pid"] <= 3  # PID namespace
        assert evidence["no_new_privs"] == "1"
        assert not any(m.startswith(("/work", "/home")) for m in evidence["mounts"]), evidence["mounts"]
        assert evidence["cwd"] == "/tmp"
        if os.geteuid() == 0:
            assert evidence["uid"][0] >= UID_POOL_START


# -- a correct submission answers exactly like the in-process worker ------------------


def test_reference_answers_like_local_worker(tmp_path):
    local = drive(LocalWorker(SCORPION))
    with SandboxWorker(reference_copy(tmp_path), QUICK) as worker:
        sandboxed = drive(worker)
    assert [(o.kind, o.value) for o in sandboxed.outcomes] == [(o.kind, o.value) for o in local.outcomes]


def test_reference_playouts_agree(tmp_path):
    """Random playouts: every state, move list and verdict identical in and out of the sandbox."""
    steps = 0
    with SandboxWorker(reference_copy(tmp_path), QUICK) as worker:
        for seed in range(1, 6):
            local = LocalWorker(SCORPION)
            cards = [str(c) for c in shuffled_deck(SCORPION, seed)]
            options = {"moves": "any_faceup" if seed % 2 else "runs"}
            assert worker.start(cards, options) == local.start(cards, options)
            chooser = random.Random(seed)
            for _ in range(40):
                moves = local.moves()
                assert worker.moves() == moves
                assert worker.won() == local.won()
                assert worker.call("special_moves", []) == local.call("special_moves", [])
                for pile in ("t1", "t4", "r"):
                    assert worker.call("can_pick_up", [pile, 1]) == local.call("can_pick_up", [pile, 1])
                if not moves:
                    break
                move = chooser.choice(moves)
                assert worker.legal(move) is True
                assert worker.apply(move) == local.apply(move)
                assert worker.state() == local.state()
                steps += 1
    assert steps >= 20


# -- bad submissions: a clear, permanent load failure -----------------------------------


BAD_FILES = {
    "syntax error": ("def broken(:\n", "has a syntax error (line"),
    "import error": ("import numpy_not_installed_here\n", "ModuleNotFoundError"),
    "no Variation subclass": (None, "must define exactly one Variation subclass, found 0"),
    "two Variation subclasses": ("class Other(Scorpion):\n    pass\n", "found 2"),
    "exception at import": ("raise ValueError('boom')\n", "ValueError: boom"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_rules_file_fails_to_load(case, tmp_path):
    body, expected = BAD_FILES[case]
    if body is None:
        path = tmp_path / "scorpion.py"
        path.write_text("X = 1\n")
    else:
        path = _rules(tmp_path, body)
    with SandboxWorker(path, QUICK) as worker:
        for _ in range(3):
            with pytest.raises(LoadFailure) as caught:
                worker.start([], {})
            assert expected in str(caught.value)
            assert caught.value.kind == "error"
        assert worker.launches == 1  # permanent: not retried


def _file_problem(tmp_path, case):
    path = tmp_path / "scorpion.py"
    if case == "missing":
        return path, "is missing"
    if case == "symlink":
        target = tmp_path / "real.py"
        target.write_text("X = 1\n")
        path.symlink_to(target)
        return path, "is a symbolic link"
    if case == "non-UTF-8":
        path.write_bytes(b"# caf\xe9\nX = 1\n")
        return path, "is not UTF-8 text (invalid byte at line 1)"
    if case == "too large":
        path.write_text("#" * (QUICK.rules_bytes + 1))
        return path, f"more than the limit of {QUICK.rules_bytes} bytes"
    if case == "directory":
        path.mkdir()
        return path, "is not a regular file"
    raise AssertionError(case)


@pytest.mark.parametrize("case", ["missing", "symlink", "non-UTF-8", "too large", "directory"])
def test_unusable_rules_file_is_reported_without_starting(case, tmp_path):
    path, expected = _file_problem(tmp_path, case)
    with SandboxWorker(path, QUICK) as worker:
        with pytest.raises(LoadFailure) as caught:
            worker.launch()
        assert expected in str(caught.value) and caught.value.error == "RulesFileError"
        assert worker.launches == 0


def test_load_output_is_kept_apart(tmp_path):
    path = _rules(tmp_path, "print('hello from import')\nraise ImportError('no luck')\n")
    with SandboxWorker(path, QUICK) as worker:
        with pytest.raises(LoadFailure) as caught:
            worker.launch()
        assert "ImportError: no luck" in str(caught.value) and "(line" in str(caught.value)
    assert "hello from import" in worker.output and "hello from import" in worker.load_output


# -- strict replies -------------------------------------------------------------------


@pytest.mark.parametrize("line, problem", [
    (b"not json", "not valid JSON"),
    (b'{"ok": true, "value": NaN}', "not valid JSON"),
    (b"[true]", "not a JSON object"),
    (b'{"value": true}', "without ok"),
    (b'{"ok": 1}', "without ok"),
    (b'{"ok": true, "verdict": "pass"}', "unexpected key"),
    (b'{"ok": true, "value": 1}', "neither true/false"),
    (b'{"ok": true, "value": {"eq": true}}', "neither true/false"),
    (b'{"ok": true, "value": ["t1>t2", 3]}', "neither true/false"),
    (b'{"ok": true, "state": ["x"]}', "not a string"),
    (b'{"ok": false, "error": "E"}', "without a text message"),
    (b'{"ok": false, "error": "E", "message": "m", "value": true}', "unexpected key"),
    (b"\xff\xfe", "not valid JSON"),
])
def test_malformed_replies_are_protocol_errors(line, problem):
    with pytest.raises(Broken) as caught:
        check_reply(line)
    assert caught.value.reason == "protocol" and problem in str(caught.value)


@pytest.mark.parametrize("line", [b'{"ok": true, "value": true}', b'{"ok": true, "value": true, "id": 6}',
                                  b'{"ok": true, "value": true, "id": true}', b'{"ok": true, "id": "7"}'])
def test_a_reply_must_carry_its_request_id(line):
    with pytest.raises(Broken, match="does not belong to the request"):
        check_reply(line, expected_id=7)
    assert check_reply(b'{"ok": true, "value": true, "id": 7}', expected_id=7) == {"ok": True, "value": True}


def test_well_formed_replies_pass():
    assert check_reply(b'{"ok": true, "value": ["deal"], "state": "s"}') == {
        "ok": True, "value": ["deal"], "state": "s"}
    assert check_reply(json.dumps({"ok": False, "error": "E", "message": "m", "method": "is_won"}).encode())


LATE_INJECTION = '''
import os


def _won(self, state):
    for fd in range(3, 64):
        try:
            os.write(fd, b'{"ok": true, "value": true}\\n')
        except OSError:
            pass
    return False


Scorpion.is_won = _won
'''


def test_an_extra_reply_line_is_a_protocol_error_and_the_worker_restarts(tmp_path):
    """The forged line may arrive alone (and be taken for the answer: the student's code could have
    returned that value anyway); the surplus line fails this request or, at the latest, the next one."""
    with SandboxWorker(_rules(tmp_path, LATE_INJECTION), QUICK) as worker:
        worker.load(drive_state())
        with pytest.raises(WorkerError) as caught:
            worker.won()
            worker.state()
        assert caught.value.kind == "protocol" and "broke the answer channel" in str(caught.value)
        worker.load(drive_state())  # a fresh worker answers again
        assert worker.state() == drive_state()
        assert worker.launches == 2


def drive_state():
    from security_support import DEALT

    return DEALT


# -- crashes, restarts and the shared budget ----------------------------------------------


CRASH_IN_IS_WON = '''
import os


def _won(self, state):
    os._exit(7)


Scorpion.is_won = _won
'''


def test_a_crash_fails_the_request_and_the_next_one_gets_a_fresh_worker(tmp_path):
    with SandboxWorker(_rules(tmp_path, CRASH_IN_IS_WON), QUICK) as worker:
        worker.load(drive_state())
        with pytest.raises(WorkerError) as caught:
            worker.won()
        assert caught.value.kind == "crashed"
        assert str(caught.value) == "the worker running your code stopped in rule is_won (exit status 7)"
        with pytest.raises(WorkerError, match="no game yet"):
            worker.state()  # restarted: holds no game
        worker.load(drive_state())
        assert worker.state() == drive_state()


def test_restart_on_demand(tmp_path):
    with SandboxWorker(reference_copy(tmp_path), QUICK) as worker:
        worker.load(drive_state())
        worker.restart()
        with pytest.raises(WorkerError, match="no game yet"):
            worker.state()
        assert worker.launches == 2


def test_the_wall_budget_is_shared_by_a_factorys_workers(tmp_path):
    path = _rules(tmp_path, "import time\nScorpion.is_won = lambda self, state: time.sleep(60)\n")
    limits = Limits(call_s=1.0, startup_s=5.0, wall_s=2.5)
    factory = sandbox_factory(path, limits)
    started = time.monotonic()
    try:
        kinds = []
        for _ in range(4):
            with factory() as worker:
                with pytest.raises(WorkerError) as caught:
                    worker.load(drive_state())  # may already fail: the budget is nearly spent
                    worker.won()
                kinds.append(str(caught.value))
        root = factory.submission.root
    finally:
        factory.close()
    assert time.monotonic() - started < limits.wall_s + 3.0
    assert "did not answer within 1 s in rule is_won" in kinds[0]
    assert "used up the 2.5 s allowed for the whole submission" in kinds[-1]
    assert not root.exists()


def test_a_factory_shares_one_load_failure(tmp_path):
    path = _rules(tmp_path, "raise SystemExit(3)\n")
    with sandbox_factory(path, QUICK) as factory:
        first, second = factory(), factory()
        with pytest.raises(LoadFailure):
            first.launch()
        with pytest.raises(LoadFailure):
            second.launch()
        assert first.launches + second.launches == 1


def test_limits_from_environment():
    limits = Limits.from_env(environ={
        "SOLITAIRE_SANDBOX_CALL_S": "0.5", "SOLITAIRE_SANDBOX_WALL_S": "9",
        "SOLITAIRE_SANDBOX_PROCESSES": "8", "SOLITAIRE_SANDBOX_ISOLATION": "plain",
    })
    assert (limits.call_s, limits.wall_s, limits.processes, limits.isolation) == (0.5, 9.0, 8, "plain")
    with pytest.raises(ValueError):
        Limits.from_env(environ={"SOLITAIRE_SANDBOX_CALL_S": "soon"})
    with pytest.raises(ValueError):
        Limits(isolation="docker")


# -- the weaker layers, as root ---------------------------------------------------------


@pytest.mark.skipif(os.geteuid() != 0, reason="the fallback layers drop to a sandbox uid only as root")
@pytest.mark.parametrize("layer, attack", [
    ("unshare", "fork_storm"), ("unshare", "kill_parent"), ("unshare", "import_grader_code"),
    ("unshare", "network_access"), ("plain", "fork_storm"), ("plain", "kill_parent"),
])
def test_fallback_layers_contain_escapes(layer, attack, tmp_path, attack_limits):
    if layer == "unshare" and shutil.which("unshare") is None:
        pytest.skip("util-linux unshare missing")
    limits = Limits(**{**attack_limits.__dict__, "isolation": layer})
    worker = SandboxWorker(compose(attack, tmp_path / "sub"), limits)
    try:
        run = drive(worker)
        uid = worker._lease.uid
    finally:
        worker.close()
    assert worker.isolation.name == layer
    assert all(o.error is not None for o in run.outcomes if o.student_code)
    time.sleep(0.05)
    assert processes_of(uid) == []  # setsid children included
    if attack == "import_grader_code":
        assert "IMPORT:none" in run.messages()
    if attack == "network_access":
        assert "NET:none if:lo" in run.messages()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root")
def test_plain_layer_warns_about_world_readable_grader_files(caplog):
    """No namespaces: nothing but permissions protects grader/ and reference/ (docs/security.md)."""
    from grader.sandbox.isolation import _logged, default_hidden_paths, layer, readable_by_others

    _logged.cache_clear()
    with caplog.at_level(logging.INFO, logger="grader.sandbox"):
        announce(layer("plain"))
    assert "sandbox isolation: plain (NO namespaces" in caplog.text
    exposed = [p for p in default_hidden_paths() if readable_by_others(p)]
    assert ("student code can read" in caplog.text) == bool(exposed)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root and unshare")
def test_unshare_hides_the_repository(tmp_path, attack_limits):
    limits = Limits(**{**attack_limits.__dict__, "isolation": "unshare"})
    with SandboxWorker(compose("read_hidden_files", tmp_path / "sub"), limits) as worker:
        run = drive(worker)
    assert "LEAK:none" in run.messages()


def test_unshare_covers_every_non_system_top_level_directory():
    """The unshare layer is an allow-list at /: another checkout of the project (a CI clone
    beside a work tree, say) is covered wherever it lies, not only the grader's own."""
    import sys
    from pathlib import Path

    from grader.sandbox.isolation import WORKER_TOP_DIRS, other_top_level_dirs, unshare_hidden

    others = other_top_level_dirs()
    assert all(path.name not in WORKER_TOP_DIRS for path in others)
    python = Path(os.path.realpath(sys.base_prefix))
    hidden = [Path(p) for p in unshare_hidden([])]
    for path in others:
        if not python.is_relative_to(path):
            assert any(path.is_relative_to(h) for h in hidden), path
