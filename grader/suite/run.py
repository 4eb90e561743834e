"""The hidden suite's entry: ``python -m grader.suite.run PYTEST-ARGS`` (what :mod:`grader.grade` runs).

It is ``python -m pytest PYTEST-ARGS`` with one thing first: the submission's sandboxes are
launched in the background (:func:`grader.suite.warm.prelaunch_early`) before pytest is imported,
so that starting bwrap, the worker's interpreter and its engine import overlap importing pytest,
configuring and collecting; the plugin takes them over at configure. Nothing else differs: the
same arguments reach pytest, and without ``--solitaire-submission`` (or with
``--solitaire-worker local``) nothing is started early. Sandboxes no plugin took (pytest stopped
before its configure) are closed when pytest returns.
"""

from __future__ import annotations

import sys


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


if __name__ == "__main__":
    sys.exit(main())
