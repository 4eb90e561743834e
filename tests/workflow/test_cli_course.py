"""The command line: one-line errors with exit status 2, attention needed with 1, success 0."""

from __future__ import annotations

import pytest
from workflow_support import roster_text

from solitaire import cli


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_init_assign_and_their_messages(tmp_path, capsys):
    course = tmp_path / "c"
    status, _, err = run(capsys, "course", "init", str(course), "--deadline", "2030-03-14T23:59")
    assert status == 2 and err.count("\n") == 1 and "has no time zone" in err
    assert not (course / "course.toml").exists()

    status, out, _ = run(capsys, "course", "init", str(course), "--deadline", "2030-03-14T23:59+01:00",
                         "--variations", "scorpion,bismarck")
    assert status == 0 and "variations: scorpion, bismarck" in out

    (course / "roster.csv").write_text(roster_text(["ada", "bob"]) + "ada,Ada Again,a@x\n")
    status, out, err = run(capsys, "course", "assign", str(course))
    assert status == 1  # done, but a line needs attention
    assert f"{course / 'roster.csv'}:4: duplicate id 'ada'" in err
    assert "2 new" in out


@pytest.mark.parametrize(
    ("roster", "message"),
    [
        (b"", "the roster is empty"),
        (b"id,email\nada,a@x\n", "roster.csv:1: the roster has no column 'name'"),
        (b"id,name,email\nzoe,Zo\xeb,z@x\n", "roster.csv:2: the roster is not UTF-8"),
    ],
)
def test_malformed_rosters_stop_with_one_line(tmp_path, capsys, roster, message):
    course = tmp_path / "c"
    run(capsys, "course", "init", str(course), "--deadline", "2030-03-14T23:59Z")
    (course / "roster.csv").write_bytes(roster)
    status, _, err = run(capsys, "course", "assign", str(course))
    assert status == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_steps_outside_a_course_directory(tmp_path, capsys):
    """One line says so, at once: `course grade` no longer probes the sandbox first."""
    for step in ("assign", "publish", "collect", "grade", "export"):
        status, _, err = run(capsys, "course", step, str(tmp_path))
        assert status == 2 and "no course file here" in err
        assert err.count("\n") == 1 and "sandbox layer" not in err, err


def test_steps_in_the_wrong_order_say_what_to_run(tmp_path, capsys):
    course = tmp_path / "c"
    run(capsys, "course", "init", str(course), "--deadline", "2030-03-14T23:59Z")
    status, _, err = run(capsys, "course", "publish", str(course))
    assert status == 2 and "run `solitaire course assign`" in err
    run(capsys, "course", "assign", str(course))
    status, _, err = run(capsys, "course", "grade", str(course), "--grader", "static")
    assert status == 2 and "run `solitaire course collect`" in err
    status, _, err = run(capsys, "course", "grade", str(course), "--grader", "nosuch")
    assert status == 2 and "unknown grader 'nosuch'" in err
