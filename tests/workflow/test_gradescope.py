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


def run_autograder_logged(root: Path, env: dict) -> tuple[dict, str]:
    """(results.json, the instructor's log: run_autograder's standard output)."""
    done = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    check_results_json(results)
    return results, done.stdout


def submitted_by(root: Path, email: str | None) -> None:
    users = [{"email": email, "name": "Someone"}] if email else []
    (root / "submission_metadata.json").write_text(json.dumps({"users": users}))


def test_the_variation_comes_from_the_roster_never_from_the_uploaded_file(autograder):
    course, root, env = autograder
    easiest = next(v for v in ("bismarck", "scorpion") if v != variation_of(course, "ada"))
    simulate.copy_reference(easiest)(root / "submission")  # a file of another variation
    submitted_by(root, "stranger@elsewhere.example")
    results, log = run_autograder_logged(root, dict(env, SOLITAIRE_GRADER="static"))
    assert results["score"] == 0 and results["extra_data"]["status"] == "not-on-roster"
    assert ("stranger@elsewhere.example is not on this course's roster, so nothing was graded"
            in results["output"])
    assert results["tests"][0]["visibility"] == "visible" and "roster" in results["tests"][0]["output"]
    assert "not graded" in log
    submitted_by(root, None)  # no metadata: nobody to look up, nothing graded
    results, _ = run_autograder_logged(root, dict(env, SOLITAIRE_GRADER="static"))
    assert results["extra_data"]["status"] == "not-on-roster" and "did not say who" in results["output"]
    submitted_by(root, "ada@students.example")  # ada's own variation is graded: her file is missing
    results, _ = run_autograder_logged(root, dict(env, SOLITAIRE_GRADER="static"))
    assert f"Variation: {variation_of(course, 'ada')} (assigned to ada)" in results["output"]
    assert results["score"] == 0


@pytest.mark.parametrize("shape", ["folder", "zip"])
def test_a_repo_uploaded_in_a_folder_or_a_zip_is_found(autograder, shape):
    course, root, env = autograder
    variation = variation_of(course, "ada")
    repo = root / "upload" / "my-solitaire-repo"
    repo.mkdir(parents=True)
    simulate.copy_reference(variation)(repo)
    (repo / ".git").mkdir()
    if shape == "folder":
        repo.rename(root / "submission" / "my-solitaire-repo")
    else:
        with zipfile.ZipFile(root / "submission" / "repo.zip", "w") as archive:
            for path in repo.rglob("*"):
                if path.is_file():
                    archive.write(path, path.relative_to(repo.parent).as_posix())
            archive.writestr("../escape.py", "print('never written')\n")  # a path leaving the folder
    submitted_by(root, "ada@students.example")
    results, log = run_autograder_logged(root, dict(env, SOLITAIRE_GRADER="static"))
    assert results["score"] == sum(category_points(variation).values())
    assert "found in " in results["output"] and "my-solitaire-repo" in results["output"]
    assert not (root / "escape.py").exists() and not (root / "submission" / "escape.py").exists()
    assert "rule method" in log and "total" in log  # the instructor's per-rule table


def test_a_grader_failure_is_said_to_the_student_never_a_silent_zero(autograder):
    course, root, env = autograder
    simulate.copy_reference(variation_of(course, "ada"))(root / "submission")
    submitted_by(root, "ada@students.example")
    results, log = run_autograder_logged(root, dict(env, SOLITAIRE_GRADER="no-such-grader"))
    assert results["extra_data"]["status"] == "autograder-failed"
    assert "The autograder failed on your submission; your instructor has been told" in results["output"]
    assert results["tests"][0]["name"] == "Autograder failure"
    assert results["tests"][0]["visibility"] == "visible"
    assert "AUTOGRADER FAILURE" in log and "Traceback" in log


def test_a_refused_weak_sandbox_tells_the_instructor_why_in_the_log(autograder):
    """Only the plain layer works (Docker's default profile) and the zip was exported without
    --allow-weak-sandbox: the student reads that the autograder failed; the instructor's log says why
    (the grader's own log is in a temporary folder that is gone once run_autograder ends)."""
    course, root, env = autograder
    simulate.copy_reference(variation_of(course, "ada"))(root / "submission")
    submitted_by(root, "ada@students.example")
    results, log = run_autograder_logged(root, dict(env, SOLITAIRE_SANDBOX_ISOLATION="plain"))
    assert results["extra_data"]["status"] == "autograder-failed" and results["score"] == 0
    assert "AUTOGRADER FAILURE" in log
    assert "refusing to run student code" in log and "--allow-weak-sandbox" in log


def test_run_autograder_with_the_real_sandboxed_grader(autograder):
    """The bundle holds everything grading needs: hidden suite, traces, sandbox, engine, catalog."""
    course, root, env = autograder
    variation = variation_of(course, "ada")
    simulate.copy_reference(variation)(root / "submission")
    (root / "submission" / "results.json").write_text('{"score": 1000}')  # a forged file changes nothing
    submitted_by(root, "ada@students.example")
    results = run_autograder(root, env)
    assert results["score"] == sum(category_points(variation).values())
    assert results["extra_data"]["worker"] == "sandbox"
    assert {test["tags"][0] for test in results["tests"]} == set(category_points(variation))


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
    (tmp_path / "submission" / f"{variation_of(course, 'ada')}.py").write_text("x = 1\n")
    (tmp_path / "metadata.json").write_text(json.dumps({"users": [{"email": "ada@students.example"}]}))
    monkeypatch.setenv("SOLITAIRE_COURSE_JSON", str(tmp_path / "course.json"))
    monkeypatch.setenv("SOLITAIRE_SUBMISSION_DIR", str(tmp_path / "submission"))
    monkeypatch.setenv("SOLITAIRE_SUBMISSION_METADATA", str(tmp_path / "metadata.json"))
    monkeypatch.setenv("SOLITAIRE_GRADER", "static")
    monkeypatch.delenv("SOLITAIRE_SANDBOX_ALLOW_WEAK", raising=False)
    gradescope_run.run()
    import os

    assert os.environ.get("SOLITAIRE_SANDBOX_ALLOW_WEAK") == "1"


def test_the_zip_pins_the_graders_versions_and_setup_installs_only_what_is_missing(make_course, tmp_path):
    course = make_course(["ada"])
    assign.run(course)
    archive = gradescope.build(course, tmp_path / "pinned.zip")
    with zipfile.ZipFile(archive) as bundle:
        constraints = bundle.read("constraints.txt").decode().split()
        setup = bundle.read("setup.sh").decode()
    pins = dict(line.split("==") for line in constraints)
    from importlib import metadata

    assert pins["jinja2"] == metadata.version("jinja2") and pins["rich"] == metadata.version("rich")
    assert "nbgrader" not in pins and "celery" not in pins  # extras stay out of the autograder
    assert '-c "$SOURCE/constraints.txt"' in setup
    assert "apt-get update" in setup.split("if [ ${#missing[@]} -gt 0 ]; then", 1)[1]  # apt only when needed
    # the interpreter check of setup.sh, run here: it finds this machine's Python 3.11+
    probe = setup.split("# apt only", 1)[1].split("missing=()", 1)[0]
    found = subprocess.run(["bash", "-c", 'PYTHON=""\n' + probe.split('PYTHON=""', 1)[1] + 'echo "$PYTHON"'],
                           capture_output=True, text=True, check=True).stdout.strip()
    assert found.startswith("python3")
