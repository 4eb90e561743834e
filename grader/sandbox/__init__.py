"""The sandbox: student code runs only in an isolated worker process.

The trusted grader (the hidden suite) talks to the worker through the
:class:`solitaire.protocol.Worker` interface; :class:`SandboxWorker` is the
isolated implementation. Typical use by the suite, one factory per submission::

    factory = sandbox_factory(Path(repo) / "scorpion.py", Limits(call_s=2, wall_s=300))
    try:
        with factory() as worker:           # as many workers as needed; all share one wall budget
            worker.start(cards, options)    # raises WorkerError on a bad step (see .worker)
    finally:
        factory.close()                     # kills what is left, removes the temp copy

``factory.layer`` names the isolation layer in use; making a factory raises
:class:`WeakSandboxRefused` when only the weak layer works and
``Limits.allow_weak`` is not set. See :mod:`.worker` for the errors raised, :mod:`.isolation` for the layers
(bwrap, unshare, plain) and :mod:`.limits` for the bounds and their
``SOLITAIRE_SANDBOX_*`` environment overrides. docs/security.md has the
threat model.
"""

from .factory import SandboxFactory, checked_isolation, layer_line, require_sandbox, sandbox_factory
from .isolation import Isolation, WeakSandboxRefused
from .limits import Budget, Limits
from .probe import active_isolation, choose_isolation
from .worker import LoadFailure, SandboxWorker

__all__ = [
    "Budget", "Isolation", "Limits", "LoadFailure", "SandboxFactory", "SandboxWorker", "WeakSandboxRefused",
    "active_isolation", "checked_isolation", "choose_isolation", "layer_line", "require_sandbox",
    "sandbox_factory",
]
