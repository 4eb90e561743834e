"""``solitaire solve`` and ``solitaire winnability``, run as a user runs them: in a subprocess.

A won move list must replay through ``solitaire apply`` to a won state, for
every variation: on a deal the solver wins within a small budget, or, where
random deals are rarely won quickly (Scorpion, Metternich), on a near-won
position given with ``--state``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from solitaire import catalog, parse_state

RUN = "K Q J T 9 8 7 6 5 4 3 2 A".split()


def solitaire(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "solitaire", *args],
        input=stdin, capture_output=True, text=True, timeout=120,
    )


def assert_user_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    """Exit 2, nothing on stdout, one stderr line 'solitaire: error: ...' holding the fragments."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("solitaire: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def suit_run(suit: str, high: str = "K", low: str = "A") -> str:
    return " ".join(rank + suit for rank in RUN[RUN.index(high) : RUN.index(low) + 1])


def scorpion_state(columns: dict[str, str], removed: str) -> str:
    """A Scorpion position after the reserve deal: ``columns`` as given, the suits
    ``removed`` on f1, f2 ..."""
    lines = ["scorpion moves=runs", "phase play"]
    lines += [f"t{i}: {columns.get(f't{i}', '')}".rstrip() for i in range(1, 8)]
    lines += [f"f{i}: {suit_run(suit)}" for i, suit in enumerate(removed, start=1)]
    lines += [f"f{i}:" for i in range(len(removed) + 1, 5)] + ["r:"]
    return "\n".join(lines) + "\n"


def scorpion_near_won() -> str:
    """Spades left, in three columns, the five of spades face down under the 7-6."""
    columns = {"t1": suit_run("S", "K", "8"), "t2": "5s 7S 6S", "t3": suit_run("S", "4")}
    return scorpion_state(columns, removed="CDH")


def scorpion_blocked() -> str:
    """Each ace lies on the other suit's two: neither can move, so neither two is freed."""
    columns = {"t1": suit_run("H", "K", "2") + " AS", "t2": suit_run("S", "K", "2") + " AH"}
    return scorpion_state(columns, removed="CD")


def metternich_near_won() -> str:
    """Each foundation built to its ten; jacks, queens and kings left in the columns,
    a jack on the stock and a queen in the waste."""
    foundations = [suit_run(suit, "T") for suit in "CCDDHHSS"]
    columns = ["KC QC", "KC QC", "JC", "JC", "KD QD JD", "KD QD JD", "KH JH", "KH QH",
               "KS QS JS", "KS QS JS", "", ""]
    lines = ["metternich kings_rule=true", "phase play redeals=1"]
    lines += [f"t{i}: {cards}".rstrip() for i, cards in enumerate(columns, start=1)]
    lines += [f"f{i}: {' '.join(reversed(cards.split()))}" for i, cards in enumerate(foundations, start=1)]
    lines += ["s: JH", "w: QH"]
    return "\n".join(lines) + "\n"


# Deals the solver wins within the budget (checked by the test itself).
WON_DEALS = {"bismarck": 1, "napoleons_square": 1, "double_fives": 2, "indian": 9}
NEAR_WON = {"scorpion": scorpion_near_won, "metternich": metternich_near_won}


def start_text(name: str, tmp_path: Path) -> tuple[list[str], Path]:
    """The solve arguments for a winnable start of ``name`` and a file holding that start."""
    path = tmp_path / f"{name}.txt"
    if name in NEAR_WON:
        path.write_text(NEAR_WON[name](), encoding="utf-8")
        return ["--state", str(path)], path
    seed = str(WON_DEALS[name])
    dealt = solitaire("deal", name, "--seed", seed)
    assert dealt.returncode == 0, dealt.stderr
    path.write_text(dealt.stdout, encoding="utf-8")
    return [name, "--seed", seed], path


@pytest.mark.parametrize("name", sorted([*WON_DEALS, *NEAR_WON]))
def test_a_won_move_list_replays_to_a_won_state(name, tmp_path):
    assert name in catalog.reference_names()
    arguments, start = start_text(name, tmp_path)
    result = solitaire("solve", *arguments, "--budget", "3000")
    assert result.returncode == 0, result.stderr
    head, *moves = result.stdout.splitlines()
    assert re.fullmatch(r"won nodes=[1-9][0-9]* seconds=[0-9]+\.[0-9]{2}", head), head
    assert moves, "a won result lists its moves"
    replayed = solitaire("apply", "--state", str(start), *moves)
    assert replayed.returncode == 0, replayed.stderr
    final = parse_state(replayed.stdout)
    assert catalog.load(name).is_won(final)


def test_a_state_on_stdin_is_solved_and_its_variation_checked(tmp_path):
    text = scorpion_near_won()
    result = solitaire("solve", stdin=text)
    assert result.returncode == 0 and result.stdout.startswith("won "), result.stderr
    same = solitaire("solve", "scorpion", "--state", "-", stdin=text)
    assert same.stdout.splitlines()[1:] == result.stdout.splitlines()[1:]
    assert_user_error(solitaire("solve", "bismarck", "--state", "-", stdin=text), "scorpion state")
    assert_user_error(solitaire("solve", "--seed", "2", stdin=text), "--seed")


def test_a_blocked_position_is_lost_and_a_small_budget_undecided():
    result = solitaire("solve", stdin=scorpion_blocked())
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"lost nodes=[0-9]+ seconds=[0-9.]+\n", result.stdout), result.stdout
    result = solitaire("solve", "indian", "--seed", "2", "--budget", "25")
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"undecided nodes=25 seconds=[0-9.]+\n", result.stdout), result.stdout


@pytest.mark.parametrize(
    ("arguments", "fragments"),
    [
        (["solve", "klondike"], ["unknown variation", "klondike"]),
        (["solve", "scorpion", "--budget", "lots"], ["--budget", "whole number"]),
        (["solve", "scorpion", "--budget", "0"], ["--budget", "at least 1"]),
        (["solve", "scorpion", "--seed", "-3"], ["--seed"]),
        (["solve", "scorpion", "--set", "moves=sideways"], ["moves", "sideways"]),
        (["solve", "scorpion", "--set", "colour=red"], ["no option", "colour"]),
        (["winnability", "klondike", "--deals", "2"], ["unknown variation"]),
        (["winnability", "scorpion", "--deals", "0"], ["--deals", "at least 1"]),
        (["winnability", "scorpion", "--deals", "2", "--budget", "-5"], ["--budget"]),
        (["winnability", "scorpion", "--deals", "2", "--jobs", "two"], ["--jobs"]),
        (["winnability", "scorpion", "--deals", "2", "--set", "moves=all"], ["moves"]),
    ],
)
def test_bad_input_is_one_line_and_status_2(arguments, fragments):
    assert_user_error(solitaire(*arguments), *fragments)


def test_winnability_prints_the_counts_and_the_interval():
    result = solitaire("winnability", "scorpion", "--deals", "4", "--budget", "60", "--first", "3")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "scorpion moves=runs: deals 3..6, budget 60 nodes, jobs 1"
    counts = re.fullmatch(r"won (\d+)  lost (\d+)  undecided (\d+)  of 4", lines[1])
    assert counts and sum(int(n) for n in counts.groups()) == 4
    interval = re.match(r"win rate (\d+\.\d)%  95% interval (\d+\.\d)%\.\.(\d+\.\d)%", lines[2])
    assert interval, lines[2]
    rate, low, high = (float(x) for x in interval.groups())
    assert low <= rate <= high and high > 0
    assert lines[3].startswith("decided ")
    assert len(lines) == 4  # stdout holds the report only: the progress goes to stderr
    progress = result.stderr.splitlines()  # plain lines when stderr is not a terminal
    assert progress[0] == "scorpion: 0/4 deals (0%), started"
    assert progress[-1].startswith("scorpion: 4/4 deals (100%), 0:00:") and ", done; won " in progress[-1]
    assert any("elapsed, about 0:" in line and " left; " in line for line in progress[1:-1])


def test_winnability_lists_the_undecided_deals():
    result = solitaire("winnability", "napoleons_square", "--deals", "3", "--budget", "5", "--first", "7")
    assert result.returncode == 0, result.stderr
    assert "won 0  lost 0  undecided 3  of 3" in result.stdout
    assert result.stdout.splitlines()[-1] == "undecided deals: 7 8 9"


def test_winnability_with_two_jobs_agrees_with_one():
    one = solitaire("winnability", "bismarck", "--deals", "3", "--budget", "400")
    two = solitaire("winnability", "bismarck", "--deals", "3", "--budget", "400", "--jobs", "2")
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout.splitlines()[1:3] == two.stdout.splitlines()[1:3]
    assert "won 3  lost 0  undecided 0  of 3" in one.stdout
