"""course grade --dry-run: everything a run writes goes to .work/dry-run/<run>/, nothing else changes.

The course is graded for real once (static grader); each test works on a copy
and dry-runs it with another grader (full marks for everyone), so that a dry
run that wrote to the real outputs would change their bytes.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from workflow_support import at, notes, published, push, variation_of

from grader.course import collect, config, export, simulate
from grader.course.dry_run import FOLDER, dry_run
from grader.course.grade_class import grade_class
from grader.course.nbgrader_files import FOLDER as NBGRADER_FOLDER
from solitaire import cli

FULL_MARKS = "full_marks_grader:grade"


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> config.CourseConfig:
    """ada: reference on time; bob: two methods, 30 h late; cy: nothing; dee: the starter."""
    course = published(tmp_path_factory.mktemp("dry") / "course", ["ada", "bob", "cy", "dee"])
    push(course, "ada", at(-2))
    text, _ = simulate.partial(variation_of(course, "bob"), 2)
    push(course, "bob", at(30), simulate.write_rules(variation_of(course, "bob"), text))
    push(course, "dee", at(-1), notes("later"))
    collect.collect(course, clock=lambda: at(48))
    grade_class(course, jobs=2, grader="static")
    export.export_csv(course)
    return course


def copy_of(course: config.CourseConfig, tmp_path: Path) -> config.CourseConfig:
    return config.load(shutil.copytree(course.directory, tmp_path / "copy", symlinks=True))


def outputs(course: config.CourseConfig) -> dict[str, bytes]:
    """Every file of the course outside its private .work folder, by path: the real outputs."""
    return {str(p.relative_to(course.directory)): p.read_bytes() for p in sorted(course.directory.rglob("*"))
            if p.is_file() and ".work" not in p.relative_to(course.directory).parts}


def csv_rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return {row["id"]: row for row in csv.DictReader(handle)}


def test_a_dry_run_leaves_every_real_output_byte_identical(graded: config.CourseConfig,
                                                           tmp_path: Path) -> None:
    course = copy_of(graded, tmp_path)
    before = outputs(course)
    assert {"results.db", "gradebook.db", "grades.csv", "feedback/dee/results.json"} <= set(before)
    done = dry_run(course, jobs=2, grader=FULL_MARKS)
    assert outputs(course) == before
    assert done.directory.parent == course.work_dir / FOLDER and not done.report.failed
    # it did grade, with its own grader, and wrote a whole course's outputs in its folder
    real, dry = csv_rows(course.grades_path), csv_rows(done.grades_path)
    assert done.grades_path == done.directory / "grades.csv"
    assert real["dee"]["score"] == "0" and dry["dee"]["score"] == dry["dee"]["max_score"]
    assert float(dry["bob"]["late_penalty"]) == pytest.approx(0.2 * float(dry["bob"]["max_score"]))
    results = json.loads((done.directory / "feedback" / "dee" / "results.json").read_text(encoding="utf-8"))
    assert results["final_score"] == results["max_score"]
    assert (done.directory / "gradebook.db").is_file() and (done.directory / "results.db").is_file()
    nbgrader_config = (done.directory / NBGRADER_FOLDER / "nbgrader_config.py").read_text(encoding="utf-8")
    assert str(done.directory / "gradebook.db") in nbgrader_config
    assert dry["dee"]["feedback"].startswith(str(done.directory))
    # a second dry run gets a folder of its own; the first one is kept
    again = dry_run(course, jobs=1, grader="static")
    assert again.directory != done.directory and done.directory.is_dir()
    assert csv_rows(again.grades_path)["dee"]["score"] == "0" and outputs(course) == before


def test_a_dry_run_never_writes_to_a_gradebook_elsewhere(graded: config.CourseConfig, tmp_path: Path) -> None:
    course = copy_of(graded, tmp_path)
    elsewhere = tmp_path / "shared" / "gradebook.db"
    elsewhere.parent.mkdir()
    shutil.copyfile(course.directory / "gradebook.db", elsewhere)
    text = (course.directory / config.CONFIG_NAME).read_text(encoding="utf-8")
    (course.directory / config.CONFIG_NAME).write_text(
        text.replace('"sqlite:///{course_dir}/gradebook.db"', f'"sqlite:///{elsewhere}"'), encoding="utf-8")
    course = config.load(course.directory)
    assert course.gradebook_db_url() == f"sqlite:///{elsewhere}"
    kept = elsewhere.read_bytes()
    done = dry_run(course, jobs=1, grader=FULL_MARKS)
    assert elsewhere.read_bytes() == kept and (done.directory / "gradebook.db").is_file()


@pytest.mark.parametrize("options", [["--grader", "static", "--regrade"],
                                     ["--dry-run", "--grader", FULL_MARKS]])
def test_the_cli_dry_run_says_where_it_wrote(graded: config.CourseConfig, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str], options: list[str]) -> None:
    """`--grader static`, documented as a dry run, is one: it never overwrites the feedback."""
    course = copy_of(graded, tmp_path)
    before = outputs(course)
    status = cli.main(["course", "grade", str(course.directory), "--jobs", "1", *options])
    out = capsys.readouterr().out
    assert status == 0 and outputs(course) == before
    (line,) = [line for line in out.splitlines() if line.startswith("written to ")]
    folder = Path(line.removeprefix("written to ").split(" (")[0])
    assert folder.parent == course.work_dir / FOLDER and (folder / "grades.csv").is_file()
    assert "the course's own outputs are unchanged" in out


def test_a_dry_run_before_collect_is_one_line_and_makes_no_folder(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    course = published(tmp_path / "fresh", ["ada"])
    status = cli.main(["course", "grade", str(course.directory), "--dry-run", "--grader", "static"])
    assert status == 2 and "run `solitaire course collect`" in capsys.readouterr().err
    assert not (course.work_dir / FOLDER).exists()
