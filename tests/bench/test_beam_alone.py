"""bench/beam_alone.py runs the solver's stock beam alone, as documented in docs/winnability.md."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from beam_alone import beam_alone  # noqa: E402


def test_a_narrow_beam_wins_a_double_fives_deal_and_the_cap_stops_it() -> None:
    outcome, spent, width = beam_alone("double_fives", 3, 8, 4000)
    assert (outcome, width) == ("won", 8) and 0 < spent < 4000
    assert beam_alone("double_fives", 3, 8, 100) == ("undecided", 100, 8)


def test_an_unknown_variation_is_one_line_and_no_traceback() -> None:
    done = subprocess.run([sys.executable, str(BENCH / "beam_alone.py"), "nope", "8", "10", "1"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no variation 'nope'" in done.stderr and "Traceback" not in done.stderr
