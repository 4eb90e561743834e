"""GitHub Classroom: the roster export, publishing into handed-out repos, and collecting them.

Classroom itself cannot be reached from a test; its repos are played by local
bare repos that already hold a template commit (as Classroom makes them when a
student accepts), with the course set up exactly as `course init
--github-classroom` sets it, but reading receive times from the repos' reflogs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import git
import pytest
from workflow_support import DEADLINE, at, notes, push

from grader.course import assign, classroom, collect, config, publish
from grader.course.gitutil import commit_all, init_bare
from solitaire.errors import UserError

EXPORT = '''"identifier","github_username","github_id","name"
"ada@uni.example","ada-l","101","Ada Lovelace"
"bob@uni.example","","","Bob Unlinked"
"cy@uni.example","cyh","103","Cy Hopper"
'''


def test_the_roster_export_becomes_a_roster_keyed_by_github_username(tmp_path: Path) -> None:
    export = tmp_path / "classroom_roster.csv"
    export.write_text(EXPORT)
    roster, problems = classroom.roster_from_export(export)
    assert roster.splitlines() == ["id,name,email", "ada-l,Ada Lovelace,ada@uni.example",
                                   "cyh,Cy Hopper,cy@uni.example"]
    assert len(problems) == 1 and "no GitHub account" in str(problems[0])
    assert classroom.remote_template("cs101", "solitaire") == "https://github.com/cs101/solitaire-{student}.git"
    with pytest.raises(UserError):
        classroom.remote_template("cs 101", "x")


def test_course_init_with_a_classroom_export(tmp_path: Path) -> None:
    export = tmp_path / "classroom_roster.csv"
    export.write_text(EXPORT)
    done = subprocess.run([sys.executable, "-m", "solitaire", "course", "init", str(tmp_path / "c"),
                           "--github-classroom", str(export), "--org", "cs101", "--prefix", "solitaire",
                           "--deadline", DEADLINE.isoformat()], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "no GitHub account linked" in done.stderr
    course = config.load(tmp_path / "c")
    assert course.host == "github" and course.handed_out
    assert course.remote_url("ada-l") == "https://github.com/cs101/solitaire-ada-l.git"
    assert (tmp_path / "c" / "roster.csv").read_text().startswith("id,name,email\nada-l,")


def _handed_out_course(tmp_path: Path, template_files: dict[str, str]) -> config.CourseConfig:
    """A course whose repos exist already, each holding the template's one commit."""
    course = config.init(tmp_path / "course", roster="id,name,email\nada,Ada,ada@x.example\n",
                         deadline=DEADLINE, handed_out=True)
    assign.run(course)
    bare = course.local_remote("ada")
    assert bare is not None
    init_bare(bare).close()
    work = tmp_path / "template"
    repo = git.Repo.init(work, initial_branch="main")
    for name, text in template_files.items():
        (work / name).write_text(text)
    commit_all(repo, "Initial commit (the Classroom template)", when=at(-24 * 30))
    repo.git.push(str(bare), "HEAD:refs/heads/main")
    repo.close()
    return course


def test_publish_commits_into_the_handed_out_repo_and_an_untouched_one_is_not_submitted(tmp_path) -> None:
    course = _handed_out_course(tmp_path, {"README.md": "template\n"})
    report = publish.publish(course, clock=lambda: at(-24 * 20))
    assert [p.student for p in report.published] == ["ada"] and not report.failed and not report.notes
    log = git.Repo(course.local_remote("ada")).git.log("--format=%s", "main").splitlines()
    assert log == [f"Starter for {assign.load_assignments(course)[0].variation}",
                   "Initial commit (the Classroom template)"]
    again = publish.publish(course, clock=lambda: at(-24 * 19))
    assert again.skipped == ["ada"] and not again.published
    row = collect.collect(course, clock=lambda: at(-2))[0]
    assert row.status == "not-submitted"  # never late: nothing of the student's was pushed
    assert collect.collect(course, clock=lambda: at(5))[0].status == "not-submitted"
    push(course, "ada", at(-1), notes("my work"))
    assert collect.collect(course, clock=lambda: at(2))[0].status == "ok"


def test_an_unpublished_handed_out_repo_is_not_collected_as_a_submission(tmp_path) -> None:
    course = _handed_out_course(tmp_path, {"README.md": "template\n"})
    row = collect.collect(course, clock=lambda: at(1))[0]
    assert row.status == "missing" and "never published" in row.reason


def test_a_template_holding_another_variation_is_reported(tmp_path) -> None:
    course = _handed_out_course(tmp_path, {"README.md": "t\n", "scorpion.py": "x = 1\n",
                                           "bismarck.py": "y = 2\n"})
    variation = assign.load_assignments(course)[0].variation
    report = publish.publish(course, clock=lambda: at(-24 * 20))
    others = sorted({"scorpion.py", "bismarck.py"} - {f"{variation}.py"})
    assert report.notes and all(name in report.notes[0][1] for name in others)
