"""The sandboxed worker: the trusted side of :class:`solitaire.protocol.Worker`, one process per worker.

:class:`SandboxWorker` starts ``python -I -S -B -u entry.py`` inside the
strongest isolation layer that works here (see :mod:`.isolation`), waits for
the handshake and then sends one request line and reads one reply line per
:meth:`~SandboxWorker.request`.

Failures always raise :class:`~solitaire.protocol.WorkerError` with a message
a student can act on, never anything else because of the submission:

* ``kind="error"``: student code raised (the reply names the exception and
  the rule method). A :class:`LoadFailure` (a subclass, also ``kind="error"``)
  means the rules file itself could not be used: missing, symlink, too big,
  not UTF-8, syntax error, import error, exit at import, no Variation
  subclass, a crash or hang while loading. It is permanent: every later
  request raises it again at once, so the submission scores 0.
* ``kind="timeout"``: no answer within ``Limits.call_s`` (or the
  submission's whole ``Limits.wall_s`` budget is spent: then every later
  request fails at once).
* ``kind="crashed"``: the worker process ended (exit, signal, CPU limit).
* ``kind="protocol"``: a reply that is not exactly one protocol line.

After ``timeout``, ``crashed`` or ``protocol`` the process and everything it
started are killed (SIGKILL; PID namespace or dedicated uid) and the next
request starts a fresh worker: it holds no game, so send ``start`` or
``load`` first. :meth:`SandboxWorker.restart` does the same on demand.

Under bwrap the sandbox is a zygote (see ``entry.py``): :meth:`SandboxWorker.fresh` gives the
next trace a fresh child of the same sandbox in a few milliseconds instead of a new sandbox.

Captured stdout/stderr of student code (:attr:`SandboxWorker.output`) may
contain anything the worker saw, hidden requests included: keep it out of
student feedback (log it for the instructor). :attr:`SandboxWorker.load_output`
(what was printed before the handshake) cannot contain requests.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import shutil
import signal
import subprocess
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solitaire.protocol import Worker, WorkerError, batch_requests

from .. import sanitize
from . import affinity
from .channel import Broken, Channel, check_reply
from .files import Submission
from .isolation import Isolation
from .launcher import launch_command
from .limits import Budget, Limits
from .probe import choose_isolation, forget_layer
from .uids import UidLease, kill_all_of, lease_uid, processes_of

log = logging.getLogger("grader.sandbox")
ZYGOTE_LAYERS = ("bwrap",)  # layers whose sandbox stays, forking a fresh child per fresh()
STALE_BYTES = 4 * 1024 * 1024  # what a dead child may have left in the reply pipe, at most
# one encoder for every request (json.dumps with an argument would build a new one per call)
_ENCODER = json.JSONEncoder(allow_nan=False, separators=(",", ":"))

class LoadFailure(WorkerError):
    """The rules file could not be loaded: permanent for this submission (scores 0).

    ``reason``: for a failure of the sandbox itself (error ``SandboxError``, seen before any
    student code ran), the technical reason, for the grader's log only.
    """

    def __init__(self, message: str, error: str = "LoadError") -> None:
        super().__init__("error", message, error, "")
        self.reason = ""


class _StartFailed(Exception):
    """The sandbox failed before any student code ran (its "ready" line, or none): ``reason``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def describe(message: dict[str, Any]) -> str:
    """Where in the student's code a request lands, for messages ("in rule is_won" ...)."""
    op = message.get("op")
    move = message.get("move")
    if op == "call":
        return f"in rule {message.get('method')}"
    if op == "won":
        return "in rule is_won"
    if op == "legal":
        return f"while checking whether move {move} is legal"
    if op == "apply":
        stage = message.get("stage", "full")
        return f"in rule after_move after move {move}" if stage == "effects" else f"while playing move {move}"
    if op == "start":
        return "while dealing a new game (rule deal)"
    if op == "moves":
        return "while listing the legal moves"
    if op == "load":
        return "while loading a position"
    return "while reading the game state"


def _shown(output: bytes | bytearray) -> str:
    """Captured student output as safe text (escaped, never cut further: it is capped as bytes)."""
    return sanitize.text(output, 4 * len(output) + 100, multiline=True)


def _is_ready(line: bytes, nonce: str) -> bool:
    """Whether ``line`` is a zygote child's "ready" line carrying ``nonce``."""
    try:
        return json.loads(line) == {"ok": True, "nonce": nonce, "id": 0}
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False


def _unwrap_status(returncode: int) -> int:
    """bwrap and unshare report a child killed by signal N as exit status 128 + N."""
    if returncode > 128:
        try:
            return -signal.Signals(returncode - 128).value
        except ValueError:
            pass
    return returncode


def _how_it_ended(returncode: int | None, limits: Limits) -> str:
    if returncode is None:
        return "it stopped answering"
    if returncode >= 0:
        return f"exit status {returncode}"
    number = -returncode
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    if number == signal.SIGXCPU:
        return f"{name}: it used more than {limits.cpu_s} s of CPU time"
    if number == signal.SIGXFSZ:
        return f"{name}: it wrote a file larger than {limits.file_bytes} bytes"
    return f"killed by {name}"


class _Process:
    """One running worker process (a sandbox) and its pipes.

    ``control_fd``: the write end of the zygote's control pipe (bwrap layer), else None;
    ``nonce``: what the current child's "ready" line must carry (zygote only).
    """

    def __init__(self, popen: subprocess.Popen[bytes], channel: Channel, work_dir: Path | None,
                 control_fd: int | None = None) -> None:
        self.popen = popen
        self.channel = channel
        self.work_dir = work_dir
        self.control_fd = control_fd
        self.nonce = ""

    def ask_child(self) -> None:
        """Ask the zygote for a fresh child under a new nonce (raises OSError if it is gone)."""
        assert self.control_fd is not None
        self.nonce = secrets.token_hex(16)
        os.write(self.control_fd, (json.dumps({"nonce": self.nonce}) + "\n").encode())

    def pin_child(self, cpu: int) -> None:
        """Ask the zygote to pin its current child to ``cpu`` (raises OSError if it is gone)."""
        assert self.control_fd is not None
        os.write(self.control_fd, b'{"pin": %d}\n' % cpu)

    def close_control(self) -> None:
        if self.control_fd is not None:
            try:
                os.close(self.control_fd)
            except OSError:
                pass
            self.control_fd = None


class SandboxWorker(Worker):
    """A :class:`~solitaire.protocol.Worker` whose student code runs in an isolated process.

    ``rules_file`` is the student's file (never imported here). ``limits``
    defaults to :meth:`Limits.from_env`. ``budget`` is the per-submission wall
    budget, shared by the workers of one :class:`SandboxFactory`.
    ``hidden_paths`` are extra directories (the suite's output, say) the worker
    must not see; bwrap shows nothing outside its view anyway, the unshare
    layer covers them with tmpfs, the plain layer relies on the sandbox uid
    (keep them mode 0700).
    """

    def __init__(
        self,
        rules_file: Path | str,
        limits: Limits | None = None,
        *,
        budget: Budget | None = None,
        hidden_paths: Sequence[Path | str] = (),
        _submission: Submission | None = None,
    ) -> None:
        self.limits = limits if limits is not None else Limits.from_env()
        self.budget = budget if budget is not None else Budget(self.limits.wall_s)
        self.hidden_paths = [Path(p) for p in hidden_paths]
        self._owns_submission = _submission is None
        self.submission = _submission if _submission is not None else Submission(
            Path(rules_file), self.limits.rules_bytes
        )
        if self._owns_submission:  # removed even if close() is forgotten
            weakref.finalize(self, shutil.rmtree, self.submission.root, True)
        self.isolation: Isolation | None = None
        self.probing = False  # set by the layer probe: a sandbox failure is then its answer, not an error
        if self.submission.problem is not None and self.submission.load_failure is None:
            self.submission.load_failure = LoadFailure(str(self.submission.problem), "RulesFileError")
        self._process: _Process | None = None
        self._lease: UidLease | None = None
        self._output = bytearray()
        self._output_total = 0
        self.load_output = ""  # what the last start printed before its first request (safe to show)
        self.launches = 0  # launches for the current trace (a fresh child counts as one): capped
        self.relaunches = 0  # launches after the first, over the worker's life (never reset)
        self._sent = 0  # the id of the last request sent to the current process
        self._asked: _Process | None = None  # the zygote whose next child fresh_ahead() asked for
        self.closed = False

    # -- public API -------------------------------------------------------------
    @property
    def load_failure(self) -> LoadFailure | None:
        """Why the rules file cannot be loaded (shared by every worker of the submission), or None."""
        failure = self.submission.load_failure
        return failure if isinstance(failure, LoadFailure) else None

    @load_failure.setter
    def load_failure(self, failure: LoadFailure) -> None:
        self.submission.load_failure = failure

    @property
    def output(self) -> str:
        """The student's stdout+stderr so far (capped; may contain hidden requests: not for feedback)."""
        text = _shown(self._output)
        if self._output_total > len(self._output):
            text += f"\n[... {self._output_total - len(self._output)} more bytes dropped]"
        return text

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.closed:
            raise RuntimeError("this SandboxWorker is closed")
        if self._asked is not None:  # the child that served the last requests is being replaced
            self.fresh()
        if message.get("op") == "batch":
            return self._batch(message)
        started = time.monotonic()
        try:
            process = self._running(started)
            self._sent += 1
            data = (_ENCODER.encode({**message, "id": self._sent}) + "\n").encode("utf-8")
            budget_bound = self.budget.remaining() - (time.monotonic() - started) < self.limits.call_s
            deadline = time.monotonic() + min(self.limits.call_s, self.budget.remaining())
            try:
                process.channel.pending()
                process.channel.send(data, deadline)
                line = process.channel.receive(deadline)
                return check_reply(line, expected_id=self._sent)
            except Broken as broken:
                raise self._failure(broken, message, budget_bound) from None
            except BaseException:  # interrupted (pytest-timeout, Ctrl-C): leave no half-answered worker
                self._stop()
                raise
        finally:
            self.budget.charge(started)

    def _batch(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a batch; read and check one line per inner request, each within its own deadline."""
        requests = batch_requests(message)
        if not requests:
            return {"ok": True, "replies": []}
        started = time.monotonic()
        replies: list[dict[str, Any]] = []
        try:
            process = self._running(started)
            self._sent += 1
            data = (_ENCODER.encode({**message, "id": self._sent}) + "\n").encode("utf-8")
            try:
                process.channel.pending()
                for part in range(len(requests)):
                    now = time.monotonic()
                    remaining = self.budget.remaining() - (now - started)
                    budget_bound = remaining < self.limits.call_s
                    deadline = now + max(0.0, min(self.limits.call_s, remaining))
                    if part == 0:
                        process.channel.send(data, deadline)
                    line = process.channel.receive(deadline, more=part + 1 < len(requests))
                    replies.append(check_reply(line, expected_id=self._sent, part=part))
            except Broken as broken:
                failure = self._failure(broken, requests[len(replies)], budget_bound)
                failure.answered = replies
                raise failure from None
            except BaseException:  # interrupted (pytest-timeout, Ctrl-C): leave no half-answered worker
                self._stop()
                raise
        finally:
            self.budget.charge(started)
        return {"ok": True, "replies": replies}

    def launch(self) -> None:
        """Start the worker now (else the first request does): raises :class:`LoadFailure` etc."""
        started = time.monotonic()
        try:
            self._running(started)
        finally:
            self.budget.charge(started)

    def restart(self) -> None:
        """Kill the worker and everything it started; the next request starts a fresh one."""
        self._stop()

    def fresh(self) -> None:
        """Give the next requests a fresh worker process that has seen nothing yet (one per trace).

        Under bwrap the sandbox stays: its zygote kills every process of the previous child, wipes
        what it left and forks a new child, whose handshake must carry a nonce chosen here for it
        (whatever a dead child left in the reply pipe is skipped). Any failure (timeout, zygote
        gone, a broken line) falls back to a full restart. Other layers always restart fully.
        Raises like :meth:`launch` (a :class:`LoadFailure` of the rules file, say).
        """
        if self.closed:
            raise RuntimeError("this SandboxWorker is closed")
        process = self._process
        if process is None or process.control_fd is None or self.load_failure is not None:
            self._stop()
            self.launches = 0  # as a new worker per trace had
            self.launch()
            return
        started = time.monotonic()
        asked, self._asked = self._asked is process, None
        try:
            if self._fresh_child(process, started, asked):
                self.launches = 1  # a new worker for the trace, as the other layers start one
            else:
                log.warning("sandbox: the zygote gave no fresh child; restarting the sandbox")
                self._stop()
                self.launches = 0
                self.launch()
        finally:
            self.budget.charge(started)

    def fresh_ahead(self) -> None:
        """Ask the zygote for the next fresh child now, without waiting for it (bwrap only).

        The zygote kills the current child (so call this once it has served its trace), wipes
        what it left and starts the next one while this side does other work; the next
        :meth:`fresh` only reads the new child's handshake, and a request sent before that
        calls :meth:`fresh` first. Same steps in the same order as :meth:`fresh`, started earlier.
        Does nothing where :meth:`fresh` would restart the sandbox anyway.
        """
        process = self._process
        if (self.closed or process is None or process.control_fd is None or self.load_failure is not None
                or self._asked is process):
            return
        try:
            process.ask_child()
        except OSError:
            return  # the zygote is gone: the next fresh() restarts the sandbox
        self._asked = process

    def _fresh_child(self, process: _Process, started: float, asked: bool = False) -> bool:
        """Ask the zygote for a child (unless :meth:`fresh_ahead` did) and read its handshake;
        False if the zygote failed."""
        deadline = started + min(self.limits.startup_s, self.budget.remaining())
        budget_bound = self.budget.remaining() < self.limits.startup_s
        channel = process.channel
        channel.discard()
        self._sent = 0
        try:
            if not asked:
                process.ask_child()
            if not self._child_ready(channel, process.nonce, deadline):
                return False
        except (OSError, Broken):
            return False
        self._handshake(process, deadline, budget_bound, stages=("load",))
        return True

    def _child_ready(self, channel: Channel, nonce: str, deadline: float) -> bool:
        """Skip reply lines until the ready line with ``nonce``: anything before it may come from a
        dead child (which never knew the nonce). A flood beyond :data:`STALE_BYTES` fails."""
        cap, channel.reply_cap = channel.reply_cap, STALE_BYTES
        try:
            skipped = 0
            while True:
                line = channel.receive(deadline, more=True)
                skipped += len(line) + 1
                if skipped > STALE_BYTES:
                    return False
                if _is_ready(line, nonce):
                    return True
        finally:
            channel.reply_cap = cap

    def colocate(self) -> affinity.Pinned | None:
        """Keep the calling thread and the current child on one CPU (zygote only; see
        :mod:`.affinity`): pin the thread to the CPU it runs on and ask the zygote to pin the child
        there. Returns what to give back with :func:`.affinity.restore` once the child has served
        its trace; None if nothing was pinned. Only speed depends on it."""
        process = self._process
        if self.closed or process is None or process.control_fd is None or self._asked is process:
            return None
        pinned = affinity.pin_here()
        if pinned is None:
            # a thread that runs on one CPU already (a replay ahead, grader.suite.twin): the child
            # joins it there, and nothing is to be given back
            only = affinity.only_cpu()
            if only is not None:
                try:
                    process.pin_child(only)
                except OSError:
                    pass
            return None
        cpu, before = pinned
        try:
            process.pin_child(cpu)
        except OSError:
            affinity.restore(before)
            return None
        return before

    def kill(self) -> None:
        """SIGKILL the running sandbox now (its PID namespace dies with it), without waiting: a
        later :meth:`close` waits for the processes to end and cleans up."""
        process = self._process
        if process is not None and process.popen.poll() is None:
            try:
                os.killpg(process.popen.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def close(self) -> None:
        if self.closed:
            return
        self._stop()
        if self._lease is not None:
            self._lease.release()
            self._lease = None
        if self._owns_submission:
            self.submission.remove()
        self.closed = True

    # -- starting and stopping --------------------------------------------------
    def _running(self, started: float, retry: bool = True) -> _Process:
        """The running process, started if there is none. A sandbox that fails before any student
        code runs is started once more (as another uid: the failure may be that uid's, or the
        machine's for a moment) before the failure is the grader's word (:meth:`_sandbox_failure`)."""
        if self.load_failure is not None:
            raise self.load_failure
        if self.budget.exhausted():
            raise WorkerError(
                "timeout", f"your code used up the {self.budget.total:g} s allowed for the whole submission"
            )
        if self._process is not None:
            return self._process
        if self.launches > self.limits.max_restarts:
            raise WorkerError("crashed", f"the worker running your code was restarted {self.launches} times; "
                                         "giving up on this trace")
        if self.isolation is None:
            self.isolation = choose_isolation(self.limits.isolation)
        if self.isolation.as_root and (self._lease is None or self._lease.pid != os.getpid()):
            self._lease = lease_uid()  # (a forked copy of this worker leases its own uid)
        self.launches += 1
        if self.launches > 1:
            self.relaunches += 1
            self.budget.restarts += 1
        process = self._spawn()
        self._sent = 0
        budget_bound = self.budget.remaining() < self.limits.startup_s
        deadline = started + min(self.limits.startup_s, self.budget.remaining())
        self._process = process
        try:
            self._handshake(process, deadline, budget_bound)
        except _StartFailed as failed:
            if retry and not self.probing and self.budget.remaining() > self.limits.startup_s:
                log.warning("sandbox: a worker did not start (%s); starting it once more",
                            sanitize.text(failed.reason))
                self._lease_another_uid()
                self.launches -= 1  # the sandbox's restart, not the student's
                return self._running(time.monotonic(), retry=False)
            failure = self.load_failure = self._sandbox_failure(failed.reason)
            raise failure from None
        except BaseException:
            if self._process is process:  # interrupted (Ctrl-C): leave no half-started worker
                self._stop()
            raise
        self.load_output = _shown(process.channel.output)
        return process

    def _lease_another_uid(self) -> None:
        """Swap the lease for another uid (the old one is held until the new one is taken)."""
        if self._lease is not None and self._lease.held():
            old, self._lease = self._lease, lease_uid()
            old.release()

    def _handshake(self, process: _Process, deadline: float, budget_bound: bool,
                   stages: tuple[str, ...] = ("ready", "load")) -> None:
        """Read the two handshake lines (both id 0); raise :class:`LoadFailure` etc. if either fails.

        The first ("ready", or the entry script's ``SandboxError``) is written before any student
        code runs, so only it may say that the SANDBOX failed (logged, probe cache cleared); a
        failure before it is the sandbox's too, seen by this side. The second is the load result:
        whatever it says (any error name, "SandboxError" included) is the submission's own.
        """
        name = self.submission.rules_name
        for stage in stages:
            try:
                line = process.channel.receive(deadline, more=stage == "ready")
                if stage == "ready" and process.nonce:
                    if not line:  # the zygote's line end before its first child (nothing ran before it)
                        line = process.channel.receive(deadline, more=True)
                    if _is_ready(line, process.nonce):
                        continue
                hello = check_reply(line, expected_id=0)
            except Broken as broken:
                returncode = self._stop(grace_s=1.0 if broken.reason == "eof" else 0.0)
                self.load_output = _shown(process.channel.output)
                if broken.reason == "timeout" and budget_bound:
                    raise WorkerError("timeout", f"your code used up the {self.budget.total:g} s allowed "
                                                 "for the whole submission") from None
                if stage == "ready":
                    raise _StartFailed(f"the sandbox did not start ({broken.reason}: {broken}; "
                                       f"{_how_it_ended(returncode, self.limits)})") from None
                if broken.reason == "timeout":
                    failure = LoadFailure(f"loading {name} did not finish within {self.limits.startup_s:g} s",
                                          "Timeout")
                elif broken.reason == "eof":
                    how = _how_it_ended(returncode, self.limits)
                    failure = LoadFailure(f"{name} stopped the worker while loading ({how})", "Crashed")
                else:
                    failure = LoadFailure(f"{name} broke the answer channel while loading: {broken}",
                                          "ProtocolError")
                self.load_failure = failure
                raise failure from None
            if hello.get("ok") is True and set(hello) == {"ok"}:
                continue
            self._stop()
            self.load_output = _shown(process.channel.output)
            if stage == "ready":
                raise _StartFailed(str(hello.get("message", "no reason given")))
            error = str(hello.get("error", "LoadError"))
            message = str(hello.get("message", f"{name} could not be loaded"))
            if error == "SandboxError":  # the grader's word, claimed by student code: say whose it is
                error, message = "LoadError", f"{name} claimed a sandbox failure while loading: {message}"
            failure = LoadFailure(message, error)
            self.load_failure = failure
            raise failure

    def _sandbox_failure(self, reason: str) -> LoadFailure:
        """The sandbox itself failed (no student code had run): log it, forget the probed layer.

        (Not while probing a layer: then the failure is the probe's answer, logged by the probe.)
        """
        reason = sanitize.text(reason)
        if not self.probing:
            log.error("sandbox setup failed in the worker: %s", reason)
            forget_layer()
        failure = LoadFailure("the sandbox could not start your code (not a problem of your code; your "
                              "instructor has been told)", "SandboxError")
        failure.reason = reason
        return failure

    def _spawn(self) -> _Process:
        assert self.isolation is not None
        uid = self._lease.uid if self._lease is not None else None
        work_dir = self.submission.new_work_dir(uid) if self.isolation.name == "plain" else None
        request_r, request_w = os.pipe()
        reply_r, reply_w = os.pipe()
        output_r, output_w = os.pipe()
        control = os.pipe() if self.isolation.name in ZYGOTE_LAYERS else None
        pipes = (request_r, request_w, reply_r, reply_w, output_r, output_w, *(control or ()))
        try:  # the pipes are closed on every failure, launch_command's included
            argv = launch_command(self.isolation, self.submission, work_dir, uid, self.limits,
                                  request_r, reply_w, self.hidden_paths,
                                  control_fd=control[0] if control else None)
            popen = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=output_w, stderr=output_w,
                pass_fds=(request_r, reply_w, *(control[:1] if control else ())), close_fds=True,
                start_new_session=True, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, cwd="/",
            )
        except BaseException:
            for fd in pipes:
                os.close(fd)
            self.submission.remove_work_dir(work_dir)
            raise
        for fd in (request_r, reply_w, output_w, *(control[:1] if control else ())):
            os.close(fd)
        channel = Channel(request_w, reply_r, output_r, self.limits.reply_bytes, self.limits.output_bytes)
        process = _Process(popen, channel, work_dir, control[1] if control else None)
        if control:
            try:
                process.ask_child()  # the first child; the zygote reads it once it is ready
            except OSError:
                pass  # the zygote died at once: its handshake says why
        return process

    def _stop(self, grace_s: float = 0.0) -> int | None:
        """Kill the running process (if any) and all it started; return its exit status.

        ``grace_s``: how long a process that closed its reply pipe may take to exit by itself
        (so that its own exit status can be reported).
        """
        process, self._process = self._process, None
        self._asked = None
        if process is None:
            return None
        popen = process.popen
        try:
            returncode = popen.wait(timeout=grace_s) if grace_s > 0 else popen.poll()
        except subprocess.TimeoutExpired:
            returncode = None
        if returncode is None:
            try:
                os.killpg(popen.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            log.error("sandbox: worker %d did not die after SIGKILL", popen.pid)
        if self._lease is not None and not kill_all_of(self._lease) and not processes_of(self._lease.uid):
            # only zombies are left (a slow init reaps them later): they would count against the
            # next start's RLIMIT_NPROC, so that start takes another uid
            self._lease_another_uid()
        process.close_control()
        process.channel.close()
        channel = process.channel
        room = self.limits.output_bytes - len(self._output)
        if room > 0:
            self._output += channel.output[:room]
        self._output_total += channel.output_total
        self.submission.remove_work_dir(process.work_dir)
        if returncode is not None and self.isolation is not None and self.isolation.name != "plain":
            returncode = _unwrap_status(returncode)
        return returncode

    def _failure(self, broken: Broken, message: dict[str, Any], budget_bound: bool) -> WorkerError:
        where = describe(message)
        returncode = self._stop(grace_s=1.0 if broken.reason == "eof" else 0.0)
        if broken.reason == "timeout":
            if budget_bound:
                return WorkerError("timeout", f"your code did not answer {where}: it used up the "
                                              f"{self.budget.total:g} s allowed for the whole submission")
            return WorkerError("timeout", f"your code did not answer within {self.limits.call_s:g} s {where}")
        if broken.reason == "eof":
            how = _how_it_ended(returncode, self.limits)
            return WorkerError("crashed", f"the worker running your code stopped {where} ({how})")
        return WorkerError("protocol", f"your code broke the answer channel {where}: {broken}")
