"""A real formgrader (Jupyter server, nbgrader's extension) lists the course's assignments and submissions.

Slow (a Jupyter server starts in ~10-30 s); test_grades_match.py checks the
same through nbgrader's NbGraderAPI, which formgrader's handlers call, in the
default run.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from test_grades_match import GRADED, graded, own_assignment  # noqa: F401 - graded is a fixture
from workflow_support import variation_of

from grader.course import config
from grader.course.nbgrader_files import nbgrader_root
from grader.course.points import category_points

pytestmark = pytest.mark.slow
TOKEN = "solitaire-test-token"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(port: int, path: str) -> object:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}?token={TOKEN}", timeout=30) as answer:
        return json.loads(answer.read())


def test_formgrader_lists_the_course(graded: config.CourseConfig, tmp_path: Path) -> None:  # noqa: F811
    port = free_port()
    jupyter = Path(sys.executable).parent / "jupyter"
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [str(jupyter), "server", "--no-browser", "--ip", "127.0.0.1", "--port", str(port),
         f"--ServerApp.token={TOKEN}", "--allow-root"],
        cwd=nbgrader_root(graded), stdout=log, stderr=subprocess.STDOUT)
    try:
        give_up = time.monotonic() + 120
        while True:
            try:
                assignments = get(port, "/formgrader/api/assignments")
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, (tmp_path / "server.log").read_text()
                assert time.monotonic() < give_up, "the Jupyter server did not answer in 120 s"
                time.sleep(0.5)  # a real server starting; nothing simulated here
        assert isinstance(assignments, list)
        listed = {a["name"]: a for a in assignments}
        for student in GRADED:
            name = own_assignment(graded, student)
            maximum = sum(category_points(variation_of(graded, student), graded.points).values())
            assert listed[name]["max_score"] == maximum and listed[name]["num_submissions"] >= 1
            submissions = get(port, f"/formgrader/api/submissions/{name}")
            assert isinstance(submissions, list)
            (mine,) = [s for s in submissions if s["student"] == student]
            assert mine["autograded"] and mine["max_score"] == maximum
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
