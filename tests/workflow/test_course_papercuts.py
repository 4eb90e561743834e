"""Issue 17's course-command papercuts: init validates first, export pipes whole rows, one
exit-code convention for "done, with students needing attention", a provisional collect says so."""

from __future__ import annotations

import datetime as dt
import shutil

import pytest
from workflow_support import DEADLINE, at, push

from grader.course import collect
from solitaire import cli


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- item 6: course init validates before creating anything ------------------------------------
def test_init_with_an_unknown_variation_leaves_no_folder(tmp_path, capsys):
    course = tmp_path / "new" / "c"
    status, _, err = run(capsys, "course", "init", str(course), "--deadline", "2030-03-14T23:59Z",
                         "--variations", "scorpion,klondike_x")
    assert status == 2 and "unknown variation 'klondike_x'" in err and err.count("\n") == 1
    assert not course.exists() and not course.parent.exists()


# -- item 3: a piped export prints whole rows ------------------------------------------------
def test_piped_export_is_not_clipped_at_80_columns(published_course, capsys):
    long_id = "bartholomew.featherstonehaugh-2030"
    course = published_course([long_id, "ada"], variations=("napoleons_square",))
    status, out, _ = run(capsys, "course", "export", str(course.directory))  # capsys: not a terminal
    row = next(line for line in out.splitlines() if line.startswith(long_id))
    assert "napoleons_square" in row and "not-collected" in row and "…" not in out
    assert len(row.rstrip()) > 80
    assert f"  {long_id}: not collected yet" in out.splitlines()


# -- item 7: one exit-code convention across collect and export -------------------------------
def test_collect_and_export_agree_on_students_needing_attention(published_course, capsys):
    course = published_course(["ada", "bob"], variations=("scorpion",))
    push(course, "ada", at(-3))
    shutil.rmtree(course.local_remote("bob"))  # bob's repo is gone: the instructor must act
    status, _, err = run(capsys, "course", "collect", str(course.directory))
    assert status == 1 and "bob: missing" in err
    status, _, err = run(capsys, "course", "export", str(course.directory))
    assert status == 1
    assert "2 student(s) need attention: ada (not-graded), bob (missing)" in err


def test_a_student_who_did_not_submit_needs_no_attention(published_course, capsys):
    course = published_course(["ada"], variations=("scorpion",))
    status, out, _ = run(capsys, "course", "collect", str(course.directory))
    assert status == 0 and "ada: not-submitted" in out
    status, _, err = run(capsys, "course", "export", str(course.directory))
    assert status == 0 and "need attention" not in err


def test_the_convention_is_documented_in_the_instructor_guide():
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "instructor-guide.md").read_text()
    assert "## Exit status" in guide
    section = guide.split("## Exit status", 1)[1].split("\n## ", 1)[0]
    for word in ("collect", "export", "grade", "missing", "unreachable", "not-graded", "not-submitted"):
        assert word in section, word


# -- item 8: a collect before the deadline is provisional, and says until when ----------------
def test_collect_before_the_deadline_warns_that_it_is_provisional(published_course, capsys):
    course = published_course(["ada"], variations=("scorpion",))
    assert dt.datetime.now(dt.UTC) < DEADLINE  # the tests' deadline is in 2030
    status, _, err = run(capsys, "course", "collect", str(course.directory))
    assert status == 0
    (line,) = [line for line in err.splitlines() if "provisional" in line]
    assert line.startswith("solitaire: warning: collected before the deadline "
                           "(2030-03-14T22:59:00+00:00, in ")
    assert "collect again after the deadline" in line


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (DEADLINE - dt.timedelta(days=2, hours=3),
         "before the deadline (2030-03-14T22:59:00+00:00, in 2 days 3 h)"),
        (DEADLINE - dt.timedelta(minutes=12), "in 12 min"),
        (DEADLINE + dt.timedelta(days=1),
         "late pushes still count until the cut-off 2030-03-17T22:59:00+00:00"),
        (DEADLINE + dt.timedelta(days=3, seconds=1), None),
    ],
    ids=["days-before", "minutes-before", "before-cut-off", "final"],
)
def test_provisional_message(make_course, now, expected):
    course = make_course(["ada"])
    assert course.late.cutoff(course.deadline) == DEADLINE + dt.timedelta(days=3)
    message = collect.provisional(course, now)
    if expected is None:
        assert message is None
    else:
        assert message is not None and expected in message and "provisional" in message
