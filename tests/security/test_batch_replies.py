"""Batches through the sandbox: answered as in-process, and a worker that forges its batch answers
(too few, too many, not objects, without ok, one line for all) breaks the protocol."""

from __future__ import annotations

import pytest
from security_support import CARDS, DEALT, SCORPION, reference_copy

from grader.sandbox import Limits, SandboxWorker
from grader.sandbox.channel import Broken, check_reply
from solitaire.protocol import LocalWorker, WorkerError

QUICK = Limits(call_s=1.0, startup_s=10.0, wall_s=30.0)

SCRIPT = [
    {"op": "start", "cards": CARDS, "options": {}},
    {"op": "legal", "move": "t1>t2"},
    {"op": "call", "method": "can_pick_up", "args": ["t5", 1]},
    {"op": "call", "method": "nonsense", "args": []},
    {"op": "apply", "move": "deal", "stage": "full"},
    {"op": "moves"},
    {"op": "load", "state": DEALT},
    {"op": "won"},
]


def test_a_sandboxed_batch_answers_as_in_process(isolation, tmp_path):
    with SandboxWorker(reference_copy(tmp_path / "sub"), QUICK) as worker:
        assert worker.batch(SCRIPT) == LocalWorker(SCORPION).batch(SCRIPT)
        assert worker.won() is False  # the channel is in step after the batch


# The reference, then a replacement of the worker's batch answering (the entry script is __main__).
FORGER = '''

import __main__ as _entry
import json as _json
import os as _os

MODE = "@MODE@"


def _forged(session, requests, reply_fd, request_id):
    def line(part, **reply):
        reply.update(id=request_id, part=part)
        return _json.dumps(reply) + "\\n"

    good = [line(k, ok=True, value=True) for k in range(len(requests))]
    if MODE == "fewer":  # one answer short, then an answer out of place
        text = "".join(good[:-1]) + line(len(requests) - 2, ok=True, value=True)
    elif MODE == "silent":  # one answer short, then nothing
        text = "".join(good[:-1])
    elif MODE == "more":
        text = "".join(good) + line(len(requests), ok=True, value=True)
    elif MODE == "not-object":
        text = "".join(good[:2]) + _json.dumps([True, request_id]) + "\\n"
    elif MODE == "no-ok":
        text = "".join(good[:1]) + line(1, value=True)
    elif MODE == "one-line":
        replies = [{"ok": True, "value": True} for _ in requests]
        text = _json.dumps({"ok": True, "replies": replies, "id": request_id}) + "\\n"
    _os.write(reply_fd, text.encode())


_entry._answer_batch = _forged
'''


def _forger(tmp_path, mode):
    path = reference_copy(tmp_path / mode)
    path.write_text(path.read_text() + FORGER.replace("@MODE@", mode))
    return path


PROBES = [{"op": "won"}] * 4


@pytest.mark.parametrize("mode, answered", [
    ("fewer", 3), ("more", 4), ("not-object", 2), ("no-ok", 1), ("one-line", 0),
])
def test_forged_batch_answers_break_the_protocol(isolation, tmp_path, mode, answered):
    with SandboxWorker(_forger(tmp_path, mode), QUICK) as worker:
        worker.load(DEALT)
        with pytest.raises(WorkerError) as caught:
            worker.batch(PROBES)
            worker.won()  # surplus lines that came late are caught by the next request at the latest
        error = caught.value
        assert error.kind == "protocol", error
        assert "broke the answer channel" in str(error)
        assert len(error.answered) == (answered if mode != "more" else len(error.answered))
        assert all(reply == {"ok": True, "value": True} for reply in error.answered)
        assert worker.launches == 1
        worker.load(DEALT)  # the worker was killed; the next request starts a fresh one
        assert worker.launches == 2


def test_a_batch_answered_in_part_times_out_on_the_first_unanswered(isolation, tmp_path):
    with SandboxWorker(_forger(tmp_path, "silent"), QUICK) as worker:
        worker.load(DEALT)
        with pytest.raises(WorkerError) as caught:
            worker.batch(PROBES)
        assert caught.value.kind == "timeout" and "in rule is_won" in str(caught.value)
        assert len(caught.value.answered) == len(PROBES) - 1


@pytest.mark.parametrize("line, part", [
    (b'{"ok": true, "value": true, "id": 3}', 0),  # no part
    (b'{"ok": true, "value": true, "id": 3, "part": 1}', 0),  # another part
    (b'{"ok": true, "value": true, "id": 3, "part": "0"}', 0),
    (b'{"ok": true, "value": true, "id": 3, "part": 0}', None),  # part outside a batch
    (b'{"ok": true, "replies": [], "id": 3}', None),
])
def test_check_reply_places_batch_answers_strictly(line, part):
    with pytest.raises(Broken) as caught:
        check_reply(line, expected_id=3, part=part)
    assert caught.value.reason == "protocol"
    good = b'{"ok": true, "value": true, "id": 3, "part": 2}'
    assert check_reply(good, 3, 2) == {"ok": True, "value": True}
