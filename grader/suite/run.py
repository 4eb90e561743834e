"""The hidden suite's entry: ``python -m grader.suite.run PYTEST-ARGS`` (what :mod:`grader.grade` runs).

It is ``python -m pytest PYTEST-ARGS`` with one thing first: the submission's sandboxes are
launched in the background (:func:`grader.suite.warm.prelaunch_early`) before pytest is imported,
so that starting bwrap, the worker's interpreter and its engine import overlap importing pytest,
configuring and collecting; the plugin takes them over at configure. Nothing else differs in what
pytest does: the same arguments reach pytest, and without ``--solitaire-submission`` (or with
``--solitaire-worker local``) nothing is started early. Sandboxes no plugin took (pytest stopped
before its configure) are closed when pytest returns.

Then the process ends without tearing the interpreter down (:func:`leave`): freeing every
object of a grade one by one (the traces, their checks) took about a tenth of a Scorpion grade's
CPU, and nothing of it is needed once pytest has returned.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn


def _option(argv: list[str], name: str) -> str | None:
    """The value of ``--name VALUE`` or ``--name=VALUE`` in ``argv`` (the last one), else None."""
    value = None
    for index, arg in enumerate(argv):
        if arg == name and index + 1 < len(argv):
            value = argv[index + 1]
        elif arg.startswith(name + "="):
            value = arg[len(name) + 1:]
    return value


def main() -> int:
    argv = sys.argv[1:]
    submission = _option(argv, "--solitaire-submission")
    if submission and _option(argv, "--solitaire-worker") != "local":
        from grader.suite.warm import mark, prelaunch_early

        mark("suite started")
        prelaunch_early(submission, _option(argv, "--solitaire-results"))
    import pytest

    from grader.suite.warm import close_untaken

    sys.argv[0] = "pytest"
    try:
        return int(pytest.console_main())
    finally:
        close_untaken()


def leave(code: int) -> NoReturn:
    """Exit with ``code`` as Python's own exit would, but for the interpreter's teardown: wait for
    the threads that are not daemons (the sandboxes' cleanup), run the ``atexit`` functions and
    ``weakref.finalize`` callbacks (temporary directories removed), flush stdout and stderr."""
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":
    leave(main())
