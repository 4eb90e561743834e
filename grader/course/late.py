"""The late policy: grace period, penalty per started day, cut-off.

Arithmetic (all times are when the remote *received* a push, never commit dates):

* received at or before ``deadline + grace``: on time, no penalty;
* later, up to ``deadline + cutoff_days``: late by ``received - deadline``;
  ``days_late`` = that duration in days rounded up (one second late after the
  grace is one day late); the penalty is ``penalty_per_day`` percent of the
  earned score per day late, at most 100 %;
* after the cut-off: not accepted; the last push received before the cut-off
  (or the deadline when ``cutoff_days`` is 0) is graded instead.

The penalty is recorded in points in the gradebook (nbgrader's
``late_submission_penalty``), so ``score - penalty`` is what the student gets.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from solitaire.errors import UserError

DAY = dt.timedelta(days=1)


@dataclass(frozen=True)
class Lateness:
    """How late one push was and what it costs."""

    seconds_late: float
    days_late: int
    penalty_percent: float
    accepted: bool

    @property
    def is_late(self) -> bool:
        return self.days_late > 0

    def penalty_points(self, score: float) -> float:
        """The points taken off an earned ``score``."""
        return round(score * self.penalty_percent / 100.0, 4)


@dataclass(frozen=True)
class LatePolicy:
    grace_minutes: int = 15
    penalty_per_day: float = 10.0
    cutoff_days: int = 3

    def check(self, where: str) -> None:
        if self.grace_minutes < 0:
            raise UserError(f"{where}: [late] grace_minutes must be >= 0")
        if not 0 <= self.penalty_per_day <= 100:
            raise UserError(f"{where}: [late] penalty_per_day is a percent between 0 and 100")
        if self.cutoff_days < 0:
            raise UserError(f"{where}: [late] cutoff_days must be >= 0")

    @property
    def grace(self) -> dt.timedelta:
        return dt.timedelta(minutes=self.grace_minutes)

    def on_time_limit(self, deadline: dt.datetime) -> dt.datetime:
        return deadline + self.grace

    def cutoff(self, deadline: dt.datetime) -> dt.datetime:
        """The last moment a push still counts (late or not)."""
        return max(deadline + self.cutoff_days * DAY, self.on_time_limit(deadline))

    def assess(self, deadline: dt.datetime, received: dt.datetime) -> Lateness:
        """The lateness of a push ``received`` at that time (see the module docstring)."""
        late = (received - deadline).total_seconds()
        if received <= self.on_time_limit(deadline):
            return Lateness(max(0.0, late), 0, 0.0, True)
        days = math.ceil(late / DAY.total_seconds())
        penalty = min(100.0, days * self.penalty_per_day)
        return Lateness(late, days, penalty, received <= self.cutoff(deadline))
