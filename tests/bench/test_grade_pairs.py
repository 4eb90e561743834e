"""bench/grade_pairs.py: two versions of the sandboxed grade in alternating pairs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from grade_pairs import summary  # noqa: E402

from grader.grade import sandbox_available  # noqa: E402


def test_the_pairs_ratio_is_the_median_of_each_pairs_ratio_not_of_the_medians() -> None:
    # a host that slows down half-way: each pair B is 10% faster than its A
    pairs = [((1.0, 0.5, 7), (0.9, 0.5, 7)), ((2.0, 0.6, 7), (1.8, 0.6, 7)), ((4.0, 0.7, 7), (3.6, 0.8, 7))]
    found = summary(pairs)
    assert found["pairs"] == pytest.approx(0.9)
    assert found["a_wall"] == 2.0 and found["b_wall"] == 1.8 and found["b_cpu"] == 0.6


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH / "grade_pairs.py"), *args],
                          capture_output=True, text=True, timeout=300)


def test_bad_input_is_one_line_and_no_traceback(tmp_path) -> None:
    done = _run("--a-tree", str(tmp_path), "scorpion")
    assert done.returncode == 2 and "is not a checkout" in done.stderr and "Traceback" not in done.stderr
    done = _run("--a-env", "NOEQUALS", "scorpion")
    assert done.returncode != 0 and "NAME=VALUE" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not sandbox_available(), reason="grades through the sandbox")
def test_one_pair_grades_both_sides_alike() -> None:
    done = _run("--pairs", "1", "--b-env", "SOLITAIRE_SUITE_AHEAD=0", "bismarck")
    assert done.returncode == 0, done.stderr
    row = [line for line in done.stdout.splitlines() if line.startswith("| bismarck |")]
    assert len(row) == 1 and "not the same grade" not in done.stderr
