"""course assign: balanced, seeded, stable, approvals honoured; malformed inputs named precisely."""

from __future__ import annotations

from collections import Counter

import pytest
from workflow_support import roster_text

from grader.course import assign
from grader.course.roster import read_roster
from solitaire.errors import UserError

SIX = ("napoleons_square", "metternich", "bismarck", "indian", "double_fives", "scorpion")


def ids(n: int, prefix: str = "s") -> list[str]:
    return [f"{prefix}{i:03d}" for i in range(n)]


@pytest.mark.parametrize("size", [1, 5, 6, 7, 13, 40])
def test_counts_differ_by_at_most_one(size):
    assignments, new, _ = assign.choose(ids(size), SIX, seed=11)
    counts = Counter(a.variation for a in assignments)
    assert len(assignments) == len(new) == size
    assert set(counts) <= set(SIX)
    assert max(counts.values()) - min(counts.get(v, 0) for v in SIX) <= 1


def test_reproducible_from_the_seed_and_independent_of_roster_order():
    students = ids(20)
    first, _, _ = assign.choose(students, SIX, seed=5)
    again, _, _ = assign.choose(list(reversed(students)), SIX, seed=5)
    other, _, _ = assign.choose(students, SIX, seed=6)
    mapping = {a.student: a.variation for a in first}
    assert mapping == {a.student: a.variation for a in again}
    assert mapping != {a.student: a.variation for a in other}


def test_students_added_later_never_move_anyone_and_balance_holds():
    first, _, _ = assign.choose(ids(9), SIX, seed=3)
    existing = {a.student: a for a in first}
    later = ids(9) + ids(8, prefix="late")
    everyone, new, _ = assign.choose(later, SIX, seed=3, existing=existing)
    mapping = {a.student: a.variation for a in everyone}
    assert all(mapping[s] == a.variation for s, a in existing.items())
    assert sorted(a.student for a in new) == sorted(ids(8, prefix="late"))
    counts = Counter(mapping.values())
    assert max(counts.values()) - min(counts[v] for v in SIX) <= 1


def test_approved_choices_are_honoured_even_outside_the_approved_set():
    assignments, _, _ = assign.choose(ids(12), ("scorpion", "bismarck"), seed=1,
                                      approvals={"s000": "indian", "s001": "bismarck"})
    mapping = {a.student: a for a in assignments}
    assert (mapping["s000"].variation, mapping["s000"].source) == ("indian", assign.APPROVED)
    assert mapping["s001"].variation == "bismarck"
    randoms = Counter(a.variation for a in assignments if a.source == assign.RANDOM)
    totals = Counter(a.variation for a in assignments)
    # the random ones fill the least-used: bismarck already has one approved student
    assert randoms["scorpion"] > randoms["bismarck"]
    assert abs(totals["scorpion"] - totals["bismarck"]) <= 1 and totals["indian"] == 1


def test_run_writes_the_assignments_and_a_rerun_changes_nothing(make_course):
    course = make_course(ids(7))
    report = assign.run(course)
    assert not report.problems and len(report.new) == 7
    text = course.assignments_path.read_text()
    assert text.splitlines()[0] == "id,variation,source,email"  # the e-mail finds a renamed id
    again = assign.run(course)
    assert again.new == [] and course.assignments_path.read_text() == text


def test_roster_additions_after_a_first_run(make_course):
    course = make_course(ids(6))
    before = {a.student: a.variation for a in assign.run(course).assignments}
    course.roster_path.write_text(roster_text(ids(6) + ["zoe", "yan"]), encoding="utf-8")
    report = assign.run(course)
    after = {a.student: a.variation for a in report.assignments}
    assert {s: after[s] for s in before} == before
    assert sorted(a.student for a in report.new) == ["yan", "zoe"]
    assert len(set(after[s] for s in ("yan", "zoe"))) == 2  # two least-used, not the same one


def test_unknown_variation_in_approvals_names_file_line_and_student(make_course):
    course = make_course(["ada", "bob", "cy"])
    course.approvals_path.write_text("id,variation\nbob,klondike_x\ncy,scorpion\n", encoding="utf-8")
    report = assign.run(course)
    messages = [str(p) for p in report.problems]
    assert len(messages) == 1
    assert messages[0].startswith(f"{course.approvals_path}:2: student 'bob': unknown variation 'klondike_x'")
    mapping = {a.student: a.variation for a in report.assignments}
    assert "bob" not in mapping  # left unassigned until fixed, not given a random variation forever
    assert mapping["cy"] == "scorpion" and "ada" in mapping


def test_approval_after_assignment_is_reported_not_applied(make_course):
    course = make_course(["ada"])
    first = assign.run(course).assignments[0].variation
    other = next(v for v in SIX if v != first)
    course.approvals_path.write_text(f"id,variation\nada,{other}\n", encoding="utf-8")
    report = assign.run(course)
    assert report.assignments[0].variation == first
    assert any("keeps" in str(p) and other in str(p) for p in report.problems)


# -- malformed rosters ---------------------------------------------------------------------------

def write_roster(tmp_path, data: bytes):
    path = tmp_path / "roster.csv"
    path.write_bytes(data)
    return path


def test_missing_column_is_named(tmp_path):
    path = write_roster(tmp_path, b"id,name\nada,Ada\n")
    with pytest.raises(UserError, match=r"roster.csv:1: the roster has no column 'email'"):
        read_roster(path)


def test_duplicate_id_names_both_lines_and_keeps_the_rest(tmp_path):
    path = write_roster(tmp_path, b"id,name,email\nada,Ada,a@x\nbob,Bob,b@x\nada,Ada Two,a2@x\ncy,Cy,c@x\n")
    students, problems = read_roster(path)
    assert [s.id for s in students] == ["ada", "bob", "cy"]
    assert [str(p) for p in problems] == [
        f"{path}:4: duplicate id 'ada' (first on line 2); line skipped"
    ]


def test_empty_roster(tmp_path):
    with pytest.raises(UserError, match="roster.csv: the roster is empty"):
        read_roster(write_roster(tmp_path, b""))
    with pytest.raises(UserError, match="header but no students"):
        read_roster(write_roster(tmp_path, b"id,name,email\n\n"))


def test_non_utf8_roster_names_the_line(tmp_path):
    path = write_roster(tmp_path, "id,name,email\nada,Ada,a@x\nzoe,Zoë,z@x\n".encode("latin-1"))
    with pytest.raises(UserError, match=r"roster.csv:3: the roster is not UTF-8 text \(byte 0xeb\)"):
        read_roster(path)


def test_bad_ids_are_skipped_with_their_line(tmp_path):
    path = write_roster(tmp_path, b"ID , Name,Email,section\n../x,Evil,e@x,1\n,NoId,n@x,1\nok-1,Fine,f@x,2\n")
    students, problems = read_roster(path)
    assert [s.id for s in students] == ["ok-1"]
    assert [p.line for p in problems] == [2, 3]


def test_utf8_with_byte_order_mark_is_accepted(tmp_path):
    path = write_roster(tmp_path, "id,name,email\nzoe,Zoë,z@x\n".encode("utf-8-sig"))
    students, _ = read_roster(path)
    assert students[0].name == "Zoë"
