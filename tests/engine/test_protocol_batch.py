"""The batch request: equivalence with single requests, errors inside a batch, strict checks of
batch replies, and a replay that sends each step ahead in batches making the very same checks."""

import json

import pytest

from solitaire import catalog, format_state, new_game, shuffled_deck
from solitaire.protocol import MAX_BATCH, LocalWorker, Session, Worker, WorkerError, checked_value
from solitaire.replay import Replay, planned

SCORPION = catalog.load("scorpion")
CARDS = [str(c) for c in shuffled_deck(SCORPION, 3)]
DEALT = format_state(new_game(SCORPION, 3))

SCRIPT = [
    {"op": "state"},  # no game yet: an error
    {"op": "start", "cards": CARDS, "options": {}},
    {"op": "legal", "move": "t1>t2"},
    {"op": "legal", "move": "deal"},
    {"op": "moves"},
    {"op": "call", "method": "can_pick_up", "args": ["t5", 1]},
    {"op": "call", "method": "tableau_accepts", "args": ["t4", ["6S"], "t7"]},
    {"op": "call", "method": "special_moves", "args": []},
    {"op": "call", "method": "nonsense", "args": []},  # an error
    {"op": "apply", "move": "deal", "stage": "move"},
    {"op": "apply", "move": "deal", "stage": "effects"},
    {"op": "won"},
    {"op": "load", "state": DEALT},
    {"op": "apply", "move": "t7>t1", "stage": "full"},
    {"op": "load", "state": "not a state"},  # an error
    {"op": "state"},
    {"op": "teleport"},  # an error
    {"op": "call", "method": "is_won", "args": []},
]


def _singles(variation, script):
    session = Session(variation)
    return [json.loads(json.dumps(session.handle(dict(m)))) for m in script]


def test_a_batch_answers_exactly_what_single_requests_answer():
    singles = _singles(SCORPION, SCRIPT)
    assert [r["ok"] for r in singles].count(False) == 4  # the script does hit errors
    reply = Session(SCORPION).handle({"op": "batch", "requests": [dict(m) for m in SCRIPT]})
    assert reply == {"ok": True, "replies": singles}
    assert LocalWorker(SCORPION).batch(SCRIPT) == singles


class RaisingScorpion(type(SCORPION)):
    def is_won(self, state):
        raise ValueError("not today")

    def can_pick_up(self, state, pile, count):
        if pile == "t3":
            return 1  # not a bool
        return super().can_pick_up(state, pile, count)


def test_errors_inside_a_batch_stop_nothing():
    messages = [
        {"op": "start", "cards": CARDS, "options": {}},
        {"op": "won"},
        {"op": "call", "method": "can_pick_up", "args": ["t3", 1]},
        "not an object",
        {"op": "batch", "requests": [{"op": "state"}]},
        {"op": "call", "method": "can_pick_up", "args": ["t5", 1]},
        {"op": "state"},
    ]
    replies = LocalWorker(RaisingScorpion()).batch(messages)
    assert len(replies) == len(messages)
    assert replies[1] == {"ok": False, "error": "ValueError", "message": "not today", "method": "is_won"}
    assert replies[2]["ok"] is False and replies[2]["error"] == "TypeError"
    assert replies[3]["ok"] is False and "JSON object" in replies[3]["message"]
    assert replies[4]["ok"] is False and "cannot hold another batch" in replies[4]["message"]
    assert checked_value(replies[5], bool) is True
    assert replies[6] == {"ok": True, "state": replies[0]["state"]}
    with pytest.raises(WorkerError) as caught:
        checked_value(replies[1], bool)
    assert caught.value.kind == "error" and caught.value.method == "is_won"


def test_a_batch_must_be_a_list_of_at_most_max_batch_requests():
    session = Session(SCORPION)
    assert session.handle({"op": "batch"})["ok"] is False
    too_many = session.handle({"op": "batch", "requests": [{"op": "won"}] * (MAX_BATCH + 1)})
    assert too_many["ok"] is False and str(MAX_BATCH) in too_many["message"]


def test_worker_batch_splits_long_lists():
    worker = LocalWorker(SCORPION)
    worker.start(CARDS, {})
    replies = worker.batch([{"op": "call", "method": "can_pick_up", "args": ["t5", 1]}] * (2 * MAX_BATCH + 3))
    assert len(replies) == 2 * MAX_BATCH + 3 and all(r == {"ok": True, "value": True} for r in replies)
    assert worker.batch([]) == []


class Canned(Worker):
    """Answers every request with one fixed (possibly malformed) reply."""

    def __init__(self, reply):
        self.reply = reply

    def request(self, message):
        return self.reply


@pytest.mark.parametrize("reply, words", [
    ({"ok": True}, "without a list"),
    ({"ok": True, "replies": {"0": {"ok": True}}}, "without a list"),
    ({"ok": True, "replies": [{"ok": True}]}, "2 requests answered with 1"),
    ({"ok": True, "replies": [{"ok": True}] * 3}, "2 requests answered with 3"),
    ({"ok": True, "replies": [{"ok": True}, "yes"]}, "not a JSON object"),
    ({"ok": True, "replies": [{"ok": True}, {"value": True}]}, "not a JSON object with ok"),
    ({"ok": True, "replies": [{"ok": True}, {"ok": 1}]}, "not a JSON object with ok"),
    ({"ok": True, "replies": [None, {"ok": True}]}, "not a JSON object"),
    ({"replies": [{"ok": True}, {"ok": True}]}, "reply without ok"),
])
def test_a_malformed_batch_reply_is_a_protocol_error(reply, words):
    with pytest.raises(WorkerError) as caught:
        Canned(reply).batch([{"op": "won"}, {"op": "won"}])
    assert caught.value.kind == "protocol" and words in str(caught.value)
    # the replies before a malformed one are kept; the failure belongs to the bad one
    bad = next((i for i, r in enumerate(reply.get("replies") or []) if not isinstance(r, dict)
                or type(r.get("ok")) is not bool), 0)
    if isinstance(reply.get("replies"), list) and len(reply["replies"]) == 2:
        assert caught.value.answered == reply["replies"][:bad]
    else:
        assert caught.value.answered == []


def test_a_failed_batch_is_an_error_of_its_worker():
    reply = {"ok": False, "error": "ValueError", "message": "unknown op 'batch'"}
    with pytest.raises(WorkerError) as caught:
        Canned(reply).batch([{"op": "won"}])
    assert caught.value.kind == "error" and caught.value.answered == []


# -- the replay sends each step ahead, and still makes exactly the same checks --------------------

BASE = type(SCORPION)


class WrongSpace(BASE):
    def space_accepts(self, state, pile, cards, source):
        return cards[0].rank >= 12  # a queen too: legal-move sets differ, blamed by can_pick_up calls


class RaisingAccept(BASE):
    def tableau_accepts(self, state, pile, cards, source):
        if pile in ("t3", "t6"):
            raise KeyError(pile)
        return super().tableau_accepts(state, pile, cards, source)


class MutatingPickUp(BASE):
    """Changes the state it is asked about (a bug the replay must survive the same way)."""

    def can_pick_up(self, state, pile, count):
        answer = super().can_pick_up(state, pile, count)
        if pile == "t2" and count == 2 and state.is_empty("t7") is False:
            state.put("t7", state.take("t7"), face_up=False)
        return answer


class WrongEffects(BASE):
    def after_move(self, state, move):
        super().after_move(state, move)
        if state.is_empty("t4"):
            state.put("t4", state.take("t5"))


class RaisingWon(BASE):
    def is_won(self, state):
        if state.is_empty("t1"):
            raise RuntimeError("empty t1")
        return super().is_won(state)


class WrongSpecial(BASE):
    def special_moves(self, state):
        return []  # no deal ever


class Stubs(BASE):
    """The starter: every rule a stub, so every request but a load fails and is followed by a resync."""

    def _stub(self, *args):
        raise NotImplementedError("write this rule")

    deal = can_pick_up = tableau_accepts = space_accepts = special_moves = _stub
    apply_special = after_move = is_won = _stub


class MostlyRaising(Stubs):
    """Stubs, but ``can_pick_up`` answers for t1 after changing the state, and ``after_move`` works
    for moves to a foundation: the resyncs sent ahead behind requests expected to fail are
    sometimes not needed, and must then leave the state as the request left it."""

    def can_pick_up(self, state, pile, count):
        if pile != "t1":
            raise NotImplementedError("write this rule")
        if not state.is_empty("t7"):
            state.put("t6", state.take("t7"))
        return BASE.can_pick_up(self, state, pile, count)

    def after_move(self, state, move):
        if not move.target.startswith("f"):
            raise NotImplementedError("write this rule")
        BASE.after_move(self, state, move)


BUGS = [BASE, WrongSpace, RaisingAccept, MutatingPickUp, WrongEffects, RaisingWon, WrongSpecial, Stubs,
        MostlyRaising]


@pytest.fixture(scope="module")
def scorpion_traces():
    from grader.traces.build import hidden_traces

    return hidden_traces("scorpion")


class Counting(Worker):
    """Counts round trips (``requests``) and the requests answered, inside batches too (``answered``)."""

    def __init__(self, inner):
        self.inner = inner
        self.requests = 0
        self.answered = 0

    def request(self, message):
        self.requests += 1
        self.answered += len(message["requests"]) if message["op"] == "batch" else 1
        return self.inner.request(message)


@pytest.mark.parametrize("bug", BUGS, ids=lambda b: b.__name__)
def test_a_batched_replay_makes_the_same_checks(bug, scorpion_traces):
    batched_requests = single_requests = answered = 0
    failed = 0
    for trace in scorpion_traces:
        single, batched = Counting(LocalWorker(bug())), Counting(LocalWorker(bug()))
        one_by_one = list(Replay(trace, single, batch=False).checks())
        ahead = list(Replay(trace, batched).checks())
        assert ahead == one_by_one, trace["name"]
        single_requests += single.requests
        batched_requests += batched.requests
        answered += batched.answered
        failed += sum(not c.ok for c in ahead)
    assert (failed == 0) == (bug is BASE)
    # fewer round trips (up to three rounds a step, so that nothing sent reveals an answer still
    # to be asked; a request expected to fail travels with its resync, so the starter too); and
    # what is answered in vain (after a resync) stays bounded
    assert batched_requests < (0.2 if bug is Stubs else 0.4) * single_requests
    assert answered < 2 * single_requests


class TimesOut(Worker):
    """A worker that times out on the first request (single or inside a batch) asking ``op``.

    In a batch it answers the requests before that one, as the sandbox does.
    """

    def __init__(self, variation, op, state):
        self.inner = LocalWorker(variation)
        self.op = op
        self.state = state

    def _fails(self, message):
        if message.get("op") == self.op and not self.state["failed"]:
            self.state["failed"] = True
            return True
        return False

    def request(self, message):
        if message.get("op") != "batch":
            if self._fails(message):
                raise WorkerError("timeout", f"your code did not answer within 2 s ({self.op})")
            return self.inner.request(message)
        answered = []
        for inner in message["requests"]:
            if self._fails(inner):
                raise WorkerError("timeout", f"your code did not answer within 2 s ({self.op})",
                                  answered=answered)
            answered.append(self.inner.request(inner))
        return {"ok": True, "replies": answered}


@pytest.mark.parametrize("op", ["moves", "won", "apply", "call", "legal"])
def test_a_failure_inside_a_batch_fails_the_same_check(op, scorpion_traces):
    trace = max(scorpion_traces, key=lambda t: len(t["steps"]))
    results = []
    for batch in (False, True):
        state = {"failed": False}
        made = []

        def factory(state=state, made=made):
            made.append(TimesOut(SCORPION, op, state))
            return made[-1]

        checks = list(Replay(trace, factory, batch=batch).checks())
        assert len(made) == 2 and state["failed"]  # the worker timed out once and was replaced
        results.append(checks)
    assert results[0] == results[1]
    failed = [c for c in results[1] if not c.ok]
    # the method that hung is not asked again: its later checks fail too, no other method's
    assert len({c.category for c in failed}) <= 1 and len(results[1]) == sum(planned(trace).values())
    assert all("did not answer" in c.message or "not asked" in c.message for c in failed)


class Watching(Worker):
    """Records every state the worker has been sent or has answered, and checks that each resync
    sent ahead carries only such a state (a batch may reveal no answer still to be asked)."""

    def __init__(self, inner):
        self.inner = inner
        self.known = set()
        self.resyncs = 0

    def request(self, message):
        inner = message["requests"] if message["op"] == "batch" else [message]
        for request in inner:
            if request.get("resync"):
                assert request["state"] in self.known, "a resync sent ahead revealed a new state"
                self.resyncs += 1
        reply = self.inner.request(message)
        replies = reply["replies"] if message["op"] == "batch" else [reply]
        self.known.update(r["state"] for r in inner if r.get("op") == "load")
        self.known.update(r["state"] for r in replies if "state" in r)
        return reply


@pytest.mark.parametrize("bug", [Stubs, MostlyRaising, WrongEffects], ids=lambda b: b.__name__)
def test_a_resync_sent_ahead_reveals_nothing_new(bug, scorpion_traces):
    """Only the state a step started in travels ahead: never a deal's layout or a state after a
    move, which would answer a question of the same batch."""
    sent = 0
    for trace in scorpion_traces:
        worker = Watching(LocalWorker(bug()))
        list(Replay(trace, worker).checks())
        sent += worker.resyncs
    assert sent > 0 or bug is WrongEffects
