"""Progress of a long command with an estimate of the time left, on stderr.

One module for every command that counts its way through a long piece of
work (``solitaire winnability``, ``traces build``, ``check-suite``, the course
steps): the arithmetic of the estimate (:class:`Pace`), a rich column that
shows it (:class:`LeftColumn`) and the display itself (:class:`Progress`).

* On a terminal: one live line, ``label [bar] 12/200 units 0:00:34 elapsed,
  about 0:09:20 left`` and a note (the last item, running counts).
* Elsewhere (a pipe, a log file, a test's captured stderr): a line when the
  count starts, then a line when another tenth of the work is done and at the
  first item after :data:`HEARTBEAT` seconds without one, so a log shows the
  run is alive without a line per item.

The display always goes to stderr (or the console given), never to stdout,
which may carry data a user pipes on.

The estimate is the pace so far: the seconds per item since the count began
times the items left, counting down between items. It knows nothing of the
work (no game, no grader), so the engine and the grader share it.
"""

from __future__ import annotations

import datetime as dt
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, Task, TextColumn
from rich.progress import Progress as RichProgress
from rich.table import Column
from rich.text import Text

Clock = Callable[[], float]
#: a plain line at least this often (seconds) while a count runs and no tenth is crossed
HEARTBEAT = 15.0
#: plain lines at each of these shares of the total (a tenth)
STEP = 0.1


def remaining(done: int, total: int, elapsed: float) -> float | None:
    """Seconds left at the pace so far: ``elapsed / done`` per item times the items left.

    None while nothing is done (no pace yet) or without a total; 0 once all is done."""
    if total <= 0 or done <= 0:
        return None
    if done >= total:
        return 0.0
    return elapsed / done * (total - done)


def clock_text(seconds: float) -> str:
    """``0:01:05``: whole seconds as hours, minutes and seconds."""
    return str(dt.timedelta(seconds=max(0, round(seconds))))


def is_live(console: Console) -> bool:
    """Whether ``console`` shows a live display (a terminal that is not ``TERM=dumb``)."""
    return console.is_terminal and not console.is_dumb_terminal


class Pace:
    """The count of one piece of work: items done of ``total``, time elapsed, time left.

    ``clock`` gives seconds (``time.monotonic`` by default; a fake one in tests)."""

    def __init__(self, total: int, clock: Clock = time.monotonic) -> None:
        self.total = total
        self.clock = clock
        self.started = clock()
        self.done = 0
        self.last_item = self.started  # when the last item was done
        self.last_line = self.started  # when the last plain line was due
        self.next_share = STEP

    def advance(self, count: int = 1) -> None:
        self.done += count
        self.last_item = self.clock()

    def elapsed(self) -> float:
        return self.clock() - self.started

    def left(self) -> float | None:
        """Seconds left: the estimate made when the last item was done, less the time since."""
        estimate = remaining(self.done, self.total, self.last_item - self.started)
        if estimate is None:
            return None
        return max(0.0, estimate - (self.clock() - self.last_item))

    def left_text(self) -> str:
        left = self.left()
        if left is None:
            return "time left not known yet"
        return "done" if self.done >= self.total else f"about {clock_text(left)} left"

    def count_text(self, unit: str = "") -> str:
        share = f" ({self.done / self.total:.0%})" if self.total > 0 else ""
        return f"{self.done}/{self.total}{' ' + unit if unit else ''}{share}"

    def summary(self, unit: str = "") -> str:
        """``12/200 deals (6%), 0:00:34 elapsed, about 0:09:20 left``."""
        return f"{self.count_text(unit)}, {clock_text(self.elapsed())} elapsed, {self.left_text()}"

    def line_due(self) -> bool:
        """Whether a plain line is due now: a further tenth done, the end, or a heartbeat.

        Answering True counts as printing it (the next heartbeat is measured from now)."""
        now = self.clock()
        share = self.done / self.total if self.total > 0 else 0.0
        due = self.done >= self.total or now - self.last_line >= HEARTBEAT
        if self.total > 0 and share >= self.next_share - 1e-9:
            due = True
            self.next_share = (math.floor(share / STEP + 1e-9) + 1) * STEP
        elif due:  # a heartbeat just short of a tenth stands for that tenth's line
            self.next_share = max(self.next_share, math.ceil((share + STEP / 2) / STEP - 1e-9) * STEP)
        if due:
            self.last_line = now
        return due


class LeftColumn(ProgressColumn):
    """A rich column: the elapsed time and the time left of the :class:`Pace` that ``pace`` returns
    (a callable, so that a display of several phases shows the current one's)."""

    def __init__(self, pace: Callable[[], Pace | None]) -> None:
        super().__init__(table_column=Column(no_wrap=True))  # a narrow terminal cuts the note, not this
        self.pace = pace

    def render(self, task: Task) -> Text:
        pace = self.pace()
        if pace is None:
            return Text("")
        return Text(f"{clock_text(pace.elapsed())} elapsed, {pace.left_text()}", style="progress.remaining")


class Progress:
    """A counted piece of work of ``total`` items shown on ``console`` (stderr by default).

    Use as a context manager; call :meth:`advance` after each item, with an
    optional ``note`` (which item, running counts) shown after the estimate::

        with Progress("indian", 100, unit="deals") as progress:
            for seed in seeds:
                ...
                progress.advance(note=f"won {won}")
    """

    def __init__(self, label: str, total: int, unit: str = "", console: Console | None = None,
                 clock: Clock = time.monotonic, redirect: bool = True) -> None:
        """``redirect=False``: leave ``sys.stdout`` alone even on a terminal (for work that forks
        processes while the live line runs: a child must not inherit a stdout that writes through
        the display's lock)."""
        self.redirect = redirect
        self.label = label
        self.unit = unit
        self.console = console or Console(stderr=True, highlight=False)
        self.pace = Pace(total, clock)
        self.note = ""
        self.bar: RichProgress | None = None
        self.task: Any = None

    def __enter__(self) -> Progress:
        if self.pace.total <= 0:  # nothing to count: nothing to show
            return self
        if is_live(self.console):
            # stdout printed during the run goes above the live line only when it is the same
            # terminal; a piped stdout is left alone (its data must not move to stderr)
            self.bar = RichProgress(
                TextColumn("{task.description}", table_column=Column(no_wrap=True)), BarColumn(bar_width=20),
                MofNCompleteColumn(table_column=Column(no_wrap=True)),
                TextColumn(self.unit, table_column=Column(no_wrap=True)), LeftColumn(lambda: self.pace),
                TextColumn("{task.fields[note]}", table_column=Column(no_wrap=True, overflow="ellipsis")),
                console=self.console, redirect_stdout=self.redirect and sys.stdout.isatty(),
                redirect_stderr=False,
            )
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=self.pace.total, note="")
        else:
            self._print(f"{self.label}: {self.pace.count_text(self.unit)}, started")
        return self

    def advance(self, note: str = "", count: int = 1) -> None:
        """``count`` more items done; ``note`` replaces the note shown."""
        self.pace.advance(count)
        self.note = note
        if self.bar is not None:
            self.bar.update(self.task, advance=count, note=note)
        elif self.pace.total > 0 and self.pace.line_due():
            self._print(self.line())

    def line(self) -> str:
        """The plain line: ``label: 12/200 deals (6%), 0:00:34 elapsed, about 0:09:20 left; note``."""
        return f"{self.label}: {self.pace.summary(self.unit)}" + (f"; {self.note}" if self.note else "")

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def _print(self, text: str) -> None:
        self.console.print(text, highlight=False, soft_wrap=True, markup=False)
