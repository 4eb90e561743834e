"""The worker process: runs INSIDE the sandbox, the only code there besides the student's.

Started by :mod:`grader.sandbox.worker` as ``python -I -S -B -u entry.py CONFIG``
where CONFIG is one JSON argument. It imports nothing from ``grader`` (it
runs on its own copy of this file, outside any package) and only the
standard library until it has hardened itself:

1. sets its resource limits (hard and soft, so student code cannot raise them);
2. when started as root, drops to the sandbox uid/gid with no supplementary
   groups and checks that root cannot be regained;
3. (plain isolation only) asks for SIGKILL when its parent dies;
4. puts the grader's engine copy and the student's rules copy on ``sys.path``,
   loads the rules file with :func:`solitaire.catalog.load_file`;
5. writes the two handshake lines on the reply pipe, both with id 0. The
   first, "ready" (``{"ok": true}``) or ``{"ok": false, "error":
   "SandboxError", ...}``, is written BEFORE any student code runs, so it is
   the only line the trusted side believes about the sandbox itself: whatever
   a submission writes (on any fd) comes after it. The second is the load
   result: ``{"ok": true}`` or, when the rules file cannot be loaded,
   ``{"ok": false, "error": .., "message": ..}`` and exit;
6. answers one JSON line on the reply pipe per JSON line read from the
   request pipe, with :meth:`solitaire.protocol.Session.handle`; each line
   carries the request's ``"id"`` (0 for the handshake), checked and removed
   by the trusted side. A ``batch`` request is answered with one line per
   inner request, as soon as it is answered, each carrying the batch's id and
   ``"part"``, the inner request's index: the trusted side gives every inner
   request its own deadline and knows which one a timeout or crash belongs to.

Student prints go to fd 1/2, which the trusted side captures separately; the
protocol uses only the two pipe fds named in CONFIG.
"""

import json
import os
import sys

LOAD_FAILED_STATUS = 3
# Standard modules a rules file may reasonably use, imported before the uid drop.
PRELOADED = ("collections", "copy", "dataclasses", "enum", "functools", "itertools", "math", "operator",
             "random", "re", "string", "typing")


def _write_line(fd: int, reply: dict, request_id: object = 0, part: object = None) -> None:
    reply["id"] = request_id
    if part is not None:
        reply["part"] = part
    try:
        text = json.dumps(reply, allow_nan=False)
    except (TypeError, ValueError) as error:
        text = json.dumps({"ok": False, "error": "TypeError", "message": f"reply is not JSON: {error}",
                           "id": request_id})
    data = (text + "\n").encode("utf-8")
    while data:
        written = os.write(fd, data)
        data = data[written:]


def _exit(status: int) -> None:
    """Leave at once (no atexit handlers of student code), keeping what was printed."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001 - a closed or replaced stream
            pass
    os._exit(status)


def _apply_rlimits(rlimits: dict) -> None:
    import resource

    for name, (soft, hard) in rlimits.items():
        resource.setrlimit(getattr(resource, "RLIMIT_" + name.upper()), (soft, hard))


def _drop_privileges(uid: int | None, gid: int | None) -> None:
    if uid is None or gid is None:
        return
    if os.geteuid() != 0:
        if os.getresuid() != (uid, uid, uid):
            raise RuntimeError(f"cannot switch to the sandbox uid {uid} (not root)")
        return
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.getresuid() != (uid, uid, uid) or os.getresgid() != (gid, gid, gid) or os.getgroups():
        raise RuntimeError("privileges were not dropped")
    try:
        os.setuid(0)
    except PermissionError:
        return
    raise RuntimeError("root could be regained after dropping privileges")


def _die_with_parent() -> None:
    import ctypes
    import signal

    libc = ctypes.CDLL(None, use_errno=True)
    pr_set_pdeathsig = 1
    libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() == 1:  # the parent is already gone
        os._exit(1)


def _student_line(error: BaseException, rules_file: str) -> str:
    """The line of the rules file where ``error`` happened, as ' (line N)', or ''."""
    if isinstance(error, SyntaxError) and error.lineno:
        return f" (line {error.lineno})"
    line = 0
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == rules_file:
            line = tb.tb_lineno
        tb = tb.tb_next
    return f" (line {line})" if line else ""


def _load_message(error: BaseException, rules_file: str) -> str:
    name = os.path.basename(rules_file)
    where = _student_line(error, rules_file)
    if isinstance(error, SystemExit):
        return f"{name} called exit() while loading{where}"
    if isinstance(error, SyntaxError):
        return f"{name} has a syntax error{where}: {error.msg}"
    try:
        text = str(error).replace(os.path.dirname(rules_file) + os.sep, "")
    except BaseException:  # noqa: BLE001 - a hostile __str__ (the trusted side sanitises the rest)
        text = "(an exception whose message cannot be shown)"
    return f"{name} could not be loaded{where}: {type(error).__name__}: {text}"[:500]


def main() -> None:
    config = json.loads(sys.argv[1])
    request_fd, reply_fd = config["request_fd"], config["reply_fd"]
    try:
        _apply_rlimits(config["rlimits"])
        rules_file = config["rules_file"]
        sys.path[:] = [p for p in sys.path if p] + [config["engine_dir"], os.path.dirname(rules_file)]
        # Trusted imports first: under the plain layer the Python installation may not be
        # readable by the sandbox uid (e.g. under /root); what is loaded now stays usable
        # (the other layers mount it readable).
        from solitaire import catalog
        from solitaire.protocol import Session, batch_requests

        if config.get("preload"):
            for name in PRELOADED:
                __import__(name)
        if config.get("parent_death"):
            import ctypes  # noqa: F401 - needed after the drop
            import signal  # noqa: F401
        _drop_privileges(config.get("uid"), config.get("gid"))
        if config.get("parent_death"):
            _die_with_parent()
        os.umask(0o077)
        os.chdir(config["work_dir"])
        sys.argv[:] = [rules_file]
    except BaseException as error:  # noqa: BLE001 - the sandbox itself failed: say so and stop
        _write_line(reply_fd, {"ok": False, "error": "SandboxError", "message": f"sandbox setup: {error!r}"})
        os._exit(LOAD_FAILED_STATUS)
    _write_line(reply_fd, {"ok": True})  # ready: the last line written before student code runs

    try:
        variation = catalog.load_file(rules_file)
    except BaseException as error:  # noqa: BLE001 - any failure at import is the student's
        _write_line(reply_fd, {"ok": False, "error": type(error).__name__,
                               "message": _load_message(error, rules_file)})
        _exit(LOAD_FAILED_STATUS)

    session = Session(variation)
    _write_line(reply_fd, {"ok": True})
    requests = os.fdopen(request_fd, "rb", buffering=64 * 1024)
    for line in requests:
        request_id = None
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("a request must be a JSON object")
            request_id = request.pop("id", None)
            if request.get("op") == "batch":
                _answer_batch(session, batch_requests(request), reply_fd, request_id)
                continue
            reply = session.handle(request)
        except BaseException as error:  # noqa: BLE001 - SystemExit etc. from student code fail the request
            reply = _error_reply(error, variation)
        _write_line(reply_fd, reply, request_id)
    _exit(0)


def _error_reply(error: BaseException, variation) -> dict:
    """The protocol's error reply, even for an exception whose ``__str__`` raises."""
    from solitaire.protocol import error_reply

    try:
        return error_reply(error, variation)
    except BaseException:  # noqa: BLE001 - student code again
        return {"ok": False, "error": type(error).__name__,
                "message": "(an exception whose message cannot be shown)"}


def _answer_batch(session, requests: list, reply_fd: int, request_id: object) -> None:
    """One line per inner request of a batch, written as soon as it is answered."""
    for part, request in enumerate(requests):
        try:
            reply = session.handle_inner(request)
        except BaseException as error:  # noqa: BLE001 - as for a single request
            reply = _error_reply(error, session.variation)
        _write_line(reply_fd, reply, request_id, part)


if __name__ == "__main__":
    main()
