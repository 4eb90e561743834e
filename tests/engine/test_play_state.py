"""``solitaire play VARIATION --state FILE`` and the in-game help of the variation played.

``play --state`` is the reproduction command printed in grading feedback, so it
must also work inside a generated student repo (vendored engine, stub rules).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli import NEAR_WON_SCORPION, assert_user_error, solitaire

from solitaire import catalog
from solitaire.terminal import help_text


@pytest.fixture
def board(tmp_path: Path) -> Path:
    """Deal 3 of Scorpion after one move, saved as board.txt (a position no deal starts from)."""
    dealt = solitaire("deal", "scorpion", "--seed", "3")
    moved = solitaire("apply", "deal", stdin=dealt.stdout)
    assert moved.returncode == 0, moved.stderr
    path = tmp_path / "board.txt"
    path.write_text(moved.stdout, encoding="utf-8")
    return path


def test_play_starts_from_the_board_in_the_file(board):
    result = solitaire("play", "scorpion", "--state", "board.txt", stdin="state\nquit\n", cwd=board.parent)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and "Traceback" not in result.stdout
    first = result.stdout.splitlines()[0]
    assert first.startswith("Scorpion  from board.txt  moves=runs")
    assert board.read_text(encoding="utf-8") in result.stdout  # `state` prints the very board given
    assert result.stdout.rstrip().endswith("bye")


def test_a_board_copied_with_its_markdown_fence_is_accepted(board):
    board.write_text("```\n" + board.read_text(encoding="utf-8") + "```\n", encoding="utf-8")
    result = solitaire("play", "scorpion", "--state", str(board), stdin="quit\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Scorpion  from board.txt  moves=runs")  # the file's name only


def test_a_win_from_a_board_names_the_file(tmp_path):
    (tmp_path / "near.txt").write_text(NEAR_WON_SCORPION, encoding="utf-8")
    result = solitaire("play", "scorpion", "--state", "near.txt", stdin="t2>t1\nquit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "You won Scorpion from near.txt in 1 move!" in result.stdout


@pytest.mark.parametrize(
    ("content", "args", "fragments"),
    [
        (None, (), ("cannot read missing.txt", "No such file")),
        ("this is not a board\n", (), ("board.txt does not hold a board in the state notation",)),
        ("scorpion moves=runs\nphase play\nt1: XX\n", (), ("board.txt does not hold a board", "not a card")),
        ("bismarck", (), ("board.txt holds a board of bismarck, not scorpion",
                          "solitaire play bismarck --state board.txt")),
        ("scorpion moves=runs\nphase play\nt1: AS\n", (), ("board.txt: scorpion has piles",)),
        ("scorpion", ("--seed", "4"), ("--seed and --set do not go with --state",)),
        ("scorpion", ("--set", "moves=runs"), ("--seed and --set do not go with --state",)),
    ],
    ids=["missing", "not-a-state", "bad-card", "other-variation", "wrong-piles", "seed", "set"],
)
def test_a_bad_board_is_a_one_line_error(tmp_path, content, args, fragments):
    if content in catalog.reference_names():
        content = solitaire("deal", content).stdout
    if content is not None:
        (tmp_path / "board.txt").write_text(content, encoding="utf-8")
    name = "board.txt" if content is not None else "missing.txt"
    result = solitaire("play", "scorpion", "--state", name, *args, stdin="quit\n", cwd=tmp_path)
    assert_user_error(result, *fragments)


def test_a_board_with_a_card_missing_is_refused(tmp_path, board):
    text = board.read_text(encoding="utf-8").replace(" 2D", "", 1)
    assert text != board.read_text(encoding="utf-8")
    board.write_text(text, encoding="utf-8")
    assert_user_error(solitaire("play", "scorpion", "--state", "board.txt", cwd=tmp_path),
                      "does not hold the 1 pack of scorpion", "missing 2D")


# -- the help shows the piles and actions of the variation played ------------------------------
def test_scorpion_help_has_no_stock_or_waste():
    text = help_text(catalog.load("scorpion"))
    assert "stock" not in text and "waste" not in text and "s>w" not in text
    assert "deal       an action of Scorpion" in text
    assert "Piles of Scorpion: t1..t7 tableau, f1..f4 foundations (filled by the game" in text
    assert "r reserve." in text
    assert "t1>f1" not in text  # Scorpion's foundations take no card moves


def test_a_stock_game_help_lists_its_stock_move():
    text = help_text(catalog.load("double_fives"))
    assert "s>w        move the top card of s onto w" in text
    assert "redeal     an action of Double Fives" in text
    assert "s stock" in text and "w waste" in text and "t1>f1" in text


def test_play_help_command_in_the_game_is_the_variation_help():
    result = solitaire("play", "scorpion", stdin="help\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "Piles of Scorpion:" in result.stdout and "waste" not in result.stdout
    described = solitaire("play", "--help")
    assert "s>w" not in described.stdout and "--state FILE" in described.stdout


# -- in a generated student repo (vendored engine, stub rules) ----------------------------------
def test_play_state_works_in_a_student_repo(tmp_path, board):
    from grader.starter.repo import make_repo

    repo = tmp_path / "repo"
    make_repo("scorpion", repo)
    (repo / "board.txt").write_text(board.read_text(encoding="utf-8"), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST", "SOLITAIRE_"))}
    result = subprocess.run(
        [sys.executable, "-m", "solitaire", "play", "scorpion", "--state", "board.txt"],
        cwd=repo, env=env, input="help\nquit\n", capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout.startswith("Scorpion  from board.txt")
    assert "is not implemented yet in scorpion.py" in result.stdout  # the starter's stubs, reported
    assert "Piles of Scorpion:" in result.stdout
