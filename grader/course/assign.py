"""``solitaire course assign``: a variation for every student of the roster.

Rules, in order:

1. A student already in ``assignments.csv`` keeps their variation, forever
   (students added later never move anyone).
2. A new student with an approved custom choice in ``approvals.csv`` gets it
   (any variation of the catalog). An approval naming an unknown variation
   leaves that student unassigned, with a message, until it is fixed.
3. A new student whose e-mail belongs to an assigned student no longer on
   the roster is that student under a corrected id: they keep that
   variation (source ``renamed``; :mod:`grader.course.roster_sync`).
4. Every other new student gets one of the course's approved variations: the
   new students are taken in a seeded shuffle of their ids, and each gets a
   least-used variation (counting the students of the roster already
   assigned), ties broken by the same seeded generator. Without custom
   choices the counts therefore differ by at most one, also after students
   are added later.

The generator is the engine's SplitMix64 (:mod:`solitaire.rng`), so the same
roster, seed and existing assignments give the same result on every machine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from solitaire.errors import UserError
from solitaire.rng import SplitMix64

from .config import CourseConfig
from .points import known_variations
from .roster import Problem, Student, check_id, read_roster, read_rows, write_csv

ASSIGNMENT_COLUMNS = ("id", "variation", "source", "email")
RANDOM = "random"
APPROVED = "approved"
RENAMED = "renamed"


@dataclass(frozen=True)
class Assignment:
    student: str
    variation: str
    source: str  # RANDOM, APPROVED or RENAMED
    email: str = ""  # the roster's when assigned: a student whose id changes is found by it


@dataclass
class AssignReport:
    assignments: list[Assignment]
    new: list[Assignment] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    renamed: list[tuple[str, Assignment]] = field(default_factory=list)  # (old id, the new id's)
    removed: list[str] = field(default_factory=list)  # assigned, no longer on the roster

    def counts(self, students: Sequence[str] | None = None) -> Counter[str]:
        wanted = None if students is None else set(students)
        return Counter(a.variation for a in self.assignments if wanted is None or a.student in wanted)


def read_assignments(path: Path) -> tuple[dict[str, Assignment], list[Problem]]:
    """The assignments already made (empty when the file does not exist yet)."""
    if not path.exists():
        return {}, []
    found: dict[str, Assignment] = {}
    problems: list[Problem] = []
    known = known_variations()
    for line, row in read_rows(path, "assignments file", ASSIGNMENT_COLUMNS[:2]):
        student, variation = row["id"], row["variation"]
        if student in found:
            problems.append(Problem(str(path), line, f"student {student!r} is listed twice; line ignored"))
            continue
        if variation not in known:
            problems.append(Problem(str(path), line,
                                    f"student {student!r}: variation {variation!r} is not in the catalog"))
        found[student] = Assignment(student, variation, row.get("source") or RANDOM, row.get("email", ""))
    return found, problems


def read_approvals(path: Path, roster_ids: set[str]) -> tuple[dict[str, str], set[str], list[Problem]]:
    """Approved custom choices: (student → variation, students with a bad approval, problems)."""
    if not path.exists():
        return {}, set(), []
    approvals: dict[str, str] = {}
    rejected: set[str] = set()
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    known = known_variations()
    for line, row in read_rows(path, "approvals file", ("id", "variation")):
        student, variation = row["id"], row["variation"]
        reason = check_id(student)
        if reason:
            problems.append(Problem(str(path), line, f"{reason}; line skipped"))
            continue
        if student in seen:
            problems.append(Problem(str(path), line, f"student {student!r} already has an approval "
                                                     f"on line {seen[student]}; line skipped"))
            continue
        seen[student] = line
        if student not in roster_ids:
            problems.append(Problem(str(path), line, f"student {student!r} is not on the roster; "
                                                     "approval ignored"))
            continue
        if variation not in known:
            rejected.add(student)
            problems.append(Problem(
                str(path), line,
                f"student {student!r}: unknown variation {variation!r} (known: {', '.join(known)}); "
                "student left unassigned until this is fixed",
            ))
            continue
        approvals[student] = variation
    return approvals, rejected, problems


def choose(
    students: Sequence[str],
    variations: Sequence[str],
    seed: int,
    existing: dict[str, Assignment] | None = None,
    approvals: dict[str, str] | None = None,
    rejected: set[str] | None = None,
) -> tuple[list[Assignment], list[Assignment], list[str]]:
    """(all assignments, the new ones, messages about approvals not applied); see the module docstring."""
    if not variations:
        raise UserError("no approved variations to assign")
    existing = dict(existing or {})
    approvals = approvals or {}
    rejected = rejected or set()
    notes: list[str] = []
    on_roster = set(students)
    counts: Counter[str] = Counter({v: 0 for v in variations})
    for student, assignment in existing.items():
        if student in on_roster:
            counts[assignment.variation] += 1
        wanted = approvals.get(student)
        if wanted is not None and wanted != assignment.variation:
            notes.append(
                f"student {student!r} keeps {assignment.variation} (assigned earlier); the approval "
                f"of {wanted} is not applied: delete the student's line from assignments.csv to reassign"
            )
    new: list[Assignment] = []
    waiting = [s for s in students if s not in existing and s not in rejected]
    for student in waiting:
        if student in approvals:
            new.append(Assignment(student, approvals[student], APPROVED))
            counts[approvals[student]] += 1
    rng = SplitMix64(seed)
    randoms = sorted(s for s in waiting if s not in approvals)
    rng.shuffle(randoms)
    for student in randoms:
        fewest = min(counts[v] for v in variations)
        least_used = [v for v in variations if counts[v] == fewest]
        variation = least_used[rng.below(len(least_used))]
        counts[variation] += 1
        new.append(Assignment(student, variation, RANDOM))
    by_student = {a.student: a for a in new}
    ordered = [existing[s] for s in existing] + [by_student[s] for s in students if s in by_student]
    return ordered, new, notes


def run(config: CourseConfig) -> AssignReport:
    """Read the roster, approvals and earlier assignments; write ``assignments.csv``."""
    from .roster_sync import renames

    students, problems = read_roster(config.roster_path)
    ids = [s.id for s in students]
    existing, existing_problems = read_assignments(config.assignments_path)
    approvals, rejected, approval_problems = read_approvals(config.approvals_path, set(ids))
    problems += existing_problems + approval_problems
    renamed = renames(students, existing)
    for new_id, old in renamed.items():
        existing[new_id] = Assignment(new_id, old.variation, RENAMED)
    assignments, new, notes = choose(ids, config.variations, config.seed, existing, approvals, rejected)
    problems += [Problem(str(config.approvals_path), 0, note) for note in notes]
    emails = {s.id: s.email for s in students}
    assignments = [Assignment(a.student, a.variation, a.source, emails.get(a.student) or a.email)
                   for a in assignments]
    write_csv(
        config.assignments_path,
        ASSIGNMENT_COLUMNS,
        [(a.student, a.variation, a.source, a.email) for a in assignments],
    )
    by_id = {a.student: a for a in assignments}
    return AssignReport(assignments, new, problems,
                        renamed=[(old.student, by_id[new_id]) for new_id, old in renamed.items()],
                        removed=[a.student for a in assignments
                                 if a.student not in emails and a.student not in
                                 {old.student for old in renamed.values()}])


def load_assignments(config: CourseConfig) -> list[Assignment]:
    """The assignments of the course; a clear error when ``course assign`` has not run."""
    if not config.assignments_path.exists():
        raise UserError(f"{config.assignments_path}: no assignments yet (run `solitaire course assign`)")
    found, _ = read_assignments(config.assignments_path)
    return list(found.values())


def roster_by_id(config: CourseConfig) -> dict[str, Student]:
    students, _ = read_roster(config.roster_path)
    return {s.id: s for s in students}
