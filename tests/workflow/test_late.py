"""The late policy's arithmetic: grace, days late rounded up, penalty cap, cut-off."""

from __future__ import annotations

import datetime as dt

import pytest

from grader.course.late import LatePolicy

DEADLINE = dt.datetime(2030, 3, 14, 23, 59, tzinfo=dt.UTC)
POLICY = LatePolicy(grace_minutes=15, penalty_per_day=10, cutoff_days=3)


def late_by(**delta: float) -> dt.datetime:
    return DEADLINE + dt.timedelta(**delta)


@pytest.mark.parametrize(
    ("received", "days", "percent", "accepted"),
    [
        (late_by(hours=-5), 0, 0.0, True),
        (late_by(seconds=0), 0, 0.0, True),
        (late_by(minutes=15), 0, 0.0, True),  # the grace period's last moment
        (late_by(minutes=15, seconds=1), 1, 10.0, True),  # one second after the grace: a whole day
        (late_by(hours=24), 1, 10.0, True),
        (late_by(hours=24, seconds=1), 2, 20.0, True),
        (late_by(days=3), 3, 30.0, True),  # the cut-off's last moment
        (late_by(days=3, seconds=1), 4, 40.0, False),
    ],
)
def test_assess(received, days, percent, accepted):
    lateness = POLICY.assess(DEADLINE, received)
    assert (lateness.days_late, lateness.penalty_percent, lateness.accepted) == (days, percent, accepted)
    assert lateness.seconds_late == max(0.0, (received - DEADLINE).total_seconds())


def test_penalty_is_a_percentage_of_the_earned_score_capped_at_all_of_it():
    steep = LatePolicy(grace_minutes=0, penalty_per_day=40, cutoff_days=10)
    assert steep.assess(DEADLINE, late_by(hours=30)).penalty_points(80.0) == 64.0  # 2 days: 80 %
    assert steep.assess(DEADLINE, late_by(days=5)).penalty_percent == 100.0
    assert steep.assess(DEADLINE, late_by(days=5)).penalty_points(55.5) == 55.5


def test_cutoff_never_precedes_the_grace_period():
    strict = LatePolicy(grace_minutes=30, penalty_per_day=10, cutoff_days=0)
    assert strict.cutoff(DEADLINE) == late_by(minutes=30)
    assert not strict.assess(DEADLINE, late_by(minutes=31)).accepted
