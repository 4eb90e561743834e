"""One factory per submission: workers that share a temp copy, a sandbox layer and a wall budget."""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from pathlib import Path

from .files import Submission
from .limits import Budget, Limits
from .worker import SandboxWorker


class SandboxFactory:
    """``factory()`` returns a new :class:`SandboxWorker` for the submission's rules file.

    Every worker made by one factory shares: the checked temp copy of the
    rules file (made once), a load failure (found once, then raised at once
    by every worker), and the wall budget ``limits.wall_s`` (all requests and
    restarts of all its workers together). :meth:`close` closes every worker
    still open and removes the temp copy; it also runs when the factory is
    garbage-collected.
    """

    def __init__(
        self, rules_file: Path | str, limits: Limits | None = None, hidden_paths: Sequence[Path | str] = ()
    ) -> None:
        self.rules_file = Path(rules_file)
        self.limits = limits if limits is not None else Limits.from_env()
        self.budget = Budget(self.limits.wall_s)
        self.hidden_paths = list(hidden_paths)
        self.submission = Submission(self.rules_file, self.limits.rules_bytes)
        self.workers: list[SandboxWorker] = []
        self._finalizer = weakref.finalize(self, self.submission.remove)

    def __call__(self) -> SandboxWorker:
        worker = SandboxWorker(
            self.rules_file, self.limits, budget=self.budget, hidden_paths=self.hidden_paths,
            _submission=self.submission,
        )
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
