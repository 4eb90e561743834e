"""nbgrader is imported without jsonschema's slow optional IRI helper (grader/nbgrader_import.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROBE = """
import importlib.util, json, sys
installed = importlib.util.find_spec("rfc3987_syntax") is not None
from grader.course.gradebook_state import course_gradebook
course_gradebook()
from jsonschema import FormatChecker
print(json.dumps({"installed": installed, "imported": sys.modules.get("rfc3987_syntax") is not None,
                  "checkers": sorted(FormatChecker.checkers)}))
"""


def test_opening_the_gradebook_does_not_import_the_iri_helper():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["imported"] is False
    assert "uri" in found["checkers"] and "iri" not in found["checkers"]  # only the IRI checkers go


def test_the_starter_build_still_clears_solutions():
    from grader.starter.build import clear_solutions

    source = "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\n"
    cleared = clear_solutions(source)
    assert "return 1" not in cleared and "raise NotImplementedError()" in cleared
