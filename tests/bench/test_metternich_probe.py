"""bench/metternich_probe.py: the solver on Metternich as ruled and with rulings changed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from metternich_probe import probe  # noqa: E402


def test_spaces_that_take_any_run_make_a_deal_the_ruled_game_cannot_win_in_the_budget_easy() -> None:
    # deal 1: undecided as ruled at 300 states; won with spaces that take any run
    assert probe("ruled", 1, 1, 300)[0] == {"won": 0, "lost": 0, "undecided": 1}
    assert probe("spaces", 1, 1, 300)[0]["won"] == 1


def test_an_unknown_probe_is_one_line_and_no_traceback() -> None:
    done = subprocess.run([sys.executable, str(BENCH / "metternich_probe.py"), "nope"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no probe 'nope'" in done.stderr and "Traceback" not in done.stderr
