"""One grade everywhere: results.json, grades.csv, the class report's figures, nbgrader's API and
`nbgrader export` agree.

A graded course like the demo's: ada (reference, on time), bob (reference, 30 h
late: 2 days, -20 %), eve (the hostile cheat), gus (unfinished: two rule
methods), cy (never pushes). ada's variation has its points changed by the
course file, so that the students' maxima differ. Graded once for the module
with the static grader (the agreement checked here does not depend on which
grader gave the points; test_grades_match_sandbox.py does it with the real one).
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from nbgrader.api import Gradebook
from workflow_support import at, published, push, variation_of

from grader.course import collect, config, export, simulate
from grader.course.class_data import class_data
from grader.course.grade_class import grade_class
from grader.course.gradebook import nbgrader_assignment
from grader.course.nbgrader_files import nbgrader_root
from grader.course.points import category_points
from grader.course.scores import final_grade, final_grades

GRADED = ("ada", "bob", "eve", "gus")


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> config.CourseConfig:
    course = published(tmp_path_factory.mktemp("match") / "course", ["ada", "bob", "cy", "eve", "gus"])
    with (course.directory / config.CONFIG_NAME).open("a", encoding="utf-8") as handle:
        handle.write(f"\n[points.{variation_of(course, 'ada')}]\ndeal = 40\n")
    course = config.load(course.directory)
    push(course, "ada", at(-2))
    push(course, "bob", at(30))
    push(course, "eve", at(-1), simulate.cheat(variation_of(course, "eve")))
    text, _ = simulate.partial(variation_of(course, "gus"), 2)
    push(course, "gus", at(-3), simulate.write_rules(variation_of(course, "gus"), text))
    collect.collect(course, clock=lambda: at(48))
    report = grade_class(course, jobs=2, grader="static")
    assert sorted(key.student for key in report.graded) == list(GRADED) and not report.failed
    export.export_csv(course)
    return course


def own_assignment(course: config.CourseConfig, student: str) -> str:
    return nbgrader_assignment(course.assignment, variation_of(course, student))


def grades_csv(course: config.CourseConfig) -> dict[str, dict[str, str]]:
    with course.grades_path.open(encoding="utf-8") as handle:
        return {row["id"]: row for row in csv.DictReader(handle)}


def nbgrader_export(course: config.CourseConfig, out: Path) -> dict[str, dict[str, str]]:
    """nbgrader's own `nbgrader export`, run where the course's nbgrader_config.py is: each student's
    row of their own variation's assignment."""
    done = subprocess.run([sys.executable, "-m", "nbgrader", "export", "--to", str(out)],
                          cwd=nbgrader_root(course), capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    with out.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return {row["student_id"]: row for row in rows
            if row["assignment"] == own_assignment(course, row["student_id"])}


def test_every_place_shows_the_same_final_score(graded: config.CourseConfig, tmp_path: Path) -> None:
    course = graded
    ours = grades_csv(course)
    theirs = nbgrader_export(course, tmp_path / "nbgrader.csv")
    grades = final_grades(course)
    assert set(grades) == set(GRADED) and final_grade(course, "cy") is None
    gradebook = Gradebook(course.gradebook_db_url(), course_id=course.course_id)
    try:
        for student in GRADED:
            grade = grades[student]
            maximum = sum(category_points(variation_of(course, student), course.points).values())
            submission = gradebook.find_submission(own_assignment(course, student), student)
            api_final = max(0.0, submission.score - submission.late_submission_penalty)
            results = json.loads((course.feedback_dir / student / "results.json").read_text(encoding="utf-8"))
            finals = {
                "scores.final_grade": grade.final,
                "grades.csv": float(ours[student]["score"]),
                "results.json score": results["score"],
                "results.json final_score": results["final_score"],
                "nbgrader API": api_final,
                "nbgrader export": float(theirs[student]["score"]),
            }
            assert finals == pytest.approx(dict.fromkeys(finals, grade.final), abs=1e-6), student
            maxima = {"grades.csv": float(ours[student]["max_score"]), "results.json": results["max_score"],
                      "nbgrader API": submission.max_score,
                      "nbgrader export": float(theirs[student]["max_score"])}
            assert maxima == dict.fromkeys(maxima, maximum), student
            penalties = {"grades.csv": float(ours[student]["late_penalty"]),
                         "results.json": results["late_penalty"],
                         "nbgrader export": float(theirs[student]["late_submission_penalty"])}
            assert penalties == pytest.approx(dict.fromkeys(penalties, grade.penalty), abs=1e-6), student
            assert sum(t["score"] for t in results["tests"]) == pytest.approx(results["raw_score"])
    finally:
        gradebook.close()
    # the class report's figures: grades.csv's rows, and its own arithmetic on the raw score
    report = {data.row.student: data for data in class_data(course, export.grade_rows(course))}
    for student in GRADED:
        data = report[student]
        assert data.row.score == pytest.approx(grades[student].final, abs=1e-6)
        assert data.final(grades[student].raw) == pytest.approx(grades[student].final, abs=1e-6)
        assert data.percent == pytest.approx(100 * grades[student].final / grades[student].max_score)
    assert grades["ada"].max_score != grades["bob"].max_score  # the course file changed ada's variation
    assert grades["ada"].final == grades["ada"].max_score  # the reference, on time: full marks
    bob = grades["bob"]
    assert bob.days_late == 2 and bob.penalty_percent == 20 and bob.penalty > 0
    assert bob.final == pytest.approx(0.8 * bob.raw) and grades_csv(course)["bob"]["status"] == "late"
    results = json.loads((course.feedback_dir / "bob" / "results.json").read_text(encoding="utf-8"))
    assert results["days_late"] == 2 and results["late_penalty_percent"] == 20
    assert results["score"] < results["raw_score"]  # the late penalty is in the student's results
    assert 0 < grades["gus"].final < grades["gus"].max_score


def test_formgrader_lists_the_assignments_and_the_submissions(graded: config.CourseConfig) -> None:
    """What formgrader reads (nbgrader's NbGraderAPI), configured by the course's nbgrader_config.py."""
    from nbgrader.apps.api import NbGraderAPI
    from traitlets.config.loader import PyFileConfigLoader

    course = graded
    root = nbgrader_root(course)
    settings = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    assert settings.CourseDirectory.db_url == course.gradebook_db_url()
    api = NbGraderAPI(config=settings)
    listed = {a["name"]: a for a in api.get_assignments()}
    assert set(listed) == {nbgrader_assignment(course.assignment, v) for v in course.variations}
    for student in GRADED:
        name = own_assignment(course, student)
        assert listed[name]["num_submissions"] >= 1
        assert listed[name]["max_score"] == sum(
            category_points(variation_of(course, student), course.points).values())
        (submission,) = [s for s in api.get_submissions(name) if s["student"] == student]
        assert submission["autograded"] and submission["submitted"]
        grade = final_grade(course, student)
        assert grade is not None
        assert submission["score"] == pytest.approx(grade.raw) and submission["max_score"] == grade.max_score
        assert [n["name"] for n in api.get_notebooks(name)] == [variation_of(course, student)]
    assert sum(a["num_submissions"] for a in listed.values()) == len(GRADED)  # cy submitted nothing


def copy_of(course: config.CourseConfig, tmp_path: Path) -> config.CourseConfig:
    return config.load(shutil.copytree(course.directory, tmp_path / "copy", symlinks=True))


def test_a_results_json_left_by_an_older_run_is_rewritten(graded: config.CourseConfig,
                                                          tmp_path: Path) -> None:
    """The demo's old bug: a static run had left eve's results.json at full marks; the next run heals it."""
    course = copy_of(graded, tmp_path)
    kept = (course.feedback_dir / "eve" / "results.json").read_text(encoding="utf-8")
    forged = json.loads(kept) | {"score": 100.0}
    (course.feedback_dir / "eve" / "results.json").write_text(json.dumps(forged), encoding="utf-8")
    with Gradebook(course.gradebook_db_url(), course_id=course.course_id) as gradebook:
        gradebook.find_student("eve").last_name = "Renamed"  # the gradebook changed since the last run
        gradebook.db.commit()
    report = grade_class(course, jobs=1, grader="static")
    assert report.graded == []
    healed = (course.feedback_dir / "eve" / "results.json").read_text(encoding="utf-8")
    assert json.loads(healed) == json.loads(kept)


def test_a_reassigned_student_has_one_submission_and_one_folder(graded: config.CourseConfig,
                                                                tmp_path: Path) -> None:
    from grader.course.gradebook import CourseGradebook
    from grader.course.nbgrader_files import write_course_files

    course = copy_of(graded, tmp_path)
    old = variation_of(course, "ada")
    new = next(v for v in course.variations if v != old)
    with CourseGradebook(course) as book:
        book.record("ada", new, at(-2), dict.fromkeys(category_points(new), 1.0), 0.0)
        submissions = book.submissions()
        assert submissions["ada"][0] == nbgrader_assignment(course.assignment, new)
        assert [s.assignment.name for s in book.gradebook.find_student("ada").submissions] == [
            nbgrader_assignment(course.assignment, new)]
        root = write_course_files(course, book.course_assignments(), submissions)
    for step in ("submitted", "autograded"):
        moved = [p.name for p in (root / step / "ada").iterdir()]
        assert moved == [nbgrader_assignment(course.assignment, new)]


def legacy_gradebook(course: config.CourseConfig, scores: dict[str, float]) -> None:
    """The gradebook as the old layout wrote it: one assignment named after the course assignment, a
    notebook per variation (nbgrader's max_score: the sum over every variation), a notebook per student."""
    from nbgrader.api import Grade, SubmittedAssignment, SubmittedNotebook

    with Gradebook(course.gradebook_db_url(), course_id=course.course_id) as gradebook:
        for assignment in list(gradebook.assignments):
            gradebook.remove_assignment(assignment.name)
        gradebook.add_assignment(course.assignment, duedate=course.deadline, course_id=course.course_id)
        for variation in course.variations:
            gradebook.add_notebook(variation, course.assignment)
            for category, points in category_points(variation, course.points).items():
                gradebook.add_grade_cell(category, variation, course.assignment, max_score=points,
                                         cell_type="code")
        for student, score in scores.items():
            gradebook.update_or_create_student(student)
            submission = SubmittedAssignment(assignment=gradebook.find_assignment(course.assignment),
                                             student=gradebook.find_student(student))
            gradebook.db.add(submission)
            notebook = gradebook.find_notebook(variation_of(course, student), course.assignment)
            submitted = SubmittedNotebook(notebook=notebook, assignment=submission)
            gradebook.db.add(submitted)
            for index, cell in enumerate(notebook.grade_cells):
                points = score if index == 0 else 0.0
                gradebook.db.add(Grade(cell_id=cell.id, notebook=submitted, auto_score=points))
        gradebook.db.commit()
        assert gradebook.find_assignment(course.assignment).max_score > 100  # the old problem


def test_an_old_gradebook_is_migrated_by_the_next_run(graded: config.CourseConfig, tmp_path: Path) -> None:
    course = copy_of(graded, tmp_path)
    expected = final_grades(course)
    legacy_gradebook(course, {student: 1.0 for student in GRADED})
    report = grade_class(course, jobs=1, grader="static")
    assert report.graded == []  # nothing graded again: the stored results are written in the new layout
    with Gradebook(course.gradebook_db_url(), course_id=course.course_id) as gradebook:
        assert sorted(a.name for a in gradebook.assignments) == sorted(
            nbgrader_assignment(course.assignment, v) for v in course.variations)
    assert final_grades(course) == expected
    (backup,) = (course.work_dir / "gradebook-backups").glob("gradebook-before-per-variation-*.db")
    with Gradebook(f"sqlite:///{backup}", course_id=course.course_id) as old:
        assert [a.name for a in old.assignments] == [course.assignment]  # the old layout, kept
        assert len(old.find_assignment(course.assignment).submissions) == len(GRADED)


def test_an_assignment_that_is_not_the_old_layout_is_left_alone(graded: config.CourseConfig,
                                                                tmp_path: Path) -> None:
    course = copy_of(graded, tmp_path)
    with Gradebook(course.gradebook_db_url(), course_id=course.course_id) as gradebook:
        gradebook.add_assignment(course.assignment, course_id=course.course_id)
        gradebook.add_notebook("essay", course.assignment)  # someone's own notebook of that name
    grade_class(course, jobs=1, grader="static")
    with Gradebook(course.gradebook_db_url(), course_id=course.course_id) as gradebook:
        assert [n.name for n in gradebook.find_assignment(course.assignment).notebooks] == ["essay"]
    assert not (course.work_dir / "gradebook-backups").exists()


def test_a_deleted_feedback_folder_comes_back_without_grading(graded: config.CourseConfig,
                                                              tmp_path: Path) -> None:
    course = copy_of(graded, tmp_path)
    kept = {s: (course.feedback_dir / s / "results.json").read_bytes() for s in GRADED}
    shutil.rmtree(course.feedback_dir)
    shutil.rmtree(nbgrader_root(course))
    report = grade_class(course, jobs=1, grader="static")
    assert report.graded == []
    assert {s: (course.feedback_dir / s / "results.json").read_bytes() for s in GRADED} == kept
    assert (course.feedback_dir / "ada" / "feedback.md").is_file()
    assert (nbgrader_root(course) / "nbgrader_config.py").is_file()
