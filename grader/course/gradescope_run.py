"""What ``run_autograder`` runs on Gradescope: grade ``/autograder/submission``.

Gradescope's layout (each path overridable by an environment variable, for
tests and for other hosts):

=============================================  ======================================
path                                           variable
=============================================  ======================================
``/autograder``                                ``SOLITAIRE_AUTOGRADER_ROOT``
``<root>/submission`` (the student's files)    ``SOLITAIRE_SUBMISSION_DIR``
``<root>/results/results.json`` (written)      ``SOLITAIRE_RESULTS_DIR``
``<root>/submission_metadata.json``            ``SOLITAIRE_SUBMISSION_METADATA``
``<root>/source/course.json`` (from the zip)   ``SOLITAIRE_COURSE_JSON``
=============================================  ======================================

The variation graded is the one assigned to the submitter (their e-mail in
the submission metadata, looked up in ``course.json``); when the submitter
is not in the course file, the one rules file ``<variation>.py`` of the
submission decides. A ``results.json`` is always written, also when grading
fails (score 0 and the reason), so Gradescope never shows an empty result.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from .graders import get as get_grader


def _paths() -> dict[str, Path]:
    root = Path(os.environ.get("SOLITAIRE_AUTOGRADER_ROOT", "/autograder"))
    source = Path(__file__).resolve().parents[2]
    return {
        "submission": Path(os.environ.get("SOLITAIRE_SUBMISSION_DIR", root / "submission")),
        "results": Path(os.environ.get("SOLITAIRE_RESULTS_DIR", root / "results")),
        "metadata": Path(os.environ.get("SOLITAIRE_SUBMISSION_METADATA", root / "submission_metadata.json")),
        "course": Path(os.environ.get("SOLITAIRE_COURSE_JSON", source / "course.json")),
    }


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def choose_variation(course: dict[str, Any], metadata: Any, submission: Path) -> tuple[str | None, str]:
    """(variation, how it was chosen) for this submission; (None, why not) when it cannot be told."""
    students = {s["email"].lower(): s for s in course.get("students", []) if s.get("email")}
    users = (metadata or {}).get("users", []) if isinstance(metadata, dict) else []
    for user in users:
        student = students.get(str(user.get("email", "")).lower())
        if student:
            return student["variation"], f"assigned to {student['id']}"
    known = course.get("known_variations", [])
    present = [name for name in known if (submission / f"{name}.py").is_file()]
    if len(present) == 1:
        return present[0], f"the submission's rules file {present[0]}.py"
    if not present:
        return None, ("no rules file found: submit your repo (or at least your <variation>.py, e.g. "
                      f"{known[0] if known else 'scorpion'}.py)")
    return None, f"several rules files ({', '.join(p + '.py' for p in present)}): submit only yours"


def failure(message: str) -> dict[str, Any]:
    return {"score": 0.0, "output": f"The submission could not be graded: {message}", "tests": []}


def run() -> dict[str, Any]:
    paths = _paths()
    course = _read_json(paths["course"]) or {}
    variation, how = choose_variation(course, _read_json(paths["metadata"]), paths["submission"])
    if variation is None:
        return failure(how)
    if course.get("allow_weak_sandbox"):  # the instructor accepted the weak layer at export
        os.environ["SOLITAIRE_SANDBOX_ALLOW_WEAK"] = "1"
    grade, _ = get_grader(os.environ.get("SOLITAIRE_GRADER", course.get("grader", "sandbox")))
    with tempfile.TemporaryDirectory(prefix="solitaire-gradescope-") as temp:
        out = Path(temp) / "out"
        out.mkdir()
        points = course.get("points", {}).get(variation)
        try:
            results = grade(paths["submission"], variation, out, float(course.get("timeout", 600)),
                            points=points)
        except Exception as error:  # noqa: BLE001 - Gradescope must get a results.json
            return failure(f"{type(error).__name__}: {error}")
        feedback = out / "feedback.md"
        if not results.get("output") and feedback.exists():
            results["output"] = feedback.read_text(encoding="utf-8")
    results["output"] = f"Variation: {variation} ({how}).\n\n" + str(results.get("output", ""))
    return results


def main() -> int:
    results_dir = _paths()["results"]
    try:
        results = run()
    except Exception as error:  # noqa: BLE001 - Gradescope must get a results.json
        results = failure(f"{type(error).__name__}: {error}")
    results_dir.mkdir(parents=True, exist_ok=True)
    (results_dir / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(f"score {results.get('score')}; results written to {results_dir / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
