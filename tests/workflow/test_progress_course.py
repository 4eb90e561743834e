"""`course publish`, `collect` and `grade` show their progress on stderr with the time left; stdout keeps
its lines (a pipe or a log is not a terminal: plain lines, a few per run, not one per student)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console
from workflow_support import at, new_course, push

from grader.course.grade_progress import GRADING, RunProgress
from solitaire import cli

STUDENTS = ["ada", "bob", "cy"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def counted(err: str, label: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith(f"{label}: ")]


def published_and_collected(tmp_path, capsys) -> tuple[Path, str]:
    """A course of three published through the CLI, ada's push collected; the stderr of both."""
    course = new_course(tmp_path / "c", STUDENTS)
    run(capsys, "course", "assign", str(course.directory))
    status, out, err = run(capsys, "course", "publish", str(course.directory))
    assert status == 0
    assert out.splitlines() == [f"published {s}" for s in STUDENTS] + [
        "3 published, 0 already published, 0 failed"]
    push(course, "ada", at(-2))
    status, out, collected = run(capsys, "course", "collect", str(course.directory))
    assert "collect:" not in out and "elapsed" not in out
    assert "1 of 3 submissions to grade" in out
    return course.directory, err + collected


def test_publish_and_collect_show_the_time_left_on_stderr(tmp_path, capsys):
    _, err = published_and_collected(tmp_path, capsys)
    lines = counted(err, "publish")
    assert lines[0] == "publish: 0/3 repos (0%), started"
    assert re.fullmatch(r"publish: 1/3 repos \(33%\), 0:0\d:\d\d elapsed, about 0:\d\d:\d\d left; ada",
                        lines[1])
    assert re.fullmatch(r"publish: 3/3 repos \(100%\), 0:0\d:\d\d elapsed, done; cy", lines[-1])
    lines = counted(err, "collect")
    assert lines[0] == "collect: 0/3 repos (0%), started" and "3/3 repos (100%)" in lines[-1]


def test_grade_shows_the_time_left_on_stderr(tmp_path, capsys):
    directory, _ = published_and_collected(tmp_path, capsys)
    status, out, err = run(capsys, "course", "grade", str(directory), "--grader", "static")
    assert out.startswith("dry run (static): 1 graded") and "elapsed" not in out and " left" not in out
    graded = [line for line in err.splitlines() if re.search(r" s    \S.* 1/1 ada$", line)]
    assert len(graded) == 1 and "done  1/1 ada" in graded[0]


def test_a_large_class_prints_a_line_per_tenth_with_the_time_left():
    console = Console(file=io.StringIO(), force_terminal=False, width=200)
    with RunProgress(console) as progress:
        progress.phase(GRADING, total=200)
        for number in range(200):
            progress.advance(f"s{number + 1:03d}")
        progress.finish("200 graded")
    lines = console.file.getvalue().splitlines()
    graded = [line for line in lines if " s    " in line]
    assert len(graded) == 10 and graded[0].endswith("20/200 s020")
    assert graded[-1].endswith("done  200/200 s200")
    assert all(" left  " in line for line in graded[:-1])


def test_on_a_terminal_the_grading_line_shows_the_time_left():
    console = Console(file=io.StringIO(), force_terminal=True, width=200, color_system=None)
    with RunProgress(console) as progress:
        progress.phase(GRADING, total=4)
        progress.advance("ada")
        assert progress.bar is not None
        progress.bar.refresh()
        assert re.search(r"1/4 +0:00:00 elapsed, about 0:00:0\d left +ada", console.file.getvalue())
        progress.finish("1 graded")
