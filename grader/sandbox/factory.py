"""One factory per submission: workers that share a temp copy, a sandbox layer and a wall budget.

The factory is where grading fails closed: it chooses the layer when it is made and raises
:class:`~.isolation.WeakSandboxRefused` when only the weak one (``plain``) works and
``limits.allow_weak`` is not set (``--allow-weak-sandbox``, ``SOLITAIRE_SANDBOX_ALLOW_WEAK=1``).
"""

from __future__ import annotations

import logging
import os
import weakref
from collections.abc import Sequence
from pathlib import Path

from .files import Submission
from .isolation import Isolation, WeakSandboxRefused
from .limits import ENV_PREFIX, Budget, Limits
from .probe import choose_isolation
from .worker import SandboxWorker

log = logging.getLogger("grader.sandbox")


def checked_isolation(limits: Limits) -> Isolation:
    """The layer workers get under ``limits``; raises :class:`WeakSandboxRefused` when it is weak
    and ``limits.allow_weak`` is not set."""
    isolation = choose_isolation(limits.isolation)
    if not isolation.strong and not limits.allow_weak:
        raise WeakSandboxRefused(isolation)
    return isolation


def require_sandbox(allow_weak: bool = False) -> Isolation:
    """For the grading commands, before any grading starts: the layer this machine gives, or
    :class:`WeakSandboxRefused`. ``allow_weak`` (their ``--allow-weak-sandbox``) is passed on to
    the grading subprocesses and pool workers through ``SOLITAIRE_SANDBOX_ALLOW_WEAK=1``."""
    if allow_weak:
        os.environ[ENV_PREFIX + "ALLOW_WEAK"] = "1"
    return checked_isolation(Limits.from_env())


def layer_line(isolation: Isolation) -> str:
    """The instructor's log line naming the layer (``sandbox layer: bwrap (...)``)."""
    warning = "" if isolation.strong else "WEAK, allowed by --allow-weak-sandbox: "
    return f"sandbox layer: {isolation.name} ({warning}{isolation.detail})"


class SandboxFactory:
    """``factory()`` returns a new :class:`SandboxWorker` for the submission's rules file.

    Every worker made by one factory shares: the checked temp copy of the
    rules file (made once), a load failure (found once, then raised at once
    by every worker), and the wall budget ``limits.wall_s`` (all requests and
    restarts of all its workers together). :meth:`close` closes every worker
    still open and removes the temp copy; it also runs when the factory is
    garbage-collected.

    :attr:`layer` is the name of the isolation layer its workers run in
    (``"bwrap"``, ``"unshare"`` or ``"plain"``; :attr:`isolation` the whole
    description): what results.json records as ``extra_data["sandbox_layer"]``.
    Making a factory raises :class:`WeakSandboxRefused` when only ``plain``
    works and ``limits.allow_weak`` is false.
    """

    def __init__(
        self, rules_file: Path | str, limits: Limits | None = None, hidden_paths: Sequence[Path | str] = ()
    ) -> None:
        self.rules_file = Path(rules_file)
        self.limits = limits if limits is not None else Limits.from_env()
        self.budget = Budget(self.limits.wall_s)
        self.hidden_paths = list(hidden_paths)
        self.isolation = checked_isolation(self.limits)
        self.layer = self.isolation.name
        level = logging.INFO if self.isolation.strong else logging.WARNING
        log.log(level, "sandbox layer for %s: %s%s", self.rules_file.name, self.layer,
                "" if self.isolation.strong else " (weak: allowed by --allow-weak-sandbox)")
        self.submission = Submission(self.rules_file, self.limits.rules_bytes)
        self.workers: list[SandboxWorker] = []
        self._finalizer = weakref.finalize(self, self.submission.remove)

    def __call__(self) -> SandboxWorker:
        worker = SandboxWorker(
            self.rules_file, self.limits, budget=self.budget, hidden_paths=self.hidden_paths,
            _submission=self.submission,
        )
        worker.isolation = self.isolation
        self.workers = [w for w in self.workers if not w.closed] + [worker]
        return worker

    @property
    def load_failure(self) -> Exception | None:
        return self.submission.load_failure

    def close(self) -> None:
        for worker in self.workers:
            worker.close()
        self.workers = []
        self._finalizer()

    def __enter__(self) -> SandboxFactory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def sandbox_factory(
    rules_file: Path | str, limits: Limits | None = None, hidden_paths: Sequence[Path | str] = ()
) -> SandboxFactory:
    """A callable returning fresh workers for one submission (see :class:`SandboxFactory`)."""
    return SandboxFactory(rules_file, limits, hidden_paths)
