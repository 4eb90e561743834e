"""The README of a published student repo states the course's deadline, late policy and scoring."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import git
from workflow_support import variation_of

from grader.course.points import category_points
from grader.grade import rubric_for
from grader.starter.terms import deadline_words, late_words


def _published_readme(course, student: str) -> str:
    tree = git.Repo(course.remote_url(student)).commit(course.branch).tree
    return tree["README.md"].data_stream.read().decode("utf-8")


def test_published_readme_states_deadline_late_policy_and_points(make_course):
    from grader.course import assign, config, publish

    course = make_course(["ana"])
    text = (course.directory / "course.toml").read_text()
    text = text.replace("cutoff_days = 3", "cutoff_days = 2").replace("penalty_per_day = 10",
                                                                      "penalty_per_day = 25")
    course_file = course.directory / "course.toml"
    assign.run(course)
    variation = variation_of(course, "ana")
    first_method = next(iter(category_points(variation)))
    course_file.write_text(text + f"\n[points.{variation}]\n{first_method} = 33\n")
    course = config.load(course.directory)
    assert not publish.publish(course).failed

    readme = _published_readme(course, "ana")
    # workflow_support's deadline: 2030-03-14 23:59 at +01:00
    assert "**Deadline: Thursday 14 March 2030, 23:59, UTC+01:00 (2030-03-14 22:59 UTC).**" in readme
    assert "up to 15 minutes after the deadline counts as on time" in readme
    assert "Late work: 25% off per day late, up to 2 days; after that it is not accepted" in readme
    points = category_points(variation, course.points)
    assert points[first_method] == 33
    rubric = rubric_for(variation, points=points).by_method()
    for method, value in points.items():
        tests = ", ".join(f"`{t.ruling}` {t.points:g}" for t in rubric[method])
        assert f"| `{method}` | {value:g} | {tests} |" in readme
    count = sum(len(tests) for tests in rubric.values())
    assert f"| **total** | **{sum(points.values()):g}** | {count} tests |" in readme
    assert "less the\nlate penalty" in readme
    assert "git show origin/feedback:feedback.md" in readme


def test_late_policy_in_words():
    assert late_words(0, 0, 0) == ["Late work is not accepted: a push received after that is not graded; "
                                   "the last push received before it is."]
    free = late_words(5, 0, 1)
    assert free[0].startswith("A push received up to 5 minutes") and "without penalty up to 1 day " in free[1]
    capped = late_words(15, 40, 3)
    assert "40% off per day late, up to 3 days (at most 100%)" in capped[1]


def test_deadline_in_words_names_the_zone_and_utc():
    when, zone = deadline_words(dt.datetime(2025, 10, 17, 23, 59, tzinfo=ZoneInfo("America/New_York")))
    assert when == "Friday 17 October 2025, 23:59"
    assert zone == "America/New_York time (UTC-04:00 on that date; 2025-10-18 03:59 UTC)"
    assert deadline_words(dt.datetime(2025, 1, 2, 12, 0, tzinfo=dt.UTC))[1] == "UTC"
