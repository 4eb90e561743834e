"""The ``solitaire starter`` command group (registered through the ``solitaire.commands`` entry point).

::

    solitaire starter build                        regenerate starter/ from reference/
    solitaire starter repo VARIATION DEST [--force]  write a student repo
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from solitaire import cli
from solitaire.errors import UserError


def register(subparsers: Any) -> None:
    """Add ``starter build`` and ``starter repo`` to the ``solitaire`` parser."""
    group = cli.add_command(
        subparsers, "starter", "generate student starters and student repos",
        "Starters are generated from reference/ and never edited by hand:\n"
        "'starter build' regenerates starter/ (stubbed modules and MANIFEST.json),\n"
        "'starter repo' writes the complete repo a student receives.",
        ["solitaire starter build", "solitaire starter repo scorpion /tmp/scorpion-repo"],
    )
    commands = group.add_subparsers(title="starter commands", metavar="COMMAND")

    build = cli.add_command(
        commands, "build", "regenerate starter/ from reference/ (nbgrader ClearSolutions)",
        "Wrap every reference module as a one-cell notebook, clear its solution regions\n"
        "with nbgrader's ClearSolutions and write starter/<variation>.py and\n"
        "starter/MANIFEST.json. The output is the same bytes on every run.",
        ["solitaire starter build", "solitaire starter build --out /tmp/starter-check"],
    )
    build.add_argument("--out", metavar="DIR", help="write into DIR instead of the project's starter/")
    build.set_defaults(func=run_build)

    repo = cli.add_command(
        commands, "repo", "write the student repo of one variation",
        "Write a complete student repo to DEST: VARIATION.py (the stubbed rules file),\n"
        "a copy of the engine, public tests and traces, README.md, pyproject.toml.\n"
        "DEST may be absent or an empty directory.",
        ["solitaire starter repo scorpion /tmp/scorpion-repo",
         "solitaire starter repo indian ./indian --force"],
    )
    repo.add_argument("variation", metavar="VARIATION", help="one of the reference variations")
    repo.add_argument("dest", metavar="DEST", help="the directory to write (absent or empty)")
    repo.add_argument(
        "--force", action="store_true", help="write into a non-empty DEST, replacing generated files"
    )
    repo.set_defaults(func=run_repo)
    group.set_defaults(func=lambda args: _usage(group))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return cli.USER_ERROR_STATUS


def run_build(args: argparse.Namespace) -> int:
    from grader.starter.build import STARTER_DIR, BuildError, build

    target = Path(args.out) if args.out else STARTER_DIR
    try:
        result = build(target)
    except BuildError as error:
        raise UserError(str(error)) from None
    except OSError as error:
        raise UserError(f"cannot write {target}: {error.strerror or error}") from None
    for starter in result.starters:
        print(f"{target / (starter.name + '.py')}: {len(starter.stubbed)} stubbed "
              f"({', '.join(starter.stubbed)})")
    for path in result.removed:
        print(f"{path}: removed (no reference module any more)")
    if result.skipped:
        print(f"skipped, no reference module yet: {', '.join(result.skipped)}")
    print(f"{target / 'MANIFEST.json'}: {len(result.starters)} variations")
    return 0


def run_repo(args: argparse.Namespace) -> int:
    from grader.starter.repo import RepoError, make_repo

    try:
        written = make_repo(args.variation, args.dest, force=args.force)
    except RepoError as error:
        raise UserError(str(error)) from None
    print(f"{args.dest}: student repo of {args.variation} ({len(written)} files)")
    print(f"next: cd {args.dest} && pip install -e . && pytest")
    return 0
