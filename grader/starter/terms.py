"""What a student repo's README says about the deadline, late work and the grade's arithmetic.

:func:`course_terms` puts the course file's deadline and late policy in words
(``course publish`` passes them to :func:`grader.starter.make_repo`);
:func:`rule_tests` lists the scored tests of each rule method with their
points, from the same rubric the grader scores with (:mod:`grader.rubric`),
so the README and the feedback name the same tests.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Mapping
from typing import Any
from zoneinfo import ZoneInfo

from solitaire.errors import UserError


def _offset(moment: dt.datetime) -> str:
    offset = moment.utcoffset() or dt.timedelta(0)
    sign = "+" if offset >= dt.timedelta(0) else "-"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def deadline_words(deadline: dt.datetime) -> tuple[str, str]:
    """(the deadline as a person reads it, its time zone in words)."""
    when = f"{deadline:%A} {deadline.day} {deadline:%B %Y}, {deadline:%H:%M}"
    zone = deadline.tzinfo
    utc = deadline.astimezone(dt.UTC)
    at_utc = f"{utc:%Y-%m-%d %H:%M} UTC"
    if isinstance(zone, ZoneInfo):
        return when, f"{zone.key} time ({_offset(deadline)} on that date; {at_utc})"
    if deadline.utcoffset() == dt.timedelta(0):
        return when, "UTC"
    return when, f"{_offset(deadline)} ({at_utc})"


def _plural(count: float, word: str) -> str:
    return f"{count:g} {word}" + ("" if count == 1 else "s")


def late_words(grace_minutes: int, penalty_per_day: float, cutoff_days: int) -> list[str]:
    """The late policy of the course file, one sentence a line, for a student."""
    lines = []
    if grace_minutes:
        lines.append(f"A push received up to {_plural(grace_minutes, 'minute')} after the deadline "
                     "counts as on time.")
    if cutoff_days == 0:
        lines.append("Late work is not accepted: a push received after that is not graded; the last "
                     "push received before it is.")
        return lines
    if penalty_per_day == 0:
        lines.append(f"Late work is accepted without penalty up to {_plural(cutoff_days, 'day')} after "
                     "the deadline; after that it is not accepted (the last push received before then "
                     "is graded).")
        return lines
    capped = " (at most 100%)" if penalty_per_day * cutoff_days > 100 else ""
    lines.append(f"Late work: {penalty_per_day:g}% off per day late, up to {_plural(cutoff_days, 'day')}"
                 f"{capped}; after that it is not accepted (the last push received before then is "
                 "graded).")
    lines.append("Each started day counts: one minute past the grace period is one day late. The "
                 "penalty is a share of the points you earned.")
    return lines


def course_terms(config: Any) -> dict[str, Any]:
    """The README's course section for a course (a :class:`grader.course.config.CourseConfig`)."""
    when, zone = deadline_words(config.deadline)
    late = config.late
    return {
        "course_id": config.course_id,
        "assignment": config.assignment,
        "deadline": when,
        "timezone": zone,
        "deadline_iso": config.deadline.isoformat(),
        "late": late_words(late.grace_minutes, late.penalty_per_day, late.cutoff_days),
        "branch": config.branch,
        "feedback_branch": getattr(config, "feedback_branch", "feedback"),
    }


def rule_tests(name: str, points: Mapping[str, float] | None) -> dict[str, list[dict[str, Any]]] | None:
    """Each rule method's scored tests (ruling, sentence, points), or None where the grader has
    no rubric for ``name`` (no hidden traces, no catalog entry): the README then says it in words."""
    found = _rule_tests(name, tuple(points.items()) if points else ())
    return {method: [dict(test) for test in tests] for method, tests in found.items()} if found else None


@functools.lru_cache(maxsize=64)
def _rule_tests(name: str, points: tuple[tuple[str, float], ...]) -> dict[str, list[dict[str, Any]]]:
    """rule_tests, computed once per variation and points (``course publish`` asks per student)."""
    try:
        from grader.grade import rubric_for

        rubric = rubric_for(name, points=dict(points) if points else None)
    except (ImportError, LookupError, OSError, UserError):
        return {}
    found: dict[str, list[dict[str, Any]]] = {}
    for method, tests in rubric.by_method().items():
        found[method] = [{"ruling": t.ruling, "sentence": t.sentence, "points": t.points} for t in tests]
    return found
