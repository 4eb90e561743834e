"""The bwrap layer's zygote: one sandbox per submission, a fresh child per trace (``fresh()``).

A child leaves files, a System V segment, a POSIX message queue, a detached process and stale
handshake lines behind, or attacks the zygote; the next child must find nothing of it, and the
grader must go on.
Each test also checks that the zygote path itself was taken (no full restart), where it applies.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from security_support import ATTACKS, DEALT, process_status

from grader.sandbox import Limits, SandboxFactory, SandboxWorker, affinity
from grader.suite.plugin import ZygoteWorkers
from solitaire.protocol import WorkerError

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="the zygote runs under bwrap only")

LIMITS = Limits(call_s=3.0, startup_s=10.0, wall_s=60.0)

# can_pick_up(state, pile, COUNT) runs action COUNT and raises its findings as JSON.
PROBE = r'''
import ctypes, json, os, signal, time

_libc = ctypes.CDLL(None, use_errno=True)
SHM_KEY = 0x5107


class _QueueAttr(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_long), ("maxmsg", ctypes.c_long), ("msgsize", ctypes.c_long),
                ("curmsgs", ctypes.c_long), ("unused", ctypes.c_long * 4)]


def _mq_open(create):
    """A POSIX message queue /leak (O_RDWR | create): its descriptor, or -1."""
    attr = _QueueAttr(0, 1, 16, 0)
    return _libc.mq_open(b"/leak", 2 | create, 0o600, ctypes.byref(attr))


def _report(**found):
    raise RuntimeError("FOUND" + json.dumps(found))


def _plant():
    os.makedirs("/tmp/nested/deeper", exist_ok=True)
    open("/tmp/nested/deeper/planted", "w").write("left behind")
    open(os.path.join(os.getcwd(), "planted-cwd"), "w").write("left behind")
    segment = _libc.shmget(SHM_KEY, 4096, 0o1000 | 0o600)
    queue = _mq_open(0o100)
    read_end, write_end = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(write_end, str(os.getpid()).encode())
            time.sleep(1000)
        os._exit(0)
    os.close(write_end)
    background = int(os.read(read_end, 32))
    _report(segment=segment, queue=queue, background=background, zygote=os.getppid(), uid=os.getuid())


def _look():
    me, zygote = os.getpid(), os.getppid()
    others = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) not in (1, me, zygote):
            others.append(int(name))
    with open("/proc/sysvipc/shm") as table:
        segments = table.read().splitlines()[1:]
    _report(files=sorted(os.listdir("/tmp")), cwd=sorted(os.listdir(os.getcwd())), segments=segments,
            others=others, shmget=_libc.shmget(SHM_KEY, 4096, 0o600), queue=_mq_open(0), zygote=zygote,
            uid=os.getuid())


def _attack_zygote():
    zygote = os.getppid()
    found = {}
    for path in (f"/proc/{zygote}/mem", f"/proc/{zygote}/environ"):
        try:
            open(path, "rb").read(16)
            found[path] = "read"
        except OSError as error:
            found[path] = error.errno
    try:
        found["fd"] = os.listdir(f"/proc/{zygote}/fd")
    except OSError as error:
        found["fd"] = error.errno
    found["ptrace"] = _libc.ptrace(16, zygote, None, None)  # PTRACE_ATTACH
    found["ptrace_errno"] = ctypes.get_errno()
    _report(**found)


def _stale_handshake():
    fds = [int(fd) for fd in os.listdir("/proc/self/fd")]
    if os.fork() == 0:
        time.sleep(0.3)  # after the reply below has been read
        fake = b'\n{"ok": true, "id": 0}\n{"ok": false, "error": "SyntaxError", "message": "fake", "id": 0}\n'
        for fd in fds:
            try:
                os.write(fd, fake)
            except OSError:
                pass
        time.sleep(1000)
    return True


def _probe(self, state, pile, count):
    if count == 1:
        _plant()
    if count == 2:
        _look()
    if count == 3:
        os.kill(os.getppid(), signal.SIGKILL)
        time.sleep(5)
    if count == 4:
        _attack_zygote()
    if count == 5:
        return _stale_handshake()
    if count == 6:
        _report(cpus=sorted(os.sched_getaffinity(0)))
    return False


Scorpion.can_pick_up = _probe
'''


@pytest.fixture
def worker(tmp_path, isolation):
    if isolation.name != "bwrap":
        pytest.skip("the zygote runs under bwrap only")
    rules = tmp_path / "scorpion.py"
    rules.write_text((ATTACKS / "_prelude.py").read_text() + "\n" + PROBE)
    made = SandboxWorker(rules, LIMITS)
    made.launch()
    yield made
    made.close()


def _probe(worker: SandboxWorker, action: int) -> dict:
    worker.load(DEALT)
    with pytest.raises(WorkerError) as raised:
        worker.call("can_pick_up", ["t1", action])
    text = str(raised.value)
    assert "FOUND" in text, text
    return json.loads(text.split("FOUND", 1)[1])


def test_the_next_child_finds_nothing_the_previous_one_left(worker):
    planted = _probe(worker, 1)
    assert planted["segment"] >= 0 and planted["queue"] >= 0  # the segment and the queue were made
    before = _probe(worker, 2)
    assert "nested" in before["files"] and "planted-cwd" in before["cwd"]
    assert before["segments"] and before["shmget"] >= 0 and before["queue"] >= 0
    assert planted["background"] in before["others"]  # the detached process is alive until fresh()

    worker.fresh()
    after = _probe(worker, 2)
    assert worker.launches == 1  # the same sandbox: a child of the same zygote
    assert after["zygote"] == planted["zygote"]
    assert after["files"] == [] and after["cwd"] == []
    assert after["segments"] == [] and after["shmget"] == -1 and after["queue"] == -1
    assert after["others"] == []


def test_a_child_cannot_read_or_trace_the_zygote(worker):
    found = _probe(worker, 4)
    assert found["ptrace"] == -1 and found["ptrace_errno"] in (1, 13)  # EPERM / EACCES
    assert all(value != "read" and not isinstance(value, list) for key, value in found.items()
               if key.startswith("/proc") or key == "fd"), found
    worker.fresh()
    assert worker.launches == 1  # the zygote lived on
    assert _probe(worker, 2)["others"] == []


def test_killing_the_zygote_gains_nothing(worker):
    worker.load(DEALT)
    with pytest.raises(WorkerError) as raised:
        worker.call("can_pick_up", ["t1", 3])
    assert raised.value.kind == "crashed"
    worker.fresh()  # the sandbox is gone: a full restart
    assert worker.load_failure is None and worker.launches == 1
    after = _probe(worker, 2)
    assert after["others"] == [] and after["files"] == []
    worker.fresh()
    assert worker.launches == 1 and _probe(worker, 2)["others"] == []


def test_the_restart_cap_counts_within_one_trace(tmp_path, isolation):
    """A trace whose worker crashed once (the sandbox launched again) hands no launches on to the
    next trace: with a cap of one restart, the next trace's own first crash is restarted too, as
    the layers that launch a new sandbox per trace do (before: "giving up" at once)."""
    if isolation.name != "bwrap":
        pytest.skip("the zygote runs under bwrap only")
    rules = tmp_path / "scorpion.py"
    rules.write_text((ATTACKS / "_prelude.py").read_text() + "\n" + PROBE)
    made = SandboxWorker(rules, Limits(call_s=3.0, startup_s=10.0, wall_s=60.0, max_restarts=1))
    try:
        made.launch()
        for _trace in range(2):
            made.load(DEALT)
            with pytest.raises(WorkerError) as raised:
                made.call("can_pick_up", ["t1", 3])  # kills the zygote: the sandbox is gone
            assert raised.value.kind == "crashed"
            made.load(DEALT)  # launched again within the trace
            assert made.call("can_pick_up", ["t1", 7]) is False and made.launches == 2
            made.fresh()  # the next trace: a fresh child of the new zygote
            assert made.launches == 1
        assert made.relaunches == 2
    finally:
        made.close()


def test_a_stale_handshake_is_not_taken_for_the_next_childs(worker):
    worker.load(DEALT)
    assert worker.call("can_pick_up", ["t1", 5]) is True
    time.sleep(0.8)  # the fake lines are in the reply pipe now
    worker.fresh()
    assert worker.load_failure is None
    assert worker.launches == 1  # taken by the zygote path, not hidden by a full restart
    assert _probe(worker, 2)["others"] == []


def test_a_child_asked_ahead_finds_nothing_either(worker):
    """fresh_ahead() (the suite asks for the next trace's child as a trace ends) kills, wipes and
    forks as fresh() does; a request sent before fresh() goes to the new child, not the old one."""
    planted = _probe(worker, 1)
    assert _probe(worker, 2)["files"]  # the planted files are there until the next child
    worker.fresh_ahead()
    worker.fresh_ahead()  # asking twice starts one child, not two
    worker.fresh()
    after = _probe(worker, 2)
    assert worker.launches == 1 and after["zygote"] == planted["zygote"]
    assert after["files"] == [] and after["cwd"] == []
    assert after["segments"] == [] and after["shmget"] == -1 and after["queue"] == -1
    assert after["others"] == []
    _probe(worker, 1)
    worker.fresh_ahead()
    after = _probe(worker, 2)  # no fresh(): the request itself waits for the new child
    assert worker.launches == 1 and after["files"] == [] and after["others"] == []


def test_the_two_sandboxes_of_a_submission_share_nothing(tmp_path, isolation):
    """The suite's two sandboxes serve the traces in turn: while a child of one holds files, a
    segment, a queue and a detached process, a child of the other finds none of them; and the
    first sandbox's next child (asked for ahead as the trace ended) finds nothing either."""
    if isolation.name != "bwrap":
        pytest.skip("the zygote runs under bwrap only")
    rules = tmp_path / "scorpion.py"
    rules.write_text((ATTACKS / "_prelude.py").read_text() + "\n" + PROBE)
    factory = SandboxFactory(rules, LIMITS)
    workers = ZygoteWorkers(factory, sandboxes=2)
    workers.remaining = 4
    try:
        first = workers()
        planted = _probe(first, 1)
        assert _probe(first, 2)["files"]  # still there in this sandbox
        second = workers()  # the other sandbox, while the first child and its sleeper live
        seen = _probe(second, 2)
        assert seen["files"] == [] and seen["cwd"] == [] and seen["others"] == []
        assert seen["segments"] == [] and seen["shmget"] == -1 and seen["queue"] == -1
        if isolation.as_root:
            assert seen["uid"] != planted["uid"]  # a uid of its own: no signal reaches the other
        first.close()  # asks the first sandbox for its next child now
        second.close()
        third = workers()  # the first sandbox again: a fresh child
        after = _probe(third, 2)
        assert after["files"] == [] and after["cwd"] == [] and after["others"] == []
        assert after["segments"] == [] and after["shmget"] == -1 and after["queue"] == -1
        assert [worker.launches for worker in workers.workers] == [1, 1]  # no full restart
    finally:
        workers.close()


def _child_cpus(worker: SandboxWorker, wanted: list[int]) -> list[int]:
    """The child's CPUs, asked until they are ``wanted`` (the zygote pins the child a moment
    after the pin line is written) or for 2 s."""
    give_up = time.monotonic() + 2.0
    while True:
        cpus = _probe(worker, 6)["cpus"]
        if cpus == wanted or time.monotonic() > give_up:
            return cpus
        time.sleep(0.02)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="pinning needs two CPUs")
def test_colocate_pins_this_thread_and_the_current_child_only(worker):
    mask = os.sched_getaffinity(0)
    pinned = worker.colocate()
    assert pinned is not None and pinned.mask == mask
    try:
        here = os.sched_getaffinity(0)
        assert len(here) == 1  # this thread, on the CPU it ran on
        assert _child_cpus(worker, sorted(here)) == sorted(here)  # the child beside it
    finally:
        affinity.restore(pinned)
    assert os.sched_getaffinity(0) == mask
    worker.fresh()  # the zygote itself was never pinned: its next child has every CPU
    assert worker.launches == 1
    assert _probe(worker, 6)["cpus"] == sorted(mask)


def test_a_malformed_pin_line_leaves_the_zygote_serving(worker):
    process = worker._process
    assert process is not None and process.control_fd is not None
    for line in (b'{"pin": "x"}\n', b'{"pin": 99999}\n', b'{"pin": [1]}\n', b'{"pin"\n'):
        os.write(process.control_fd, line)
    worker.fresh()
    assert worker.launches == 1  # the zygote path still served the fresh child
    assert _probe(worker, 2)["others"] == []


def test_the_zygote_imports_the_solver_modules_once_for_every_child(tmp_path, isolation):
    """Engine modules a rules file may import for its solver hint are loaded by the zygote before
    any student code (trusted code: the grader's engine copy), so a child finds them loaded."""
    rules = tmp_path / "sub" / "scorpion.py"
    rules.parent.mkdir()
    source = (Path(__file__).resolve().parents[2] / "reference" / "scorpion.py").read_text()
    head, rest = source.split("from __future__ import annotations\n", 1)
    rules.write_text(head + "from __future__ import annotations\nimport sys as _sys\n"
                     "_LOADED = [m for m in ('solitaire.solver', 'solitaire.solver_dead')"
                     " if m in _sys.modules]\n"
                     "assert len(_LOADED) == 2, _LOADED\n" + rest)
    with SandboxWorker(rules, LIMITS) as worker:
        worker.load(DEALT)
        assert worker._process is not None and worker._process.control_fd is not None  # the zygote's child
        worker.fresh()
        worker.load(DEALT)
        assert worker.won() is False
        assert worker.launches == 1


def test_the_children_after_the_first_run_the_rules_file_compiled_once_by_the_zygote(tmp_path, isolation):
    """From the second child on, the zygote hands its children the rules file compiled once (after
    the first child has loaded it); the module is the same (its file, its line numbers)."""
    rules = tmp_path / "sub" / "scorpion.py"
    rules.parent.mkdir()
    source = (Path(__file__).resolve().parents[2] / "reference" / "scorpion.py").read_text()
    rules.write_text(source + "\n\nimport __main__ as _entry\nimport sys as _sys\n"
                     "_FROM_ZYGOTE = _entry._RULES_CODE is not None\n\n\n"
                     "def _is_won(self, state):\n"
                     "    raise RuntimeError(f'{_FROM_ZYGOTE} {__file__} {_sys._getframe().f_lineno}')\n\n\n"
                     "Scorpion.is_won = _is_won\n")
    lines = rules.read_text().splitlines()
    raising = next(n for n, line in enumerate(lines, 1) if "raise RuntimeError(" in line)
    messages = []
    with SandboxWorker(rules, LIMITS) as worker:
        for child in range(3):
            if child:
                worker.fresh()
            worker.load(DEALT)
            with pytest.raises(WorkerError) as caught:
                worker.won()
            messages.append(str(caught.value))
        assert worker._process is not None and worker._process.control_fd is not None  # the zygote's
        assert worker.launches == 1
    first = messages[0].replace("False /", "True /")
    assert f"False /sandbox/rules/scorpion.py {raising}" in messages[0]  # compiled by the child itself
    assert messages[1:] == [first, first]  # then by the zygote: the same file, the same line


def _descendants(root_pid: int) -> set[int]:
    """The processes below ``root_pid`` now (by their parent pids in /proc)."""
    parents = {pid: int(fields.get("PPid", "0")) for pid, fields in process_status().items()}
    found, frontier = set(), {root_pid}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="traces are replayed ahead only with two CPUs")
def test_the_process_replaying_ahead_has_its_own_sandbox_and_leaves_nothing(tmp_path, isolation, monkeypatch):
    """With replays ahead (grader/suite/ahead.py) the suite keeps one sandbox and a forked process
    launches the second. It launches under its own name in the submission's directory (the two
    once both wrote ``bwrap-options-1``, and the second sandbox never came up), replays a trace,
    and at the end exits, reaped, with no process of either sandbox left."""
    if isolation.name != "bwrap":
        pytest.skip("the zygote runs under bwrap only")
    from grader.grade import graded_traces
    from grader.suite import warm

    monkeypatch.setenv("SOLITAIRE_SUITE_AHEAD", "1")
    monkeypatch.setenv("SOLITAIRE_SUITE_SANDBOXES", "2")
    rules = tmp_path / "bismarck.py"
    rules.write_text((Path(__file__).resolve().parents[2] / "reference" / "bismarck.py").read_text())
    workers = warm.prelaunch(str(rules), None)
    try:
        assert isinstance(workers, ZygoteWorkers) and len(workers.workers) == 1
        ahead = workers.ahead
        assert ahead is not None and ahead.ready()
        assert workers._launched[0].wait(timeout=15)  # the suite's own sandbox is up too
        trace = graded_traces("bismarck")[0]
        checks, usable, _spent = ahead.replay(trace, frozenset(), 20.0, 0.0)
        assert usable and checks and all(check.ok for check in checks)
        below_ahead = _descendants(ahead.pid)
        own = workers.workers[0]._process.popen.pid
        below_suite = {own} | _descendants(own)
        assert below_ahead and not below_ahead & below_suite  # its own sandbox, and the suite's
    finally:
        workers.close()
    ahead.close().join(timeout=15)
    for thread in threading.enumerate():
        if thread.name == "sandbox-cleanup":
            thread.join(timeout=15)
    with pytest.raises(ChildProcessError):
        os.waitpid(ahead.pid, os.WNOHANG)
    give_up = time.monotonic() + 5.0
    while True:  # (only the pids of the two sandboxes: other tests' leftovers are not this one's)
        table = process_status()
        left = {pid: table[pid] for pid in sorted(below_ahead | below_suite)
                if pid in table and not table[pid].get("State", "").startswith("Z")}
        if not left or time.monotonic() > give_up:
            break
        time.sleep(0.05)
    assert left == {}, f"the ahead process's sandbox: {sorted(below_ahead)}"
