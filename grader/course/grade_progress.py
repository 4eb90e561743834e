"""What a ``course grade`` run is doing, shown from its first step to its last.

A run spends much of its time outside grading proper (reading what to grade,
opening the gradebook, starting the worker processes, writing the gradebook
at the end); a bar that only counted gradings showed 9 s of a 32 s run. So the
display names the phase the run is in, with the time since the run began:

* on a terminal, one live line: elapsed time, phase, a bar (counting while
  grading, moving while waiting), the count, the estimate of the time left
  (:mod:`solitaire.progress`) and the last student graded;
* elsewhere (a pipe, a log, a test's console), a line per phase and, while
  grading, a line with the time left when another tenth of the class is
  graded (and after a silence), since a live display would only show its last
  frame and a line per submission floods the log of a large class.

A run begins in the phase :data:`COLLECTING` (shown live, not printed as a
line: it takes a fraction of a second) and ends with one line saying what was
done and how long each phase took; a run with nothing to do prints only that.
"""

from __future__ import annotations

import datetime as dt
import time

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TaskID, TextColumn
from rich.text import Text

from solitaire.progress import LeftColumn, Pace

COLLECTING = "collecting what to grade"
REACHING = "reaching the Celery broker and workers"
OPENING = "opening the gradebook"
STARTING = "starting {jobs} grading process(es)"
GRADING = "grading"
WRITING = "writing the gradebook"


class _SinceStart(ProgressColumn):
    """The time since the run began (rich's elapsed column restarts with each phase)."""

    def __init__(self, started: float) -> None:
        super().__init__()
        self.started = started

    def render(self, task: Task) -> Text:
        seconds = int(time.monotonic() - self.started)
        return Text(str(dt.timedelta(seconds=seconds)), style="progress.elapsed")


class RunProgress:
    """The phases of one grading run on ``console`` (see the module docstring)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.live = console.is_terminal and not console.is_dumb_terminal
        self.started = time.monotonic()
        self.phases: list[tuple[str, float]] = [(COLLECTING, self.started)]  # (phase, when it began)
        self.done = 0
        self.total: int | None = None
        self.pace: Pace | None = None  # the count of the current phase, when it counts
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def __enter__(self) -> RunProgress:
        if self.live:
            self.bar = Progress(_SinceStart(self.started), TextColumn("{task.description}"), BarColumn(),
                                TextColumn("{task.fields[count]}"), LeftColumn(lambda: self.pace),
                                TextColumn("{task.fields[detail]}"),
                                console=self.console, transient=True)
            self.bar.start()
            self.task = self.bar.add_task(COLLECTING, total=None, count="", detail="")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def phase(self, name: str, total: int | None = None, printed: bool = True) -> None:
        """Enter the phase ``name``; ``total``: how many items it counts (None: it counts nothing).

        ``printed=False``: shown live but no line of its own elsewhere (a check that may end
        the run with an error, which is then the only line)."""
        self.phases.append((name, time.monotonic()))
        self.done, self.total = 0, total
        self.pace = None if total is None else Pace(total)
        if self.bar is not None and self.task is not None:  # a line per phase, only the last one shown
            self.bar.update(self.task, visible=False)
            self.task = self.bar.add_task(name, total=total, count=self._count(), detail="")
        elif printed:
            self.console.print(f"{self._elapsed():6.1f} s  {name}", highlight=False, soft_wrap=True)

    def advance(self, detail: str = "") -> None:
        """One item of the current phase is done (``detail``: which)."""
        self.done += 1
        if self.pace is not None:
            self.pace.advance()
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, advance=1, count=self._count(), detail=detail)
        elif self.pace is None or self.pace.line_due():
            left = f"{self.pace.left_text()}  " if self.pace is not None else ""
            self.console.print(f"{self._elapsed():6.1f} s    {left}{self._count()} {detail}".rstrip(),
                               highlight=False, soft_wrap=True)

    def finish(self, outcome: str) -> None:
        """End the display and print ``outcome`` with the time of each phase, on one line."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
        self.console.print(f"{outcome} ({self._elapsed():.1f} s: {self.timings()})", highlight=False,
                           soft_wrap=True)

    def timings(self) -> str:
        """``phase 1.2 s, phase 0.3 s, ...`` for the phases so far."""
        ends = [began for _, began in self.phases[1:]] + [time.monotonic()]
        spans = zip(self.phases, ends, strict=True)
        return ", ".join(f"{name} {end - began:.1f} s" for (name, began), end in spans)

    def _count(self) -> str:
        return "" if self.total is None else f"{self.done}/{self.total}"

    def _elapsed(self) -> float:
        return time.monotonic() - self.started
