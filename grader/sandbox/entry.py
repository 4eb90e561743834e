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

In zygote mode (CONFIG has ``control_fd``, bwrap layer) steps 1-4 run once without loading the
rules file; then :func:`_zygote` forks, per fresh-child request read on the
control pipe, a child that closes the control pipe and does steps 5-6 (its "ready" line also
carries the nonce of the request), after killing every other process of the namespace and
wiping what the previous child left.

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

# Engine modules rules files import besides what the protocol needs (a solver hint's helpers):
# the zygote imports them once, before any student code, so that no child pays for it.
ZYGOTE_PRELOADED = ("solitaire.solver", "solitaire.solver_dead")

# one encoder for every reply (json.dumps with an argument would build a new one per call)
_ENCODER = json.JSONEncoder(allow_nan=False, separators=(",", ":"))


def _write_line(fd: int, reply: dict, request_id: object = 0, part: object = None) -> None:
    reply["id"] = request_id
    if part is not None:
        reply["part"] = part
    try:
        text = _ENCODER.encode(reply)
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
    control_fd = config.get("control_fd")
    try:
        _apply_rlimits(config["rlimits"])
        rules_file = config["rules_file"]
        sys.path[:] = [p for p in sys.path if p] + [config["engine_dir"], os.path.dirname(rules_file)]
        # Trusted imports first: under the plain layer the Python installation may not be
        # readable by the sandbox uid (e.g. under /root); what is loaded now stays usable
        # (the other layers mount it readable).
        from solitaire import catalog  # noqa: F401 - imported before any student code
        from solitaire.protocol import Session, batch_requests  # noqa: F401

        if config.get("preload"):
            for name in PRELOADED:
                __import__(name)
        if control_fd is not None:  # once for every child, not once per child (trace)
            for name in ZYGOTE_PRELOADED:
                __import__(name)
        if config.get("parent_death") or control_fd is not None:
            import ctypes  # noqa: F401 - needed after the drop
            import signal  # noqa: F401
        _drop_privileges(config.get("uid"), config.get("gid"))
        if config.get("parent_death"):
            _die_with_parent()
        os.umask(0o077)
        os.chdir(config["work_dir"])
        sys.argv[:] = [rules_file]
        if control_fd is not None:
            _harden_zygote()
    except BaseException as error:  # noqa: BLE001 - the sandbox itself failed: say so and stop
        _write_line(reply_fd, {"ok": False, "error": "SandboxError", "message": f"sandbox setup: {error!r}"})
        os._exit(LOAD_FAILED_STATUS)
    if control_fd is None:
        _write_line(reply_fd, {"ok": True})  # ready: the last line written before student code runs
        _serve(rules_file, request_fd, reply_fd)
    nonce = _zygote(control_fd, request_fd, reply_fd, config["work_dir"], rules_file)  # new children only
    _write_line(reply_fd, {"ok": True, "nonce": nonce})  # the child's ready: no student code ran yet
    _serve(rules_file, request_fd, reply_fd)


def _serve(rules_file: str, request_fd: int, reply_fd: int) -> None:
    """Load the rules file, write the load result, answer requests until the pipe closes; exit."""
    from solitaire import catalog
    from solitaire.protocol import Session, batch_requests

    try:
        variation = catalog.load_file(rules_file, _RULES_CODE)
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


_RULES_CODE = None  # the rules file compiled by the zygote (from its second child on), or None


def _answer_batch(session, requests: list, reply_fd: int, request_id: object) -> None:
    """One line per inner request of a batch, written as soon as it is answered."""
    for part, request in enumerate(requests):
        try:
            reply = session.handle_inner(request)
        except BaseException as error:  # noqa: BLE001 - as for a single request
            reply = _error_reply(error, session.variation)
        _write_line(reply_fd, reply, request_id, part)


# -- the zygote (bwrap layer): one sandbox, a fresh child per trace ---------------------------
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
IPC_RMID = 0
MQUEUE_DIR = "/dev/mqueue"  # (isolation.MQUEUE_DIR: this script imports nothing of the grader)
ZYGOTE_FAILED_STATUS = 4


def _prctl(option: int, value: int) -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option}, {value})")


def _harden_zygote() -> None:
    """Not dumpable (a child of the same uid can neither ptrace it nor open its /proc files), and
    the reaper of every orphan of its children, so that it can wait for all of them."""
    _prctl(PR_SET_DUMPABLE, 0)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)


def _zygote(control_fd: int, request_fd: int, reply_fd: int, work_dir: str, rules_file: str) -> str:
    """Serve fresh-child requests (``{"nonce": ...}`` lines on the control pipe) until it closes.

    For each: kill every other process of the namespace, wipe what they left (the working
    directory /tmp, System V IPC objects, POSIX message queues), drain the request
    pipe, end any partial line a dead child left in the reply pipe, then fork. Returns (the nonce)
    only in the new child, which has closed its copy of the control pipe. Student code never runs
    in this process. A ``{"pin": CPU}`` line pins the current child to that CPU (:func:`_pinned`).
    Before the second child it compiles the rules file once for the children to come
    (:func:`_compiled`).
    """
    global _RULES_CODE
    import select

    control = os.fdopen(control_fd, "rb", buffering=0)
    pending = b""
    child: int | None = None
    child_fd: int | None = None
    forked = 0
    while True:
        while b"\n" not in pending:
            poller = select.poll()
            poller.register(control_fd, select.POLLIN)
            if child_fd is not None:
                poller.register(child_fd, select.POLLIN)
            ready = {fd for fd, _events in poller.poll()}
            if control_fd in ready:
                data = control.read(4096)
                if not data:  # the trusted side is gone or closed the sandbox
                    _kill_others()
                    os._exit(0)
                pending += data
            elif child is not None and child_fd in ready:
                _end_as(child)
        line, pending = pending.split(b"\n", 1)
        if _pinned(line, child):
            continue
        if child_fd is not None:
            os.close(child_fd)
            child = child_fd = None
        try:
            nonce = str(json.loads(line)["nonce"])
            _kill_others()
            _wipe(work_dir)
            _remove_sysv_ipc()
            _remove_message_queues()
            _drain(request_fd)
            if forked == 1:
                _RULES_CODE = _compiled(rules_file)
            os.write(reply_fd, b"\n")
            forked += 1
            pid = os.fork()
            if pid != 0:
                child, child_fd = pid, os.pidfd_open(pid)
        except BaseException as error:  # noqa: BLE001 - the trusted side sees no ready line and restarts
            _write_line(reply_fd, {"ok": False, "error": "SandboxError", "message": f"zygote: {error!r}"})
            os._exit(ZYGOTE_FAILED_STATUS)
        if pid == 0:
            control.close()
            _prctl(PR_SET_CHILD_SUBREAPER, 0)
            _prctl(PR_SET_DUMPABLE, 1)  # as a worker was before: its own /proc files readable
            return nonce


def _compiled(rules_file: str):
    """The rules file compiled as the import system compiles it, or None (then each child compiles
    it itself, as the first one did).

    Only after the first child: it has loaded the file (a load failure is permanent, so the trusted
    side asks no second child of this sandbox), so the same compile of the same read-only file
    under the same limits cannot crash or hang here; whatever it raises anyway (MemoryError ...)
    leaves the children to compile. No student code runs: compiling executes nothing."""
    try:
        import importlib.util
        from pathlib import Path  # (both loaded already, by the engine's catalog)

        spec = importlib.util.spec_from_file_location(Path(rules_file).stem, Path(rules_file))
        if spec is None or spec.origin is None:  # no loader for the file: the children compile
            return None
        with open(spec.origin, "rb") as handle:
            source = handle.read()
        return compile(source, spec.origin, "exec", dont_inherit=True)
    except BaseException:  # noqa: BLE001 - the children compile as before
        return None


def _pinned(line: bytes, child: int | None) -> bool:
    """Whether ``line`` is a ``{"pin": CPU}`` request (the trusted side keeps its thread and the
    current child on one CPU while a trace is replayed, see grader/sandbox/affinity.py); if so,
    pin the child there. Only speed depends on it: a child already gone or a CPU refused is
    ignored. (The child is this process's own, not reaped yet: its pid cannot be another's.)"""
    if not line.startswith(b'{"pin"'):
        return False
    try:
        cpu = json.loads(line)["pin"]
        if child is not None and type(cpu) is int:
            os.sched_setaffinity(child, {cpu})
    except (ValueError, KeyError, TypeError, OSError):
        pass
    return True


def _end_as(child: int) -> None:
    """The child ended by itself (exit, crash, CPU limit): end the sandbox the same way, so that the
    trusted side sees the end of the reply pipe and the child's status, as with a worker of its own
    (the next request then starts a new sandbox)."""
    import signal

    _pid, status = os.waitpid(child, 0)
    _kill_others()
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
        os.kill(os.getpid(), signal.SIGKILL)  # a signal whose default is not to end the process
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else ZYGOTE_FAILED_STATUS)


def _others() -> list[int]:
    me = os.getpid()
    return [int(name) for name in os.listdir("/proc") if name.isdigit() and int(name) not in (1, me)]


def _kill_others() -> None:
    """SIGKILL every process of the namespace but init and this one, until none is left (the
    pids cgroup bounds a fork storm); reap them (orphans come to this subreaper)."""
    import signal
    import time

    for _ in range(10000):
        others = _others()
        for pid in others:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if not others:
            _reap(os.WNOHANG)
            return
        # wait for one of them to end rather than polling (dying takes the kernel a moment), then
        # reap the rest that have ended; list again (a process may have forked before its kill)
        if not _reap(0):
            time.sleep(0.001)  # none is a child yet (an orphan on its way to this subreaper)
    raise RuntimeError("processes of the previous child would not die")


def _reap(first_flags: int) -> bool:
    """Reap ended children: the first wait with ``first_flags`` (0: block until one ends), the
    others without blocking. Whether any child existed."""
    flags = first_flags
    while True:
        try:
            pid, _status = os.waitpid(-1, flags)
        except ChildProcessError:
            return flags != first_flags
        if pid == 0:
            return True
        flags = os.WNOHANG


def _wipe(directory: str) -> None:
    """Remove everything in ``directory`` (the private /tmp), mount points excepted."""
    import stat

    top = os.lstat(directory).st_dev
    for entry in os.scandir(directory):
        info = entry.stat(follow_symlinks=False)
        if info.st_dev != top:
            continue
        if stat.S_ISDIR(info.st_mode):
            os.chmod(entry.path, 0o700)
            _wipe(entry.path)
            os.rmdir(entry.path)
        else:
            os.unlink(entry.path)


def _remove_sysv_ipc() -> None:
    """IPC_RMID every System V shared memory segment, semaphore set and message queue."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    removers = {"shm": lambda i: libc.shmctl(i, IPC_RMID, None),
                "sem": lambda i: libc.semctl(i, 0, IPC_RMID),
                "msg": lambda i: libc.msgctl(i, IPC_RMID, None)}
    for kind, remove in removers.items():
        try:
            with open(f"/proc/sysvipc/{kind}") as table:
                ids = [int(row.split()[1]) for row in table.read().splitlines()[1:] if row.strip()]
        except OSError:
            continue
        for ipc_id in ids:
            if remove(ipc_id) != 0:
                raise OSError(ctypes.get_errno(), f"cannot remove System V {kind} {ipc_id}")


def _remove_message_queues() -> None:
    """Unlink every POSIX message queue of the namespace (bwrap mounts them on /dev/mqueue)."""
    if os.path.isdir(MQUEUE_DIR):
        for name in os.listdir(MQUEUE_DIR):
            os.unlink(os.path.join(MQUEUE_DIR, name))


def _drain(fd: int) -> None:
    """Drop whatever the previous child left unread in the request pipe."""
    os.set_blocking(fd, False)
    try:
        while os.read(fd, 65536):
            pass
    except BlockingIOError:
        pass
    finally:
        os.set_blocking(fd, True)


if __name__ == "__main__":
    main()
