"""The fault tests reuse the course-workflow helpers (tests/workflow has no package: put it on the path)."""

import sys
from pathlib import Path

WORKFLOW = str(Path(__file__).resolve().parent.parent / "workflow")
if WORKFLOW not in sys.path:
    sys.path.insert(0, WORKFLOW)
