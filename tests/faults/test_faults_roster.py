"""The roster edited between assign and publish (issue 18.6): publish refuses and says what changed.

Real course directories with local bare repos; ``course assign`` and
``course publish`` run as the ``solitaire`` command; the gradebook is a real
nbgrader SQLite file.
"""

from __future__ import annotations

from fault_support import solitaire
from nbgrader.api import Gradebook
from workflow_support import new_course

from grader.course import assign, publish
from grader.course.assign import load_assignments
from grader.course.grade_class import grade_class
from grader.course.gradebook import nbgrader_assignment


def test_publish_refuses_a_changed_roster_and_assign_then_fixes_it(tmp_path) -> None:
    course = new_course(tmp_path / "course", ["ada", "bob", "cy"])
    assign.run(course)
    cy_variation = {a.student: a.variation for a in assign.load_assignments(course)}["cy"]
    # bob leaves, cy's id is corrected to cyril (same e-mail), dan joins
    course.roster_path.write_text("id,name,email\nada,Ada Tester,ada@students.example\n"
                                  "cyril,Cy Tester,cy@students.example\n"
                                  "dan,Dan Tester,dan@students.example\n", encoding="utf-8")
    refused = solitaire("course", "publish", str(course.directory))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    assert (f"solitaire: error: {course.roster_path} changed since `course assign`: added dan; "
            "renamed cy -> cyril (same e-mail); removed bob; nothing was published: run "
            "`solitaire course assign`") in refused.stderr
    assert not course.published_path.exists() and not (course.directory / "remotes").exists()

    assigned = solitaire("course", "assign", str(course.directory))
    assert assigned.returncode == 0, assigned.stderr
    assert f"cyril: {cy_variation} (renamed from cy: same e-mail, same variation)" in assigned.stdout
    assert "bob: no longer on the roster" in assigned.stdout
    variations = {a.student: a.variation for a in assign.load_assignments(course)}
    assert variations["cyril"] == variations["cy"] == cy_variation and "dan" in variations

    published = solitaire("course", "publish", str(course.directory))
    assert published.returncode == 0, published.stderr
    assert "bob: no longer on the roster, not published" in published.stdout
    assert "cy: no longer on the roster, not published" in published.stdout
    assert sorted(publish.read_published(course.published_path)) == ["ada", "cyril", "dan"]


def test_a_student_who_left_keeps_name_and_email_in_the_gradebook(collected_course) -> None:
    course = collected_course(["ada", "bob"])
    grade_class(course, jobs=1, grader="static")
    course.roster_path.write_text("id,name,email\nada,Ada Tester,ada@students.example\n", encoding="utf-8")
    grade_class(course, jobs=1, grader="static")  # writes the gradebook again, bob no longer on the roster
    gradebook = Gradebook(course.gradebook_db_url(), course_id=course.course_id)
    try:
        bob = gradebook.find_student("bob")
        assert (bob.first_name, bob.last_name, bob.email) == ("Bob", "Tester", "bob@students.example")
        variation = {a.student: a.variation for a in load_assignments(course)}["bob"]
        submission = gradebook.find_submission(nbgrader_assignment(course.assignment, variation), "bob")
        assert submission.score > 0  # and the grade stays
    finally:
        gradebook.close()
