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
the submission metadata, looked up in ``course.json``), never the file they
uploaded: a submitter not on the roster gets a visible "not graded" test
saying so. The rules file is found wherever the upload has it (a folder, a
zip: :mod:`.gradescope_files`). A ``results.json`` is always written: when
the grader itself fails, the student reads that the autograder failed and
their instructor has been told (a visible test, never a silent 0), and the
instructor's log (the standard output) has the traceback. For a graded
submission the log is the per-rule table.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from .graders import get as get_grader
from .gradescope_files import UploadError, locate


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


NOT_ON_ROSTER = ("{who} is not on this course's roster, so nothing was graded: the variation you are "
                 "graded on comes from your roster entry, never from the files you upload. Ask your "
                 "instructor to add you, then resubmit.")
NO_SUBMITTER = ("Gradescope did not say who submitted this, so nothing was graded (the variation comes "
                "from the submitter's roster entry). Resubmit, or tell your instructor.")
AUTOGRADER_FAILED = ("The autograder failed on your submission; your instructor has been told. This is not "
                     "a grade of your work: it will be graded again once the problem is fixed.")


def choose_variation(course: dict[str, Any], metadata: Any) -> tuple[str | None, str]:
    """(variation, how it was chosen) from the submitter's roster entry; (None, why not) otherwise."""
    students = {s["email"].lower(): s for s in course.get("students", []) if s.get("email")}
    users = (metadata or {}).get("users", []) if isinstance(metadata, dict) else []
    for user in users:
        student = students.get(str(user.get("email", "")).lower())
        if student:
            return student["variation"], f"assigned to {student['id']}"
    emails = [str(user.get("email", "")) for user in users if user.get("email")]
    if not emails:
        return None, NO_SUBMITTER
    return None, NOT_ON_ROSTER.format(who=" and ".join(emails))


def not_graded(message: str, status: str) -> dict[str, Any]:
    """Results for a submission that was not graded: a visible test saying why, never a silent 0."""
    test = {"name": "Submission not graded", "score": 0.0, "max_score": 0.0, "status": "failed",
            "output": message, "visibility": "visible"}
    return {"score": 0.0, "output": message, "tests": [test], "extra_data": {"status": status}}


def grader_failed(detail: str) -> dict[str, Any]:
    """The grader (not the submission) failed: the student is told so; the detail goes to the log."""
    print(f"AUTOGRADER FAILURE (not the student's fault; this submission needs a regrade):\n{detail}")
    results = not_graded(AUTOGRADER_FAILED, "autograder-failed")
    results["tests"][0]["name"] = "Autograder failure"
    return results


def instructor_log(variation: str, how: str, results: dict[str, Any]) -> str:
    """The per-rule table Gradescope shows the instructor (the autograder's standard output)."""
    extra = results.get("extra_data", {})
    methods = extra.get("methods", {})
    width = max([len(m) for m in methods] + [len("rule method")])
    status, layer = extra.get("status", "-"), extra.get("sandbox_layer", "-")
    lines = [f"{variation} ({how}): status {status}, sandbox {layer}", f"  {'rule method':<{width}}  points"]
    lines += [f"  {method:<{width}}  {score:g} / {most:g}" for method, (score, most) in methods.items()]
    lines.append(f"  {'total':<{width}}  {results.get('score', 0):g} / "
                 f"{sum(most for _, most in methods.values()):g}")
    return "\n".join(lines)


def run() -> dict[str, Any]:
    paths = _paths()
    course = _read_json(paths["course"]) or {}
    variation, how = choose_variation(course, _read_json(paths["metadata"]))
    if variation is None:
        print(f"not graded: {how}")
        return not_graded(how, "not-on-roster")
    if course.get("allow_weak_sandbox"):  # the instructor accepted the weak layer at export
        os.environ["SOLITAIRE_SANDBOX_ALLOW_WEAK"] = "1"
    grade, _ = get_grader(os.environ.get("SOLITAIRE_GRADER", course.get("grader", "sandbox")))
    with tempfile.TemporaryDirectory(prefix="solitaire-gradescope-") as temp:
        try:
            submission = locate(paths["submission"], variation, Path(temp) / "unzipped")
        except UploadError as error:
            print(f"not graded: {error}")
            return not_graded(str(error), "unreadable-upload")
        if submission is None:  # the grader says what is missing, in its usual words
            submission = paths["submission"]
        elif submission != paths["submission"]:
            where = submission.relative_to(temp if submission.is_relative_to(temp) else paths["submission"])
            how += f"; found in {where}"
        out = Path(temp) / "out"
        out.mkdir()
        points = course.get("points", {}).get(variation)
        log = out / "grader-error.log"  # in the temporary folder: its text goes to the instructor's log
        try:
            results = grade(submission, variation, out, float(course.get("timeout", 600)), points=points)
        except Exception:  # noqa: BLE001 - Gradescope must get a results.json
            kept = f"\n{log.name}:\n{log.read_text(encoding='utf-8')}" if log.exists() else ""
            return grader_failed(traceback.format_exc() + kept)
        if results.get("extra_data", {}).get("internal_error"):
            return grader_failed(log.read_text(encoding="utf-8") if log.exists() else "internal error")
        feedback = out / "feedback.md"
        if not results.get("output") and feedback.exists():
            results["output"] = feedback.read_text(encoding="utf-8")
    results["output"] = f"Variation: {variation} ({how}).\n\n" + str(results.get("output", ""))
    print(instructor_log(variation, how, results))
    return results


def main() -> int:
    results_dir = _paths()["results"]
    try:
        results = run()
    except Exception:  # noqa: BLE001 - Gradescope must get a results.json
        results = grader_failed(traceback.format_exc())
    results_dir.mkdir(parents=True, exist_ok=True)
    (results_dir / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(f"score {results.get('score')}; results written to {results_dir / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
