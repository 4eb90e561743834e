"""The ``solitaire`` command line, run as a user runs it: in a subprocess.

Every bad input must give a non-zero exit and a one-line message on stderr,
never a traceback.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from solitaire import catalog, engine
from solitaire.moves import card_move
from solitaire.rng import SplitMix64
from solitaire.state import format_state, parse_state

VARIATIONS = catalog.reference_names()
PLAYOUT_STEPS = 3


def solitaire(*args: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "solitaire", *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
    )


def assert_user_error(result: subprocess.CompletedProcess, *fragments: str) -> str:
    """Exit 2, no stdout, exactly one stderr line starting 'solitaire: error:' holding the fragments."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("solitaire: error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def load_or_skip(name: str):
    try:
        return catalog.load(name)
    except ModuleNotFoundError as error:
        pytest.skip(f"reference module of {name} not available: {error}")


@pytest.fixture(scope="module")
def scorpion_deal() -> str:
    result = solitaire("deal", "scorpion", "--seed", "1")
    assert result.returncode == 0, result.stderr
    return result.stdout


# -- happy paths ----------------------------------------------------------------------------
def test_variations_lists_the_catalog_with_options():
    result = solitaire("variations")
    assert result.returncode == 0, result.stderr
    for name in VARIATIONS:
        assert name in result.stdout
    assert "moves=runs" in result.stdout and "any_faceup" in result.stdout
    names = solitaire("variations", "--names")
    assert names.stdout.split() == catalog.available()


def test_deal_prints_the_canonical_initial_state(scorpion_deal):
    variation = catalog.load("scorpion")
    assert scorpion_deal == format_state(engine.new_game(variation, 1))
    other = solitaire("deal", "scorpion", "--seed", "2", "--set", "moves=any_faceup")
    assert other.returncode == 0
    assert other.stdout.splitlines()[0] == "scorpion moves=any_faceup"
    assert parse_state(other.stdout) == engine.new_game(variation, 2, {"moves": "any_faceup"})


def test_moves_lists_every_legal_move_sorted(scorpion_deal, tmp_path):
    variation = catalog.load("scorpion")
    expected = sorted(str(m) for m in engine.legal_moves(variation, parse_state(scorpion_deal)))
    from_stdin = solitaire("moves", stdin=scorpion_deal)
    assert from_stdin.returncode == 0 and from_stdin.stdout.splitlines() == expected
    path = tmp_path / "s.txt"
    path.write_text(scorpion_deal)
    from_file = solitaire("moves", "--state", str(path))
    assert from_file.stdout == from_stdin.stdout


def test_apply_prints_the_state_after_the_moves(scorpion_deal):
    variation = catalog.load("scorpion")
    state = parse_state(scorpion_deal)
    first = sorted(engine.legal_moves(variation, state), key=str)[0]
    after = engine.apply(variation, state, first)
    second = sorted(engine.legal_moves(variation, after), key=str)[0]
    expected = engine.apply(variation, after, second)
    result = solitaire("apply", str(first), str(second), stdin=scorpion_deal)
    assert result.returncode == 0, result.stderr
    assert result.stdout == format_state(expected)


@pytest.mark.parametrize("name", VARIATIONS)
def test_deal_then_moves_for_every_variation(name):
    load_or_skip(name)
    dealt = solitaire("deal", name, "--seed", "1")
    assert dealt.returncode == 0, dealt.stderr
    moves = solitaire("moves", stdin=dealt.stdout)
    assert moves.returncode == 0, moves.stderr
    listed = moves.stdout.splitlines()
    assert listed and listed == sorted(listed)


@pytest.mark.parametrize("name", VARIATIONS)
def test_playout_through_apply_conserves_cards(name):
    """A random playout where each step is one `solitaire apply` call on the last output."""
    variation = load_or_skip(name)
    deck = Counter(variation.deck.pack() * variation.deck.packs)
    text = solitaire("deal", name, "--seed", "5").stdout
    rng = SplitMix64(17)
    for _ in range(PLAYOUT_STEPS):
        moves = engine.legal_moves(variation, parse_state(text))
        if not moves:
            break
        move = moves[rng.below(len(moves))]
        result = solitaire("apply", str(move), stdin=text)
        assert result.returncode == 0, (move, result.stderr)
        state = parse_state(result.stdout)
        assert Counter(state.cards()) == deck, f"{move} broke conservation"
        assert state == engine.apply(variation, parse_state(text), move)
        text = result.stdout


def test_help_of_every_command_has_an_example():
    for command in ("variations", "deal", "moves", "apply", "play"):
        result = solitaire(command, "--help")
        assert result.returncode == 0
        assert "examples:" in result.stdout and "solitaire " in result.stdout.split("examples:")[1]
    top = solitaire("--help")
    assert top.returncode == 0
    for command in ("variations", "deal", "moves", "apply", "play"):
        assert command in top.stdout


# -- bad input ------------------------------------------------------------------------------
def test_unknown_variation():
    assert_user_error(solitaire("deal", "klondike"), "unknown variation", "klondike")
    assert_user_error(solitaire("play", "klondike"), "unknown variation")


def test_unknown_option_and_bad_value():
    assert_user_error(solitaire("deal", "scorpion", "--set", "colour=red"), "no option", "colour")
    assert_user_error(solitaire("deal", "scorpion", "--set", "moves=sideways"), "moves", "sideways")
    assert_user_error(solitaire("deal", "scorpion", "--set", "moves"), "OPTION=VALUE")


def test_bad_seed_is_refused_by_argparse():
    result = solitaire("deal", "scorpion", "--seed", "abc")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "deal number" in result.stderr


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "a state needs"),
        ("scorpion moves=runs\nphase play\nt1: XX\n", "not a card"),
        ("scorpion moves=runs\nphase\n", "line 2"),
        ("klondike\nphase play\nt1: AS\n", "unknown variation"),
        ("scorpion\nphase play\nt1: AS\n", "option"),
    ],
)
def test_malformed_state(text, fragment):
    assert_user_error(solitaire("moves", stdin=text), fragment)


def test_state_of_another_variation_or_with_wrong_cards(scorpion_deal):
    renamed = scorpion_deal.replace("scorpion moves=runs", "bismarck same_suit=false", 1)
    assert_user_error(solitaire("moves", stdin=renamed), "piles")
    lost_card = scorpion_deal.replace(" 3S\n", "\n", 1)
    assert_user_error(solitaire("moves", stdin=lost_card), "missing 3S")


def test_malformed_move(scorpion_deal):
    line = assert_user_error(solitaire("apply", "t1>>t2", stdin=scorpion_deal), "not a move", "t1>>t2")
    assert "expected" in line


def test_illegal_move_names_the_move_and_the_reason(scorpion_deal):
    variation = catalog.load("scorpion")
    reason = engine.check_move(variation, parse_state(scorpion_deal), card_move("t1", "t2"))
    assert reason
    assert_user_error(solitaire("apply", "t1>t2", stdin=scorpion_deal), "illegal move t1>t2", reason)
    assert_user_error(solitaire("apply", "t4>t7", "t1>t9", stdin=scorpion_deal), "t1>t9", "no pile t9",
                      "move 2 of 2")


def test_missing_file_and_directory(tmp_path):
    assert_user_error(solitaire("moves", "--state", str(tmp_path / "nope.txt")), "nope.txt")
    assert_user_error(solitaire("apply", "--state", str(tmp_path), "deal"), "directory")


def test_no_command_and_unknown_command():
    assert solitaire().returncode == 0
    result = solitaire("shuffle")
    assert result.returncode == 2 and "Traceback" not in result.stderr


# -- play, driven by a pipe -----------------------------------------------------------------------
def test_play_through_a_pipe(scorpion_deal):
    variation = catalog.load("scorpion")
    state = parse_state(scorpion_deal)
    legal = sorted(str(m) for m in engine.legal_moves(variation, state))
    move = next(m for m in legal if ">" in m)
    script = "\n".join(["hint", move, "undo", "undo", "t1>t2", "t1>>t2", "help", "new 2", "quit"]) + "\n"
    result = solitaire("play", "scorpion", "--seed", "1", stdin=script)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr + out
    assert "t1  t2  t3" in out and "##" in out  # pile names and card backs
    hint_line = next(line for line in out.splitlines() if "legal moves: " in line)
    assert sorted(hint_line.split("legal moves: ")[1].split()) == legal
    assert f"played {move} (move 1)" in out
    assert f"took back {move}" in out
    assert "nothing to undo" in out
    assert "illegal move t1>t2:" in out
    assert "not a move: 't1>>t2'" in out
    assert "hint" in out and "undo" in out  # the help text
    assert "deal 2" in out
    assert out.rstrip().endswith("bye")


def test_play_reports_a_stub_method_and_keeps_the_prompt(tmp_path, scorpion_deal):
    """A student's rules file whose can_pick_up is a stub: the game goes on."""
    (tmp_path / "scorpion.py").write_text(textwrap.dedent('''
        from solitaire.variation import Variation
        from reference.scorpion import Scorpion

        class StudentScorpion(Scorpion):
            def can_pick_up(self, state, pile, count):
                raise NotImplementedError
    '''))
    result = solitaire("play", "scorpion", stdin="hint\nt4>t7\ndeal\nquit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stdout.count("can_pick_up is not implemented yet in scorpion.py") >= 2
    assert "played deal (move 1)" in result.stdout
    moves = solitaire("moves", stdin=scorpion_deal, cwd=tmp_path)
    assert moves.returncode == 1 and "Traceback" not in moves.stderr
    assert moves.stderr.strip() == "solitaire: error: can_pick_up is not implemented yet in scorpion.py"


def test_play_with_a_stub_deal_ends_cleanly(tmp_path):
    (tmp_path / "scorpion.py").write_text(textwrap.dedent('''
        from solitaire.variation import Variation
        from reference.scorpion import Scorpion

        class StudentScorpion(Scorpion):
            def deal(self, state, cards):
                raise NotImplementedError
    '''))
    result = solitaire("play", "scorpion", stdin="quit\n", cwd=tmp_path)
    assert result.returncode == 1
    assert "deal is not implemented yet in scorpion.py" in result.stdout
    assert "Traceback" not in result.stderr + result.stdout


# -- the terminal game in-process (board drawing, winning) --------------------------------------
NEAR_WON_SCORPION = """\
scorpion moves=runs
phase play
t1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
t2: AS
t3:
t4:
t5:
t6:
t7:
f1: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
f2: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
f3: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH
f4:
r:
"""


def terminal_game(lines: list[str]):
    import io

    from rich.console import Console

    from solitaire.terminal import TerminalGame

    output = io.StringIO()
    console = Console(file=output, width=100)
    feed = iter(lines)

    def read_line(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return TerminalGame(catalog.load("scorpion"), {}, 1, console, read_line), output


def test_play_announces_a_win():
    from solitaire.game import Game

    game, output = terminal_game(["t2>t1", "quit"])
    game.game = Game(game.variation, parse_state(NEAR_WON_SCORPION))
    game.play("t2 > t1")  # spaces around > are forgiven
    text = output.getvalue()
    assert "played t2>t1 (move 1)" in text
    assert "You won Scorpion deal 1 in 1 move!" in text


def test_board_uses_suit_colours_and_card_backs():
    from rich.console import Console

    from solitaire.terminal import render_board

    variation = catalog.load("scorpion")
    state = engine.new_game(variation, 1)
    console = Console(width=100, force_terminal=True, color_system="standard")
    with console.capture() as capture:
        console.print(render_board(variation, state, 1))
    coloured = capture.get()
    assert "\x1b[" in coloured and "31" in coloured  # red foreground (ANSI 31) for red cards
    plain = render_board(variation, state, 1).plain
    assert plain.splitlines()[0].startswith("Scorpion  deal 1  moves=runs")
    assert "r ## (3)" in plain and "t1  t2  t3  t4  t5  t6  t7" in plain
    red = render_board(variation, state, 1)
    styles = {str(span.style) for span in red.spans}
    assert "bold red on white" in styles and "bold black on white" in styles and "white on blue" in styles


def test_run_reads_until_end_of_input():
    game, output = terminal_game(["hint", "undo"])
    assert game.run() == 0
    text = output.getvalue()
    assert "legal moves: deal  t4>t7" in text and "nothing to undo" in text


# -- plugins ----------------------------------------------------------------------------------------
def test_plugins_register_commands_and_failures_are_contained(tmp_path, monkeypatch, capsys):
    from importlib.metadata import EntryPoint

    from solitaire import cli

    (tmp_path / "fake_plugin.py").write_text(textwrap.dedent('''
        from solitaire import cli

        def register(subparsers):
            parser = cli.add_command(subparsers, "count", "count the legal moves",
                                     examples=["solitaire deal scorpion | solitaire count"])
            cli.add_variation_args(parser)
            parser.set_defaults(func=run)

        def run(args):
            variation, options = cli.variation_from_args(args)
            print("options", sorted(options.items()), "seed", args.seed)

        def broken(subparsers):
            raise RuntimeError("boom")
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins = [
        EntryPoint("count", "fake_plugin:register", cli.PLUGIN_GROUP),
        EntryPoint("absent", "no_such_plugin_module:register", cli.PLUGIN_GROUP),
        EntryPoint("broken", "fake_plugin:broken", cli.PLUGIN_GROUP),
    ]
    monkeypatch.setattr(cli, "entry_points", lambda group: plugins if group == cli.PLUGIN_GROUP else [])
    assert cli.main(["count", "scorpion", "--seed", "4", "--set", "moves=any_faceup"]) == 0
    captured = capsys.readouterr()
    assert "options [('moves', 'any_faceup')] seed 4" in captured.out
    warnings = captured.err.strip().splitlines()
    assert len(warnings) == 1 and warnings[0].startswith("solitaire: warning: command group 'broken'")
    assert "boom" in warnings[0] and "absent" not in captured.err
    assert cli.main(["count", "scorpion", "--set", "moves=diagonal"]) == 2
    assert "solitaire: error: option moves cannot be" in capsys.readouterr().err
