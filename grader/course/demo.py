"""``solitaire demo``: a whole course on local defaults, end to end.

Builds a course directory with a roster, assigns variations, publishes one
bare git repo per student, simulates the students' pushes, collects, grades
(through the sandboxed grader by default) and prints the gradebook.

Time is simulated: the deadline is a fixed date, every push carries its own
simulated receive time (the remote's reflog records it) and collect runs with
a clock set two days after the deadline. Nothing sleeps.

The simulated students, in order (cycled beyond twelve):

==================  ===================================================================
scenario            what the student pushes
==================  ===================================================================
reference           the reference solution, on time
late                the reference solution 27 h after the deadline, commit dated before it
never               nothing (the repo keeps the starter commit)
bug-tableau         the reference with one comparison flipped in ``tableau_accepts``
cheat               the starter plus an attack: forges results.json, reads the hidden traces, exits 0
starter             the untouched starter (only notes added to the README)
partial             the first three rule methods solved, the others still stubs
bug-foundation      the reference with an off-by-one in ``foundation_accepts``
wrong-branch        the reference, pushed to ``master`` instead of ``main``
bug-won             the reference with the comparison of ``is_won`` flipped
==================  ===================================================================
"""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from solitaire.errors import UserError

from . import assign, config, publish, simulate
from .collect import collect
from .export import GradeRow, export_csv, table
from .grade_class import grade_class
from .nbgrader_files import nbgrader_root
from .points import approved_variations, has_hidden_traces, has_reference

DEADLINE = dt.datetime(2030, 6, 14, 23, 59, tzinfo=dt.timezone(dt.timedelta(hours=2)))
PUBLISHED_AT = DEADLINE - dt.timedelta(days=14)
COLLECTED_AT = DEADLINE + dt.timedelta(days=2)
SEED = 2030

SCENARIOS = (
    "reference", "late", "never", "bug-tableau", "cheat", "starter",
    "partial", "bug-foundation", "reference", "wrong-branch", "bug-won", "reference",
)
NAMES = (
    "Ada Byron", "Blaise Pascal", "Carl Gauss", "Dora Mavor", "Emmy Noether", "Felix Klein",
    "Grace Hopper", "Hedy Lamarr", "Irene Curie", "John Napier", "Kurt Goedel", "Lise Meitner",
)



@dataclass(frozen=True)
class Plan:
    """What one simulated student does."""

    student: str
    scenario: str
    description: str
    edit: simulate.Edit | None
    when: dt.datetime
    commit_date: dt.datetime | None = None
    branch: str = "main"


def _bug(
    variation: str, methods: list[str], replacements: list[tuple[str, str]]
) -> tuple[simulate.Edit, str]:
    found = simulate.mutate(variation, methods, replacements)
    if found is None:  # this variation has none of these methods: flip any comparison instead
        found = simulate.mutate(variation, ["can_pick_up", "tableau_accepts", "is_won"], [(" == ", " != ")])
    if found is None:
        return simulate.copy_reference(variation), "reference (no bug applies)"
    text, what = found
    return simulate.write_rules(variation, text), f"bug: {what}"


def plan_student(student: str, index: int, scenario: str, variation: str) -> Plan:
    """The push of one simulated student (see the module docstring)."""
    # pushes 37 min apart within each round of the scenarios (a large class is not pushed past the deadline)
    when = DEADLINE - dt.timedelta(days=2) + dt.timedelta(minutes=37 * (index % len(SCENARIOS)))
    reference = simulate.copy_reference(variation)
    if scenario == "reference":
        return Plan(student, scenario, "reference solution", reference, when)
    if scenario == "late":
        late = DEADLINE + dt.timedelta(hours=27)
        return Plan(student, scenario,
                    "reference solution, pushed 27 h late, commit dated before the deadline",
                    reference, late, commit_date=DEADLINE - dt.timedelta(hours=3))
    if scenario == "never":
        return Plan(student, scenario, "never pushes", None, when)
    if scenario == "starter":
        notes = simulate.write_file("NOTES.md", "I will start next week.\n")
        return Plan(student, scenario, "untouched starter (notes added)", notes, when)
    if scenario == "partial":
        text, stubbed = simulate.partial(variation, 3)
        return Plan(student, scenario, f"partial: still stubs: {', '.join(stubbed)}",
                    simulate.write_rules(variation, text), when)
    if scenario == "cheat":
        return Plan(student, scenario, "cheat: forges results.json, reads the hidden traces, exits 0",
                    simulate.cheat(variation), when)
    if scenario == "wrong-branch":
        return Plan(student, scenario, "reference solution pushed to branch master", reference, when,
                    branch="master")
    if scenario == "bug-tableau":
        edit, what = _bug(variation, ["tableau_accepts", "can_pick_up"], [(" == ", " != "), (" + 1", " + 2")])
    elif scenario == "bug-foundation":
        edit, what = _bug(variation, ["foundation_accepts", "tableau_accepts"],
                          [(" + 1", " + 2"), (" - 1", " - 2"), (" < ", " <= ")])
    elif scenario == "bug-won":
        edit, what = _bug(variation, ["is_won"], [(" == ", " != ")])
    else:
        raise ValueError(f"unknown scenario {scenario!r}")
    return Plan(student, scenario, what, edit, when)


def new_directory(directory: str | Path | None) -> Path:
    """The demo's course directory: ``directory`` (absent or empty), or a new temporary one."""
    if directory is None:
        return Path(tempfile.mkdtemp(prefix="solitaire-demo-"))
    path = Path(directory)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UserError(f"{path}: the demo needs a new or empty directory")
    path.mkdir(parents=True, exist_ok=True)
    return path


def roster_text(students: int) -> str:
    lines = ["id,name,email"]
    for index in range(students):
        name = NAMES[index % len(NAMES)] + ("" if index < len(NAMES) else f" {index // len(NAMES) + 1}")
        student = f"s{index + 1:02d}"
        lines.append(f"{student},{name},{student}@students.example")
    return "\n".join(lines) + "\n"


def run_demo(
    directory: str | Path | None = None,
    students: int = 12,
    jobs: int = 2,
    grader: str = "sandbox",
    console: Console | None = None,
    writer: Callable[[str, Path], object] = publish.write_student_repo,
) -> Path:
    """Run the demo course in ``directory``; returns the course directory."""
    console = console or Console()
    if students < 1:
        raise UserError("the demo needs at least one student")
    variations = tuple(v for v in approved_variations() if has_reference(v))
    left_out: tuple[str, ...] = ()
    if grader == "sandbox":  # a variation without hidden traces would only ever score 0
        left_out = tuple(v for v in variations if not has_hidden_traces(v))
        variations = tuple(v for v in variations if v not in left_out)
    if not variations:
        raise UserError("no approved variation has a reference module and hidden traces")
    path = new_directory(directory)
    console.rule("[bold]Solitaire Lab demo")
    console.print(f"course directory: [bold]{path}[/bold]")
    if left_out:
        console.print(f"[yellow]left out (no hidden traces yet): {', '.join(left_out)}")
    console.print(f"simulated time: deadline {DEADLINE.isoformat()}, collect at {COLLECTED_AT.isoformat()}")

    console.rule("1. course init")
    course = config.init(path, course_id="demo", assignment="solitaire", seed=SEED, deadline=DEADLINE,
                         variations=variations, roster=roster_text(students))
    console.print(f"wrote {path / config.CONFIG_NAME} and a roster of {students} students")

    console.rule("2. course assign")
    report = assign.run(course)
    for problem in report.problems:
        console.print(f"[yellow]{problem}")
    plans = {}
    for index, assignment in enumerate(report.assignments):
        scenario = SCENARIOS[index % len(SCENARIOS)]
        plans[assignment.student] = plan_student(assignment.student, index, scenario, assignment.variation)
    counts = report.counts()
    console.print("variations: " + ", ".join(f"{v} {counts[v]}" for v in variations))

    console.rule("3. course publish")
    published = publish.publish(course, clock=lambda: PUBLISHED_AT, writer=writer,
                                progress=lambda s: console.print(f"  published {s}", highlight=False))
    for student, reason in published.failed:
        console.print(f"[red]  {student}: {reason}")
    if published.failed and not published.published:
        raise UserError("no repo could be published: " + published.failed[0][1])

    console.rule("4. the students push (simulated)")
    by_student = {a.student: a for a in report.assignments}
    listing = Table("student", "variation", "does", f"pushed (deadline {DEADLINE:%a %d %H:%M})")
    for student, plan in plans.items():
        if plan.edit is not None and student not in dict(published.failed):
            simulate.push_work(course.remote_url(student), student, plan.edit, plan.when,
                               branch=plan.branch, commit_date=plan.commit_date)
        pushed = plan.when.astimezone(DEADLINE.tzinfo).strftime("%a %d %H:%M") if plan.edit else "-"
        listing.add_row(student, by_student[student].variation, plan.description, pushed)
    console.print(listing)

    console.rule("5. course collect")
    rows = collect(course, clock=lambda: COLLECTED_AT)
    for collected in rows:
        console.print(f"  {collected.student}: {collected.status}"
                      + (f" ({collected.reason})" if collected.reason else ""), highlight=False)

    console.rule("6. course grade")
    graded = grade_class(course, jobs=jobs, grader=grader, console=console)
    for student, reason in graded.failed:
        console.print(f"[red]  {student}: grading failed: {reason}")

    console.rule("7. course export")
    csv_path, grades = export_csv(course)
    console.print(table(grades, title=f"Gradebook of {course.course_id}/{course.assignment}"))
    for grade in grades:
        if plans.get(grade.student) and plans[grade.student].scenario == "cheat":
            console.print(cheat_verdict(course, grade.student, grade.score or 0.0, grade.max_score),
                          highlight=False, soft_wrap=True)
    console.print(f"grades CSV: {csv_path}")
    console.print(f"nbgrader gradebook: {course.gradebook_db_url()}")
    console.print(f"nbgrader's tools (nbgrader export, formgrader): run them in {nbgrader_root(course)}",
                  soft_wrap=True, highlight=False)
    console.print("feedback files:")
    for grade in grades:
        if grade.feedback:
            console.print(f"  {grade.student}: {grade.feedback}", highlight=False)
    show_return(course, console)
    console.print(class_report_line(course, grades), highlight=False, soft_wrap=True)
    page = feedback_page(course, [g.student for g in grades if g.feedback and plans.get(g.student)
                                  and plans[g.student].scenario.startswith("bug")])
    if page is not None:
        console.print(f"one student's feedback page (open it in a browser): {page}", highlight=False,
                      soft_wrap=True)
    console.print(f"\nNext: `solitaire course export {path} --gradescope autograder.zip`; "
                  "docs/instructor-guide.md walks through a real term.")
    return path


def class_report_line(course: config.CourseConfig, grades: list[GradeRow]) -> str:
    """Write the class report (``course report``) and say where it is, or why there is none."""
    from .class_report import write_report

    try:
        return f"class report: {write_report(course, rows=grades).path}"
    except UserError as error:  # matplotlib missing: the demo still ends, with the way to install it
        return f"no class report: {error}"


def feedback_page(course: config.CourseConfig, students: list[str]) -> Path | None:
    """The feedback.html of the first of ``students`` that has one."""
    pages = (course.feedback_dir / student / "feedback.html" for student in students)
    return next((page for page in pages if page.is_file()), None)


def show_return(course: config.CourseConfig, console: Console) -> None:
    """Step 8: ``course return``, then one returned student's feedback branch as git shows it."""
    from .feedback_return import DONE, return_feedback, show_branch

    console.rule("8. course return")
    report = return_feedback(course, clock=lambda: COLLECTED_AT + dt.timedelta(hours=1))
    for outcome in report.outcomes:
        console.print(f"  {outcome.student}: {outcome.status} ({outcome.detail})", highlight=False)
    returned = next((o.student for o in report.outcomes if o.status in DONE), None)
    if returned is not None:
        console.print(f"{returned}'s repo now has a branch {report.branch!r} (main untouched):")
        for command, output in show_branch(course, returned, report.branch):
            console.print(f"  $ {command}", highlight=False, soft_wrap=True)
            for line in output.splitlines():
                console.print(f"    {line}", highlight=False, soft_wrap=True)


def cheat_verdict(course: config.CourseConfig, student: str, score: float, max_score: float) -> str:
    """One line: what the cheating student tried, and the evidence that it was stopped."""
    import json

    seen = ""
    results = course.feedback_dir / student / "results.json"
    if results.is_file():
        outputs = [str(t.get("output", "")) for t in json.loads(results.read_text(encoding="utf-8"))["tests"]]
        seen = next((line.removeprefix("What went wrong: ").strip("` ") for o in outputs
                     for line in o.splitlines() if "exit status" in line), "")
    verdict = f"scored {score:g} / {max_score:g}" + (f"; the grader saw: {seen}" if seen else "")
    stopped = "stopped" if score == 0 else "NOT STOPPED"
    return f"cheat {student} tried to {simulate.CHEAT_TRIED}: {stopped}, {verdict}"
