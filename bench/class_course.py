"""The course mode of ``bench/class_bench.py``: a class of N simulated students, graded end to end.

The course is built as ``solitaire demo`` builds it, from the demo's own parts
(:mod:`grader.course.demo`: its deadline, roster, seed and the push of each
simulated student, cycled over its twelve scenarios), on local bare
repositories: ``course init``, ``assign``, ``publish``, the pushes, ``collect``.
Then ``solitaire course grade DIR --jobs J`` runs as a user runs it, in a
subprocess (sandboxed grader, process pool, results store, nbgrader
gradebook); its wall time is the figure, and its last line the time of each
phase of the run (:mod:`grader.course.grade_progress`). ``--build-only``
stops before grading and ``--prepared DIR`` grades such a course, so that the
measured grade can run when the machine is quiet.
"""

from __future__ import annotations

import collections
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from grader.course import assign, config, demo, publish, simulate  # noqa: E402
from grader.course.collect import collect, read_collected  # noqa: E402
from grader.course.points import approved_variations, has_hidden_traces, has_reference  # noqa: E402
from solitaire.progress import Progress  # noqa: E402


def say(text: str) -> None:
    print(text, flush=True)


def build_course(directory: Path, students: int) -> config.CourseConfig:
    """A course of ``students`` simulated students in ``directory``, published, pushed and collected."""
    variations = tuple(v for v in approved_variations() if has_reference(v) and has_hidden_traces(v))
    course = config.init(directory, course_id="bench", assignment="solitaire", seed=demo.SEED,
                         deadline=demo.DEADLINE, variations=variations, roster=demo.roster_text(students))
    report = assign.run(course)
    cycle = len(demo.SCENARIOS)
    plans = [demo.plan_student(a.student, index, demo.SCENARIOS[index % cycle], a.variation)
             for index, a in enumerate(report.assignments)]
    mix = collections.Counter(plan.scenario for plan in plans)
    say(f"{students} students over {', '.join(variations)}; mix: "
        + ", ".join(f"{scenario} {count}" for scenario, count in sorted(mix.items())))

    started = time.perf_counter()
    with Progress("publish", students, unit="repos") as shown:
        published = publish.publish(course, clock=lambda: demo.PUBLISHED_AT,
                                    progress=lambda student: shown.advance(note=student))
    if published.failed:
        raise SystemExit(f"publish failed: {published.failed[:3]}")
    say(f"publish: {time.perf_counter() - started:.1f} s")

    started = time.perf_counter()
    pushing = [plan for plan in plans if plan.edit is not None]
    with Progress("pushes", len(pushing), unit="students") as shown:
        for plan in pushing:
            assert plan.edit is not None
            simulate.push_work(course.remote_url(plan.student), plan.student, plan.edit, plan.when,
                               branch=plan.branch, commit_date=plan.commit_date)
            shown.advance(note=plan.student)
    say(f"pushes: {time.perf_counter() - started:.1f} s")

    started = time.perf_counter()
    with Progress("collect", students, unit="repos") as shown:
        rows = collect(course, clock=lambda: demo.COLLECTED_AT, progress=lambda row: shown.advance())
    statuses = collections.Counter(row.status for row in rows)
    say(f"collect: {time.perf_counter() - started:.1f} s; "
        + ", ".join(f"{status} {count}" for status, count in sorted(statuses.items())))
    return course


def grade(directory: Path, jobs: int) -> tuple[float, int, list[str]]:
    """``solitaire course grade DIR --jobs J`` as a user runs it: wall seconds, exit status, and its
    last line on stderr (the phases' times; stderr is echoed as it comes) followed by its stdout."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=path)
    command = [sys.executable, "-m", "solitaire", "course", "grade", str(directory), "--jobs", str(jobs)]
    say("$ " + " ".join(command[2:]))
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None and process.stdout is not None
    tail: collections.deque[str] = collections.deque(maxlen=1)
    for line in process.stderr:
        sys.stderr.write(line)
        tail.append(line.rstrip())
    out = process.stdout.read()
    status = process.wait()
    wall = time.perf_counter() - started
    return wall, status, list(tail) + out.splitlines()


def run_course(students: int | None, jobs: int, directory: str | None, prepared: str | None,
               grading: bool = True) -> int:
    """Build (unless ``prepared``) and grade (if ``grading``) a class; print the figures."""
    load = os.getloadavg()[0]
    temporary = None
    if prepared is not None:
        path = Path(prepared)
        course = config.load(path)
    else:
        assert students is not None
        if directory is None:
            temporary = tempfile.mkdtemp(prefix="class-bench-course-")
        path = demo.new_directory(directory or temporary)
        course = build_course(path, students)
    try:
        gradable = sum(row.gradable for row in read_collected(course))
        if not grading:
            say(f"built in {path}: {gradable} submissions to grade (grade with --prepared {path})")
            return 0
        say(f"{os.cpu_count()} cores, load average {load:.1f} before grading; "
            f"{gradable} submissions to grade")
        wall, status, lines = grade(path, jobs)
        for line in lines:
            say(f"  {line}")
        say(f"course grade --jobs {jobs}: {wall:.1f} s wall ({wall / 60:.2f} min), exit status {status}, "
            f"{wall / max(1, gradable):.2f} s per graded submission; load average after "
            f"{os.getloadavg()[0]:.1f}")
        return 0 if status in (0, 1) else status  # 1: students need attention (late, missing ...)
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
