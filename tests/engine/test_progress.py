"""The progress display of long commands: the estimate of the time left, and when plain lines appear."""

from __future__ import annotations

import io

from rich.console import Console

from solitaire.progress import HEARTBEAT, Pace, Progress, clock_text, remaining


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_remaining_is_the_pace_so_far_times_the_items_left():
    assert remaining(0, 10, 5.0) is None  # no pace yet
    assert remaining(3, 0, 5.0) is None  # no total
    assert remaining(2, 10, 6.0) == 24.0  # 3 s an item, 8 left
    assert remaining(10, 10, 6.0) == 0.0
    assert remaining(12, 10, 6.0) == 0.0


def test_clock_text():
    assert clock_text(0) == "0:00:00"
    assert clock_text(65.4) == "0:01:05"
    assert clock_text(3 * 3600 + 59) == "3:00:59"
    assert clock_text(-3) == "0:00:00"


def test_the_estimate_counts_down_between_items_and_follows_the_pace():
    clock = FakeClock()
    pace = Pace(4, clock)
    assert pace.left() is None and pace.left_text() == "time left not known yet"
    clock.now += 10
    pace.advance()
    assert pace.left() == 30.0 and pace.left_text() == "about 0:00:30 left"
    clock.now += 12  # no item for 12 s: the estimate made at the last item counts down
    assert pace.left() == 18.0
    clock.now += 40
    assert pace.left() == 0.0  # never negative
    pace.advance()  # 2 items in 62 s: 31 s an item, 2 left
    assert pace.left() == 62.0
    assert pace.summary("deals") == "2/4 deals (50%), 0:01:02 elapsed, about 0:01:02 left"
    pace.advance(2)
    assert pace.left() == 0.0 and pace.left_text() == "done"


def test_plain_lines_come_every_tenth_and_after_a_silence_not_every_item():
    clock = FakeClock()
    pace = Pace(200, clock)
    due = []
    for _ in range(200):
        clock.now += 0.01
        pace.advance()
        due.append(pace.line_due())
    assert sum(due) == 10  # 20, 40, ..., 200
    assert [i + 1 for i, d in enumerate(due) if d][:3] == [20, 40, 60]

    slow = Pace(1000, clock)
    clock.now += HEARTBEAT + 1
    slow.advance()
    assert slow.line_due()  # the first item after a silence: a line
    clock.now += 1
    slow.advance()
    assert not slow.line_due()

    near = Pace(200, clock)  # a heartbeat at 19 of 200: no second line at 20 (the tenth)
    for _ in range(18):
        near.advance()
        assert not near.line_due()
    clock.now += HEARTBEAT
    near.advance()
    assert near.line_due()
    shown = []
    for _ in range(181):
        near.advance()
        shown.append(near.line_due())
    assert [19 + i + 1 for i, d in enumerate(shown) if d] == [40, 60, 80, 100, 120, 140, 160, 180, 200]


def test_a_small_count_prints_each_item_that_crosses_a_tenth():
    clock = FakeClock()
    pace = Pace(3, clock)
    lines = []
    for _ in range(3):
        pace.advance()
        lines.append(pace.line_due())
    assert lines == [True, True, True]


def test_not_on_a_terminal_progress_prints_a_few_plain_lines():
    console = Console(file=io.StringIO(), force_terminal=False)
    clock = FakeClock()
    with Progress("indian", 20, unit="deals", console=console, clock=clock) as progress:
        for number in range(20):
            clock.now += 3
            progress.advance(note=f"won {number + 1}")
    lines = console.file.getvalue().splitlines()
    assert lines[0] == "indian: 0/20 deals (0%), started"
    assert len(lines) == 11
    assert lines[1] == "indian: 2/20 deals (10%), 0:00:06 elapsed, about 0:00:54 left; won 2"
    assert lines[-1] == "indian: 20/20 deals (100%), 0:01:00 elapsed, done; won 20"


def test_nothing_to_count_shows_nothing():
    for terminal in (False, True):
        console = Console(file=io.StringIO(), force_terminal=terminal)
        with Progress("publish", 0, unit="repos", console=console) as progress:
            progress.advance()  # a caller's count may be off: still nothing shown
        assert console.file.getvalue() == "" and progress.bar is None


def test_on_a_terminal_progress_is_one_live_line_with_the_estimate():
    console = Console(file=io.StringIO(), force_terminal=True, width=150)
    clock = FakeClock()
    with Progress("indian", 4, unit="deals", console=console, clock=clock) as progress:
        clock.now += 5
        progress.advance(note="won 1")
        assert progress.bar is not None
        (task,) = progress.bar.tasks
        assert (task.completed, task.total, task.fields["note"]) == (1, 4, "won 1")
        progress.bar.refresh()
        shown = console.file.getvalue()
        assert "1/4" in shown and "about 0:00:15 left" in shown and "won 1" in shown
    assert progress.bar is None
