"""Opening a new course gradebook, with and without grader/nbgrader_import.py's skip, side by side.

    .venv/bin/python bench/gradebook_open.py COURSE --pairs 4

COURSE: a course directory (``course.toml``, a roster), e.g. the one ``bash scripts/demo.sh``
leaves in ``/tmp``. Each run is a fresh process on its own copy of the course without its
gradebook: it imports nbgrader, opens a new gradebook and ensures the course's assignments and
students, as ``course grade`` does. The two kinds alternate, one at a time; one line per run:
the kind, CPU seconds (user + sys of the process) and wall seconds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUN = """
import os, sys, time
if os.environ.get("WITHOUT_SKIP"):
    import grader.nbgrader_import as skipping
    skipping.UNUSED_HELPERS = ()
from grader.course import config
from grader.course.roster import read_roster
course = config.load(sys.argv[1])
students, _problems = read_roster(course.roster_path)
wall, cpu = time.perf_counter(), time.process_time()
from grader.course.gradebook_state import course_gradebook
with course_gradebook()(course) as gradebook:
    gradebook.ensure_structure(sorted(set(course.variations)))
    gradebook.ensure_students(students)
print(f"{time.process_time() - cpu:.2f} {time.perf_counter() - wall:.2f}")
"""


def one_run(course: Path, skip: bool) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="gradebook-open-") as temporary:
        copy = Path(temporary) / "course"
        shutil.copytree(course, copy, ignore=shutil.ignore_patterns("gradebook.db", ".work"))
        env = {**os.environ, **({} if skip else {"WITHOUT_SKIP": "1"})}
        done = subprocess.run([sys.executable, "-c", RUN, str(copy)], cwd=REPO, env=env,
                              capture_output=True, text=True, check=True)
        cpu, wall = done.stdout.split()[-2:]
        return float(cpu), float(wall)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("course", type=Path, help="a course directory (course.toml, roster)")
    parser.add_argument("--pairs", type=int, default=4, help="runs of each kind (default 4)")
    args = parser.parse_args(argv)
    if not (args.course / "course.toml").is_file():
        parser.error(f"{args.course} has no course.toml")
    for _ in range(args.pairs):
        for skip in (False, True):
            cpu, wall = one_run(args.course, skip)
            kind = "with skip" if skip else "without"
            print(f"{kind:>9}  cpu {cpu:5.2f} s  wall {wall:5.2f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
