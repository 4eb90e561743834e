"""The solver's commands, a plugin of the ``solitaire`` command line.

::

    solitaire solve VARIATION [--seed N] [--set OPTION=VALUE]... [--budget NODES]
    solitaire solve [VARIATION] --state FILE [--budget NODES]     (or the state on stdin)
    solitaire winnability VARIATION --deals N --budget NODES [--jobs J] [--first K] [--set ...]

``solve`` prints the result word (``won``, ``lost`` or ``undecided``) with the
nodes searched and the seconds taken on its first line, and, when won, the
winning moves one per line in the canonical notation, so that
``solitaire apply`` replays them to a won state.

``winnability`` solves deals K..K+N-1 (default K = 1) and prints the counts of
each outcome and the win rate with its 95% Wilson interval: the lower bound
counts undecided deals as lost, the upper bound counts them as won.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from . import cli, winnability_data
from .engine import new_game
from .errors import UserError
from .solver import LOST, UNDECIDED, WON, solve
from .state import format_option_value
from .winnability import Tally, run

DEFAULT_BUDGET = 100_000
MAX_JOBS = 64


def register(subparsers: Any) -> None:
    """Add the commands ``solve`` and ``winnability``."""
    parser = cli.add_command(
        subparsers, "solve", "search a deal for a win: won (with the moves), lost or undecided",
        "Search deal N of VARIATION (or the state in --state FILE, or on stdin) for a win,\n"
        "expanding at most NODES distinct states. The first line is the result:\n"
        "'won', 'lost' (no win exists: every reachable state was searched) or 'undecided'\n"
        "(the budget ran out first), with the nodes searched and the seconds taken. When\n"
        "won, the winning moves follow, one per line, in the canonical notation.",
        [
            "solitaire solve bismarck --seed 3",
            "solitaire solve scorpion --seed 7 --set moves=any_faceup --budget 50000",
            "solitaire deal indian --seed 2 | solitaire solve",
            "solitaire solve --state position.txt",
        ],
    )
    parser.add_argument(
        "variation", nargs="?", metavar="VARIATION",
        help="a variation name (see: solitaire variations); omit it to solve the state of --state or stdin",
    )
    parser.add_argument("--seed", metavar="N", help="deal number N (default: 1)")
    add_settings(parser)
    add_budget(parser)
    cli.add_state_args(parser)
    parser.set_defaults(func=cmd_solve)

    parser = cli.add_command(
        subparsers, "winnability", "solve many deals: win rate with a 95% interval",
        "Solve deals K..K+N-1 of VARIATION, each with a budget of NODES, and print how many\n"
        "were won, lost and undecided, and the win rate with its 95% Wilson score interval:\n"
        "the lower bound counts the undecided deals as lost, the upper bound as won.\n"
        "The last line lists the undecided deals (search one again with a larger budget:\n"
        "solitaire solve VARIATION --seed K --budget NODES).\n"
        "Progress with an estimate of the time left goes to stderr: a live line on a\n"
        "terminal, otherwise a line per tenth of the deals.",
        [
            "solitaire winnability bismarck --deals 100 --budget 20000",
            "solitaire winnability scorpion --deals 1000 --budget 50000 --jobs 2 --set moves=any_faceup",
        ],
    )
    parser.add_argument("variation", metavar="VARIATION", help="a variation name (see: solitaire variations)")
    parser.add_argument("--deals", required=True, metavar="N", help="how many deals to solve")
    parser.add_argument("--first", default="1", metavar="K", help="the first deal number (default: 1)")
    parser.add_argument(
        "--jobs", default="1", metavar="J", help="solver processes to run at once (default: 1)"
    )
    add_settings(parser)
    add_budget(parser)
    parser.add_argument(
        "--record", nargs="?", const=str(winnability_data.DATA_FILE), default=None, metavar="FILE",
        help="add the counts and this command to the measured-winnability data file (default: the one "
             "shipped with the engine, shown by `solitaire variations`), replacing the same run; "
             "docs/winnability.md must then show the row too",
    )
    parser.set_defaults(func=cmd_winnability)


def add_settings(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--set", dest="settings", action="append", default=[], metavar="OPTION=VALUE",
        help="set a rule option (repeatable; see: solitaire variations)",
    )


def add_budget(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--budget", default=str(DEFAULT_BUDGET), metavar="NODES",
        help=f"the most states to expand (generate the moves of) per deal (default: {DEFAULT_BUDGET})",
    )


def whole_number(text: str, what: str, low: int, high: int | None = None) -> int:
    """``text`` as a whole number from ``low`` to ``high``; a user error otherwise."""
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise UserError(f"{what} is a whole number, not {text!r}") from None
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise UserError(f"{what} must be {bound}, not {value}")
    return value


def cmd_solve(args: argparse.Namespace) -> int:
    budget = whole_number(args.budget, "--budget", 1)
    if args.state is not None or args.variation is None:
        if args.seed is not None or args.settings:
            raise UserError("--seed and --set do not apply to a given state (its options are in it)")
        variation, state = cli.state_from_args(args)
        if args.variation is not None and args.variation != variation.name:
            raise UserError(f"the state is a {variation.name} state, not {args.variation}")
    else:
        variation, options = cli.variation_from_args(args)
        seed = 1 if args.seed is None else parse_seed(args.seed)
        state = new_game(variation, seed, options)
    result = solve(variation, state, budget)
    lines = [f"{result.outcome} nodes={result.nodes} seconds={result.seconds:.2f}"]
    lines += [str(move) for move in result.moves]
    cli.write("".join(f"{line}\n" for line in lines))
    return 0


def parse_seed(text: str) -> int:
    try:
        return cli.seed_number(text)
    except argparse.ArgumentTypeError as error:
        raise UserError(f"--seed: {error}") from None


def cmd_winnability(args: argparse.Namespace) -> int:
    variation, options = cli.variation_from_args(args)
    deals = whole_number(args.deals, "--deals", 1)
    budget = whole_number(args.budget, "--budget", 1)
    first = whole_number(args.first, "--first", 0, 2**64 - deals)
    jobs = whole_number(args.jobs, "--jobs", 1, MAX_JOBS)
    settings = " ".join(f"{name}={format_option_value(value)}" for name, value in sorted(options.items()))
    heading = (
        f"{variation.name}{' ' + settings if settings else ''}: deals {first}..{first + deals - 1}, "
        f"budget {budget} nodes, jobs {jobs}"
    )
    from .progress import Progress  # rich: not imported by the other commands

    started = time.perf_counter()
    counts = {WON: 0, LOST: 0, UNDECIDED: 0}
    with Progress(variation.name, deals, unit="deals", redirect=False) as progress:  # the pool forks
        def advance(seed: int, outcome: str) -> None:
            counts[outcome] += 1
            progress.advance(note=" ".join(f"{word} {count}" for word, count in counts.items()))

        tally = run(variation.name, deals, budget, options, jobs=jobs, first=first, progress=advance)
    cli.write(report(heading, tally, time.perf_counter() - started))
    if args.record:
        _record(args.record, variation, options, first, deals, budget, jobs, tally)
    return 0


def _record(path: str, variation: Any, options: dict[str, Any], first: int, deals: int, budget: int,
            jobs: int, tally: Tally) -> None:
    """Store the run in the measured-winnability data file, with the command that reproduces it."""
    import datetime as dt
    from pathlib import Path

    defaults = {o.name: o.default for o in variation.options}
    sets = "".join(f" --set {k}={format_option_value(v)}" for k, v in sorted(options.items())
                   if defaults.get(k) != v)  # options holds every option, resolved
    command = (f"solitaire winnability {variation.name} --deals {deals} --budget {budget} --jobs {jobs}"
               + (f" --first {first}" if first != 1 else "") + sets)
    measurement = winnability_data.Measurement(
        variation.name, dict(options), deals, budget, tally.won, tally.lost, tally.undecided, command,
        first=first, measured=dt.date.today().isoformat(), cpu_seconds=round(tally.seconds))
    try:
        winnability_data.record(measurement, Path(path), defaults)
    except (OSError, ValueError) as error:
        raise UserError(f"cannot record in {path}: {error}") from None
    print(f"recorded in {path}", file=sys.stderr)


def report(heading: str, tally: Tally, wall: float) -> str:
    """The final summary of a winnability run; its last line lists the undecided deals (each
    can be searched again alone, with a larger budget: ``solitaire solve``)."""
    undecided = sorted(seed for seed, outcome in tally.outcomes.items() if outcome == UNDECIDED)
    low, high = tally.interval()
    rate = tally.won / tally.deals if tally.deals else 0.0
    return (
        f"{heading}\n"
        f"won {tally.won}  lost {tally.lost}  undecided {tally.undecided}  of {tally.deals}\n"
        f"win rate {rate:.1%}  95% interval {low:.1%}..{high:.1%} "
        "(Wilson; undecided counted as lost..as won)\n"
        f"decided {tally.decided:.1%}  nodes {tally.nodes}  solver CPU seconds {tally.seconds:.1f}  "
        f"wall seconds {wall:.1f}\n"
        + (f"undecided deals: {' '.join(map(str, undecided))}\n" if undecided else "")
    )
