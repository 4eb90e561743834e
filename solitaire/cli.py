"""The ``solitaire`` command line.

Commands of the engine::

    solitaire variations                               the catalog
    solitaire deal VARIATION [--seed N] [--set OPTION=VALUE]...
    solitaire moves [--state FILE]                     every legal move, sorted
    solitaire apply [--state FILE] MOVE...             the state after the moves
    solitaire play VARIATION [--seed N] [--set ...]    an interactive game
    solitaire play VARIATION --state FILE              ... from the board in FILE

States travel as canonical state text (``--state FILE``, or stdin), so the
commands chain: ``solitaire deal scorpion | solitaire moves``.

Errors: a user's mistake (an unknown variation or option, malformed text, an
illegal move, a missing file: every :class:`~solitaire.errors.SolitaireError`
and every ``OSError`` on a user's file) prints ``solitaire: error: <message>``
on one line to stderr and exits with status 2, never a traceback.

Plugins
-------
Command groups outside the engine (the grader's, the solver's) register
through the entry-point group ``solitaire.commands``. Each entry point names a
function ``register(subparsers)`` that adds its subcommand(s) to the argparse
sub-parsers object and sets ``func`` on each parser (``func(args)`` returns
the exit status, or None for 0). A plugin whose module is not there (not yet
written, or not installed) is skipped silently; one that fails otherwise gives
a one-line warning. Plugins are loaded only when the command line does not
name a built-in command, so the built-ins stay fast.

Helpers a plugin may use:

* :func:`add_command` makes a sub-parser with a description and examples;
* :func:`add_variation_args` / :func:`variation_from_args` parse
  ``VARIATION [--seed N] [--set OPTION=VALUE]...`` into a variation and its
  resolved options;
* :func:`add_state_args` / :func:`state_from_args` read a state from
  ``--state FILE`` or stdin and check it fits its variation;
* raise :class:`~solitaire.errors.UserError` (or call :func:`fail`) for a
  user's mistake: the CLI prints it on one line and exits 2.

Example plugin::

    from solitaire import cli

    def register(subparsers):
        parser = cli.add_command(subparsers, "count", "count the legal moves",
                                 examples=["solitaire deal scorpion | solitaire count"])
        cli.add_state_args(parser)
        parser.set_defaults(func=run)

    def run(args):
        variation, state = cli.state_from_args(args)
        print(len(legal_moves(variation, state)))
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections import Counter
from collections.abc import Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Any, NoReturn

from . import __version__, catalog
from .cards import Card
from .engine import apply_unchecked, check_move, check_state, legal_moves, new_game
from .errors import IllegalMove, SolitaireError, UserError
from .moves import parse_move
from .state import OptionValue, State, format_option_value, format_state, parse_state
from .variation import Variation

PROG = "solitaire"
PLUGIN_GROUP = "solitaire.commands"
BUILTIN_COMMANDS = ("variations", "deal", "moves", "apply", "play")
USER_ERROR_STATUS = 2
RULE_FAILURE_STATUS = 1


# -- helpers for commands and plugins --------------------------------------------
def fail(message: str) -> NoReturn:
    """Stop with a user's mistake: ``solitaire: error: <message>``, exit status 2."""
    raise UserError(message)


def add_command(
    subparsers: Any,
    name: str,
    summary: str,
    description: str = "",
    examples: Sequence[str] = (),
) -> argparse.ArgumentParser:
    """A sub-parser ``name`` with a one-line ``summary`` (shown in ``solitaire --help``),
    a longer ``description`` and ``examples`` (shown in ``solitaire NAME --help``)."""
    epilog = "examples:\n" + "\n".join(f"  {example}" for example in examples) if examples else None
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=summary.replace("%", "%%"),  # argparse %-formats help strings
        description=description or summary,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def seed_number(text: str) -> int:
    """argparse type of a deal number: a whole number from 0 to 2**64 - 1."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a deal number is a whole number, not {text!r}") from None
    if not 0 <= seed < 2**64:
        raise argparse.ArgumentTypeError(f"a deal number is from 0 to 2**64-1, not {seed}")
    return seed


def add_variation_args(parser: argparse.ArgumentParser, seed: bool = True) -> None:
    """Add ``VARIATION``, ``--seed N`` (default 1, when ``seed``) and ``--set OPTION=VALUE``."""
    parser.add_argument("variation", metavar="VARIATION", help="a variation name (see: solitaire variations)")
    if seed:
        parser.add_argument(
            "--seed", type=seed_number, default=1, metavar="N", help="deal number N (default: 1)"
        )
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="set a rule option (repeatable; see: solitaire variations)",
    )


def parse_settings(items: Sequence[str]) -> dict[str, str]:
    """``["moves=runs", ...]`` as a dict; a malformed item is a user error."""
    settings: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            fail(f"--set takes OPTION=VALUE, got {item!r}")
        if name in settings:
            fail(f"option {name} is set twice")
        settings[name] = value
    return settings


def variation_from_args(args: argparse.Namespace) -> tuple[Variation, dict[str, OptionValue]]:
    """The variation named by ``args.variation`` and its options resolved from ``--set``
    (every option present; an unknown option or a value not allowed is a user error)."""
    variation = catalog.load(args.variation)
    args.loaded_variation = variation
    settings: dict[str, str | OptionValue] = dict(parse_settings(getattr(args, "settings", [])))
    return variation, variation.resolve_options(settings)


def add_state_args(parser: argparse.ArgumentParser) -> None:
    """Add ``--state FILE`` (default: read the state text from stdin; ``-`` is stdin too)."""
    parser.add_argument(
        "--state", metavar="FILE", help="a file holding a state in canonical notation (default: stdin)"
    )


def read_text(path: str | None) -> tuple[str, str]:
    """The text of file ``path`` (stdin when None or ``-``) and a name for messages."""
    if path is None or path == "-":
        if sys.stdin is None or sys.stdin.isatty():
            fail("no state given: pass --state FILE or pipe one in "
                 "(solitaire deal scorpion | solitaire moves)")
        return sys.stdin.read(), "stdin"
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read(), path
    except UnicodeDecodeError:
        fail(f"{path} is not a text file")
    except IsADirectoryError:
        fail(f"{path} is a directory, not a state file")
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror or error}")


def check_cards(variation: Variation, state: State) -> None:
    """A user error unless the state holds exactly the cards of the variation's deck."""
    expected = Counter(variation.deck.pack() * variation.deck.packs)
    found = Counter(state.cards())
    if found == expected:
        return

    def listed(cards: Counter[Card]) -> str:
        names = sorted(str(card) for card in cards.elements())
        return " ".join(names[:6]) + (" ..." if len(names) > 6 else "")

    missing, extra = expected - found, found - expected
    parts = []
    if missing:
        parts.append(f"missing {listed(missing)}")
    if extra:
        parts.append(f"extra {listed(extra)}")
    fail(f"the state does not hold the {variation.deck.describe()} of {variation.name}: {'; '.join(parts)}")


def load_state(text: str, origin: str = "the state") -> tuple[Variation, State]:
    """Parse state text, find its variation and check that the state fits it."""
    try:
        state = parse_state(text)
    except SolitaireError as error:
        fail(f"{origin}: {error}")
    variation = catalog.load(state.variation)
    try:
        check_state(variation, state)
    except SolitaireError as error:
        fail(f"{origin}: {error}")
    check_cards(variation, state)
    return variation, state


def state_from_args(args: argparse.Namespace) -> tuple[Variation, State]:
    """The state given by ``--state FILE`` (or stdin) and its variation, checked."""
    text, origin = read_text(getattr(args, "state", None))
    variation, state = load_state(text, origin)
    args.loaded_variation = variation
    return variation, state


def write(text: str) -> None:
    """Write ``text`` to stdout exactly as it is (no colour, no wrapping)."""
    sys.stdout.write(text)


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


# -- the built-in commands -----------------------------------------------------------
def cmd_variations(args: argparse.Namespace) -> int:
    from rich.markup import escape

    names = catalog.available()
    if args.names:
        write("".join(f"{name}\n" for name in names))
        return 0
    console = _console()
    for name in names:
        try:
            variation = catalog.load(name)
        except ImportError as error:
            console.print(f"[bold]{name}[/bold]  (not available: {escape(str(error))})")
            continue
        console.print(
            f"[bold]{name}[/bold]  {escape(variation.title)}  [dim]({variation.deck.describe()}, "
            f"{variation.deck.size} cards)[/dim]"
        )
        if not variation.options:
            console.print("    no options")
        for option in variation.options:
            allowed = " | ".join(format_option_value(v) for v in option.allowed())
            if not allowed and option.bounds is not None:
                allowed = f"a whole number {option.bounds[0]}..{option.bounds[1]}"
            allowed = allowed or type(option.default).__name__
            console.print(
                f"    --set {option.name}={format_option_value(option.default)}  "
                f"[dim](default; allowed: {escape(allowed)})[/dim]"
            )
            indent = " " * 8
            doc = textwrap.fill(
                option.doc, width=max(40, console.width - 1), initial_indent=indent, subsequent_indent=indent
            )
            console.print(escape(doc), style="dim", soft_wrap=True)
        _print_winnability(console, variation)
    return 0


def _print_winnability(console: Any, variation: Any) -> None:
    """The measured winnability of each setting (solitaire/winnability.toml), zero win rates flagged."""
    from rich.markup import escape

    from . import winnability_data

    console.print("    winnability measured by the solver (docs/winnability.md):")
    for text, warning in winnability_data.describe(variation):
        console.print(f"        {escape(text)}", style="bold yellow" if warning else
                      ("dim" if text.lstrip().startswith("reproduce:") else None), soft_wrap=True)


def cmd_deal(args: argparse.Namespace) -> int:
    variation, options = variation_from_args(args)
    write(format_state(new_game(variation, args.seed, options)))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    variation, state = state_from_args(args)
    write("".join(f"{move}\n" for move in sorted(str(m) for m in legal_moves(variation, state))))
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    variation, state = state_from_args(args)
    total = len(args.moves)
    for number, text in enumerate(args.moves, start=1):
        where = f" (move {number} of {total})" if total > 1 else ""
        try:
            move = parse_move(text)
        except SolitaireError as error:
            fail(f"{error}{where}")
        reason = check_move(variation, state, move)
        if reason is not None:
            fail(f"{IllegalMove(move, reason)}{where}")
        state = apply_unchecked(variation, state, move)
    write(format_state(state))
    return 0


def board_to_play(variation: Variation, path: str) -> State:
    """The board in file ``path`` to start playing ``variation`` from, checked: a one-line user
    error when the file cannot be read, is not a state, or holds a state of another variation.
    Lines of Markdown code fences are skipped (a board copied from feedback.md with its fence)."""
    if path == "-":
        fail("play reads its commands from stdin: give the board as a file (--state board.txt)")
    text, origin = read_text(path)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("```"))
    try:
        state = parse_state(text)
    except SolitaireError as error:
        fail(f"{origin} does not hold a board in the state notation: {error}")
    if state.variation != variation.name:
        fail(f"{origin} holds a board of {state.variation}, not {variation.name}: "
             f"run `solitaire play {state.variation} --state {origin}`")
    try:
        check_state(variation, state)
    except SolitaireError as error:
        fail(f"{origin}: {error}")
    check_cards(variation, state)
    return state


def cmd_play(args: argparse.Namespace) -> int:
    from .terminal import play

    variation, options = variation_from_args(args)
    seed = 1 if args.seed is None else args.seed
    if args.state is None:
        return play(variation, options, seed, _console())
    if args.seed is not None or args.settings:
        fail("--seed and --set do not go with --state: the board file holds the position and its options")
    state = board_to_play(variation, args.state)
    origin = os.path.basename(args.state)  # short: it heads the board
    return play(variation, dict(state.options), seed, _console(), state=state, origin=origin)


# -- the parser ----------------------------------------------------------------------
def build_parser(plugins: bool = True) -> argparse.ArgumentParser:
    """The ``solitaire`` parser: built-in commands, then plugins when ``plugins``."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Solitaire Lab: deal, inspect and play solitaire variations.",
        epilog="examples:\n  solitaire variations\n  solitaire deal scorpion --seed 7 | solitaire moves\n"
        "  solitaire play scorpion\n\n'solitaire COMMAND --help' explains a command.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")

    p = add_command(
        subparsers, "variations", "list the variations, their decks and rule options",
        "List every variation the catalog finds (a rules file in the current directory first,\n"
        "then the reference variations): name, title, deck, each rule option with its\n"
        "default and allowed values, and the winnability the solver measured for the defaults\n"
        "and each other option value (won share, 95% interval, undecided share, budget and the\n"
        "command that reproduces it; a win rate of 0 flagged), or 'not measured'.",
        ["solitaire variations", "solitaire variations --names"],
    )
    p.add_argument("--names", action="store_true", help="print only the names, one per line")
    p.set_defaults(func=cmd_variations)

    p = add_command(
        subparsers, "deal", "print the initial state of a deal",
        "Print the canonical initial state of deal N of VARIATION (the deck shuffled by the\n"
        "engine's own PRNG, identical on every machine).",
        ["solitaire deal scorpion", "solitaire deal scorpion --seed 7 --set moves=any_faceup > s.txt"],
    )
    add_variation_args(p)
    p.set_defaults(func=cmd_deal)

    p = add_command(
        subparsers, "moves", "print every legal move of a state, sorted",
        "Read a state in canonical notation (--state FILE, or stdin) and print every legal\n"
        "move, one per line, sorted.",
        ["solitaire deal scorpion | solitaire moves", "solitaire moves --state s.txt"],
    )
    add_state_args(p)
    p.set_defaults(func=cmd_moves)

    p = add_command(
        subparsers, "apply", "print the state after some moves",
        "Read a state (--state FILE, or stdin), play MOVE... in order and print the state\n"
        "after them. An illegal or malformed move stops with status 2 and a one-line\n"
        "message naming the move and why; no state is printed then. Quote moves: > is\n"
        "a shell redirection.",
        ["solitaire apply --state s.txt 't4>t7' deal", "solitaire deal scorpion | solitaire apply 't1:2>t5'"],
    )
    add_state_args(p)
    p.add_argument(
        "moves", nargs="+", metavar="MOVE", help="a move in the notation: t3>f2, t4:3>t7, s>w, deal"
    )
    p.set_defaults(func=cmd_apply)

    p = add_command(
        subparsers, "play", "play a game in the terminal",
        "Play deal N of VARIATION interactively, or go on from the board in FILE\n"
        "(--state, in the state notation: a board from your feedback, say). Type moves in\n"
        "the notation, or hint, undo, new [N], board, state, help, quit; in the game,\n"
        "help lists the piles and actions of VARIATION. Reads commands from stdin, so a\n"
        "pipe can drive it.",
        ["solitaire play scorpion", "solitaire play bismarck --seed 3 --set same_suit=true",
         "solitaire play scorpion --state board.txt",
         "printf 'hint\\nquit\\n' | solitaire play scorpion"],
    )
    add_variation_args(p)
    p.add_argument("--state", metavar="FILE",
                   help="start from the board in FILE (state notation) instead of dealing")
    p.set_defaults(func=cmd_play, seed=None)

    if plugins:
        load_plugins(subparsers)
    return parser


def warn(message: str) -> None:
    print(f"{PROG}: warning: {' '.join(message.split())}", file=sys.stderr)


def _is_missing_module(error: ImportError, entry: EntryPoint) -> bool:
    """Whether ``error`` says the plugin's own module (or a package above it) is absent."""
    missing = getattr(error, "name", None)
    module = entry.value.partition(":")[0].strip()
    return bool(missing) and (module == missing or module.startswith(f"{missing}."))


def load_plugins(subparsers: Any) -> None:
    """Register every command group of the entry-point group ``solitaire.commands``."""
    for entry in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
        try:
            register = entry.load()
            register(subparsers)
        except ImportError as error:
            if not _is_missing_module(error, entry):
                warn(f"command group {entry.name!r} ({entry.value}) could not be loaded: {error}")
        except Exception as error:  # noqa: BLE001 - a broken plugin must not break the CLI
            warn(f"command group {entry.name!r} ({entry.value}) could not be loaded: "
                 f"{type(error).__name__}: {error}")


def _wants_plugins(argv: Sequence[str]) -> bool:
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    return command not in BUILTIN_COMMANDS


def _one_line(message: str) -> str:
    return " ".join(str(message).split())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``solitaire`` command line; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(plugins=_wants_plugins(arguments))
    if not arguments:
        parser.print_help()
        return 0
    args = parser.parse_args(arguments)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return USER_ERROR_STATUS
    try:
        return int(func(args) or 0)
    except SolitaireError as error:
        print(f"{PROG}: error: {_one_line(str(error))}", file=sys.stderr)
        return USER_ERROR_STATUS
    except BrokenPipeError:
        # the reader went away (solitaire moves | head): not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as error:
        where = f" {error.filename}" if error.filename else ""
        print(f"{PROG}: error:{where} {_one_line(error.strerror or str(error))}", file=sys.stderr)
        return USER_ERROR_STATUS
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except NotImplementedError as error:
        variation = _variation_of(args)
        description = describe_rule_failure(error, variation) if variation else None
        if description is None:
            raise
        print(f"{PROG}: error: {description}", file=sys.stderr)
        return RULE_FAILURE_STATUS


def describe_rule_failure(error: BaseException, variation: Variation) -> str | None:
    from .terminal import describe_failure

    return describe_failure(error, variation)


def _variation_of(args: argparse.Namespace) -> Variation | None:
    """The variation a command worked on (recorded by the helpers that load one)."""
    variation = getattr(args, "loaded_variation", None)
    return variation if isinstance(variation, Variation) else None
