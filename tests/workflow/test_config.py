"""course init and the course file: defaults, deadline time zones, clear errors."""

from __future__ import annotations

import datetime as dt

import pytest

from grader.course import config
from solitaire.errors import UserError


def test_init_writes_a_loadable_course_with_local_defaults(tmp_path):
    course = config.init(tmp_path / "c", deadline="2030-03-14T23:59:00+01:00", seed=7)
    assert (tmp_path / "c" / "course.toml").is_file()
    assert (tmp_path / "c" / "roster.csv").read_text().startswith("id,name,email\n")
    assert course.seed == 7
    assert course.deadline == dt.datetime(2030, 3, 14, 22, 59, tzinfo=dt.UTC)
    assert course.remote_url("ada") == str(course.directory / "remotes" / "ada.git")
    assert course.local_remote("ada") == course.directory / "remotes" / "ada.git"
    assert course.gradebook_db_url() == f"sqlite:///{course.directory}/gradebook.db"
    assert set(course.variations) >= {"scorpion", "bismarck"}


def test_init_refuses_to_overwrite(tmp_path):
    config.init(tmp_path / "c", deadline="2030-03-14T23:59:00Z")
    with pytest.raises(UserError, match="already exists"):
        config.init(tmp_path / "c", deadline="2030-03-14T23:59:00Z")


def test_deadline_without_time_zone_is_rejected(tmp_path):
    with pytest.raises(UserError, match="no time zone"):
        config.init(tmp_path / "c", deadline="2030-03-14T23:59:00")
    assert not (tmp_path / "c" / "course.toml").exists()


def _course_file(tmp_path, deadline_lines: str, extra: str = "") -> config.CourseConfig:
    (tmp_path / "course.toml").write_text(
        '[course]\nid = "c1"\nassignment = "a1"\nseed = 1\nvariations = ["scorpion"]\n'
        f"[deadline]\n{deadline_lines}\n{extra}",
        encoding="utf-8",
    )
    return config.load(tmp_path)


def test_deadline_in_a_named_time_zone(tmp_path):
    course = _course_file(tmp_path, 'due = 2030-07-01T23:59:00\ntimezone = "Europe/Zurich"')
    assert course.deadline.utcoffset() == dt.timedelta(hours=2)  # summer time


def test_toml_deadline_without_offset_is_rejected_naming_the_file(tmp_path):
    with pytest.raises(UserError, match=r"course.toml: deadline 2030-07-01T23:59:00 has no time zone"):
        _course_file(tmp_path, "due = 2030-07-01T23:59:00")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("[late]\ngrace = 3\n", "unknown key 'grace' in \\[late\\]"),
        ("[late]\npenalty_per_day = 150\n", "percent between 0 and 100"),
        ('[remote]\nurl = "remotes/all.git"\n', "must contain \\{student\\}"),
        ('[remote]\nurl = "remotes/{student}-{name}.git"\n', "unknown placeholder"),
        ("[points.scorpion]\nshuffle = 3\n", "no rule category 'shuffle'"),
        ("[grading]\njobs = 0\n", "jobs must be at least 1"),
    ],
)
def test_bad_course_files_name_the_problem(tmp_path, extra, message):
    with pytest.raises(UserError, match=message):
        _course_file(tmp_path, "due = 2030-07-01T23:59:00Z", extra)


def test_unknown_variation_in_the_course_file(tmp_path):
    (tmp_path / "course.toml").write_text(
        '[course]\nid = "c1"\nassignment = "a1"\nseed = 1\nvariations = ["klondike_x"]\n'
        "[deadline]\ndue = 2030-07-01T23:59:00Z\n", encoding="utf-8")
    with pytest.raises(UserError, match="unknown variation 'klondike_x'"):
        config.load(tmp_path)


def test_network_remote_templates_are_not_local(tmp_path):
    course = _course_file(tmp_path, "due = 2030-07-01T23:59:00Z",
                          '[remote]\nurl = "git@example.org:{course}/{student}.git"\n')
    assert course.remote_url("ada") == "git@example.org:c1/ada.git"
    assert course.local_remote("ada") is None


def test_the_example_course_is_valid(tmp_path):
    import shutil
    from pathlib import Path

    from grader.course import assign
    from grader.course.roster import read_roster

    example = Path(__file__).resolve().parents[2] / "assignments" / "example-course"
    course = config.load(shutil.copytree(example, tmp_path / "cs101"))
    assert course.deadline.utcoffset() == dt.timedelta(hours=-4)  # New York in October
    students, problems = read_roster(course.roster_path)
    assert len(students) == 12 and not problems
    report = assign.run(course)
    assert not report.problems
    assert {a.student: a.variation for a in report.assignments}["hkaur"] == "scorpion"
