"""The Gradescope autograder zip: unzipped into Gradescope's layout, run_autograder writes results.json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from workflow_support import variation_of

from grader.course import assign, gradescope, simulate
from grader.course.points import category_points


def check_results_json(results: dict) -> None:
    """The parts of Gradescope's results.json format the autograder relies on."""
    assert isinstance(results["score"], (int, float))
    assert isinstance(results.get("output", ""), str)
    for test in results.get("tests", []):
        assert isinstance(test["name"], str)
        assert isinstance(test["score"], (int, float)) and isinstance(test["max_score"], (int, float))
        assert 0 <= test["score"] <= test["max_score"]


@pytest.fixture
def autograder(make_course, tmp_path):
    """(course, Gradescope root with source/ unzipped, env to run it)."""
    course = make_course(["ada", "bob"])
    assign.run(course)
    archive = gradescope.build(course, tmp_path / "autograder.zip")
    root = tmp_path / "gradescope"
    with zipfile.ZipFile(archive) as bundle:
        names = bundle.namelist()
        bundle.extractall(root / "source")
        modes = {info.filename: info.external_attr >> 16 for info in bundle.infolist()}
    assert {"setup.sh", "run_autograder", "course.json", "pyproject.toml", "solitaire/engine.py",
            "grader/course/gradescope_run.py"} <= set(names)
    assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111
    assert not any(name.startswith(("reference/", "grader/survivors/", "grader/starter/"))
                   for name in names)  # no solutions, nor tools quoting them, in the bundle
    assert not any("__pycache__" in name for name in names)
    (root / "submission").mkdir()
    # this machine has the whole project installed; Gradescope has only the bundle: hide the rest
    blocker = tmp_path / "not-in-the-bundle" / "reference"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('reference/ is not in the autograder')\n")
    env = dict(os.environ, SOLITAIRE_AUTOGRADER_ROOT=str(root), SOLITAIRE_PYTHON=sys.executable,
               PYTHONPATH=str(blocker.parent))
    return course, root, env


def run_autograder(root: Path, env: dict) -> dict:
    done = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    check_results_json(results)
    return results


def test_the_bundled_code_is_the_code_that_runs(autograder):
    _, root, env = autograder
    env = dict(env, PYTHONPATH=str(root / "source"))
    where = subprocess.run([sys.executable, "-c", "import grader, solitaire; print(grader.__file__); "
                            "print(solitaire.__file__)"], env=env, capture_output=True, text=True,
                           cwd=root / "source", check=True).stdout.split()
    assert all(Path(path).is_relative_to(root / "source") for path in where)


def test_run_autograder_grades_the_submitters_variation(autograder):
    course, root, env = autograder
    variation = variation_of(course, "ada")
    simulate.copy_reference(variation)(root / "submission")
    (root / "submission_metadata.json").write_text(json.dumps(
        {"users": [{"email": "ADA@students.example", "name": "Ada Tester"}]}))
    results = run_autograder(root, dict(env, SOLITAIRE_GRADER="static"))
    assert results["score"] == sum(category_points(variation).values())
    assert f"Variation: {variation} (assigned to ada)" in results["output"]


def test_without_metadata_the_rules_file_decides_and_nothing_to_grade_still_gives_results(autograder):
    _, root, env = autograder
    simulate.copy_reference("scorpion")(root / "submission")
    results = run_autograder(root, dict(env, SOLITAIRE_GRADER="static"))
    assert "Variation: scorpion (the submission's rules file scorpion.py)" in results["output"]
    (root / "submission" / "scorpion.py").unlink()
    empty = run_autograder(root, dict(env, SOLITAIRE_GRADER="static"))
    assert empty["score"] == 0 and "no rules file found" in empty["output"]


def test_run_autograder_with_the_real_sandboxed_grader(autograder):
    """The bundle holds everything grading needs: hidden suite, traces, sandbox, engine, catalog."""
    _, root, env = autograder
    simulate.copy_reference("scorpion")(root / "submission")
    (root / "submission" / "results.json").write_text('{"score": 1000}')  # a forged file changes nothing
    results = run_autograder(root, env)
    assert results["score"] == sum(category_points("scorpion").values())
    assert results["extra_data"]["worker"] == "sandbox"
    assert {test["tags"][0] for test in results["tests"]} == set(category_points("scorpion"))


def test_the_weak_sandbox_is_allowed_only_when_the_instructor_says_so(make_course, tmp_path, monkeypatch):
    course = make_course(["ada"])
    assign.run(course)
    assert gradescope.course_json(course)["allow_weak_sandbox"] is False
    archive = gradescope.build(course, tmp_path / "weak.zip", allow_weak=True)
    with zipfile.ZipFile(archive) as bundle:
        data = json.loads(bundle.read("course.json"))
    assert data["allow_weak_sandbox"] is True
    # the runner passes the instructor's choice on to the sandbox factory through the environment
    from grader.course import gradescope_run

    (tmp_path / "course.json").write_text(json.dumps(data))
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "scorpion.py").write_text("x = 1\n")
    monkeypatch.setenv("SOLITAIRE_COURSE_JSON", str(tmp_path / "course.json"))
    monkeypatch.setenv("SOLITAIRE_SUBMISSION_DIR", str(tmp_path / "submission"))
    monkeypatch.setenv("SOLITAIRE_SUBMISSION_METADATA", str(tmp_path / "none.json"))
    monkeypatch.setenv("SOLITAIRE_GRADER", "static")
    monkeypatch.delenv("SOLITAIRE_SANDBOX_ALLOW_WEAK", raising=False)
    gradescope_run.run()
    import os

    assert os.environ.get("SOLITAIRE_SANDBOX_ALLOW_WEAK") == "1"
