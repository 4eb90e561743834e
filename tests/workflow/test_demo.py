"""solitaire demo end to end in the sandbox: 4 students by default, the full class of 12 marked slow."""

from __future__ import annotations

import csv
import json

import git
import pytest
from rich.console import Console

from grader.course.demo import run_demo
from solitaire import cli


def grades(path):
    with (path / "grades.csv").open(encoding="utf-8") as handle:
        return {row["id"]: row for row in csv.DictReader(handle)}


def test_small_demo_end_to_end_in_the_sandbox(tmp_path):
    """``solitaire demo --students 5``: reference, late, never pushes, a bug, a cheat; the real grader."""
    console = Console(file=open(tmp_path / "out.txt", "w"), width=120)  # noqa: SIM115 - closed below
    try:
        course = run_demo(tmp_path / "demo", students=5, jobs=2, grader="sandbox", console=console)
    finally:
        console.file.close()
    rows = grades(course)
    assert [rows[s]["status"] for s in ("s01", "s02", "s03", "s04", "s05")] == [
        "ok", "late", "not-submitted", "ok", "ok"]
    assert rows["s01"]["percent"] == "100"
    assert float(rows["s02"]["late_penalty"]) == pytest.approx(0.2 * float(rows["s02"]["raw_score"]))
    assert float(rows["s02"]["raw_score"]) == float(rows["s02"]["max_score"])
    assert rows["s03"]["feedback"] == "" and rows["s03"]["score"] == "0"
    assert 0 < float(rows["s04"]["score"]) < float(rows["s04"]["max_score"])  # one flipped comparison
    assert (course / "feedback" / "s01" / "feedback.md").is_file()
    printed = (tmp_path / "out.txt").read_text()
    assert "Gradebook of demo/solitaire" in printed
    assert str(course / "feedback" / "s01" / "feedback.md") in printed
    assert f"(nbgrader export, formgrader): run them in {course / 'nbgrader'}" in printed
    results = json.loads((course / "feedback" / "s02" / "results.json").read_text(encoding="utf-8"))
    assert results["final_score"] == float(rows["s02"]["score"]) < results["raw_score"]  # late: -20 %
    assert f"class report: {course / 'report' / 'class-report.html'}" in printed
    assert (course / "report" / "class-report.html").is_file()
    assert rows["s05"]["score"] == "0"  # the cheat: its attack ran (see test_cheat.py) and got nothing
    # the late student's feedback says the grade recorded, not the points before the penalty
    late = (course / "feedback" / "s02" / "feedback.md").read_text(encoding="utf-8")
    final = f"Final grade: {float(rows['s02']['score']):g} / {float(rows['s02']['max_score']):g}"
    assert final in late and final in (course / "feedback" / "s02" / "feedback.html").read_text().replace(
        '</dt><dd class="final">', ": ")
    page = course / "feedback" / "s04" / "feedback.html"  # the buggy student's
    assert f"one student's feedback page (open it in a browser): {page}" in printed
    assert {row["grading_status"] for s, row in rows.items() if s != "s03"} == {"ok"}
    (line,) = [line for line in printed.splitlines() if line.startswith("cheat s05 tried to")]
    assert "forge results.json" in line and "hidden traces" in line and "os._exit(0)" in line
    assert ": stopped, scored 0 / " in line and "(exit status 0)" in line
    # step 8, course return: the feedback branch of s01, shown as git shows it; main untouched
    assert "8. course return" in printed and "s03: no-feedback" in printed
    bare = git.Repo(course / "remotes" / "s01.git")
    assert bare.commit("feedback").tree["feedback.md"].data_stream.read() == (
        course / "feedback" / "s01" / "feedback.md").read_bytes()
    assert bare.commit("main").hexsha.startswith(rows["s01"]["sha"])
    assert f"git --git-dir={course / 'remotes' / 's01.git'} log --oneline feedback" in printed


def test_demo_refuses_a_directory_in_use(tmp_path, capsys):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "file.txt").write_text("mine")
    assert cli.main(["demo", "--dir", str(tmp_path / "busy"), "--grader", "static"]) == 2
    assert "needs a new or empty directory" in capsys.readouterr().err


@pytest.mark.slow
def test_full_demo_in_the_sandbox(tmp_path):
    """The README's command: 12 students, the real grader; every scenario ends where it should."""
    from grader.course.demo import SCENARIOS

    console = Console(file=open(tmp_path / "out.txt", "w"), width=100)  # noqa: SIM115 - closed below
    try:
        course = run_demo(tmp_path / "demo", students=12, jobs=2, grader="sandbox", console=console)
    finally:
        console.file.close()
    rows = grades(course)
    by_scenario: dict[str, list[dict]] = {}
    for index, scenario in enumerate(SCENARIOS):
        by_scenario.setdefault(scenario, []).append(rows[f"s{index + 1:02d}"])
    for row in by_scenario["reference"]:
        assert row["status"] == "ok" and row["percent"] == "100"
    (late,) = by_scenario["late"]
    assert late["status"] == "late" and late["days_late"] == "2"
    assert float(late["score"]) == pytest.approx(0.8 * float(late["max_score"]))
    assert by_scenario["never"][0]["status"] == "not-submitted"
    assert by_scenario["wrong-branch"][0]["status"] == "wrong-branch"
    for scenario in ("cheat", "starter"):
        assert by_scenario[scenario][0]["score"] == "0", scenario
    for scenario in ("bug-tableau", "bug-foundation", "bug-won", "partial"):
        row = by_scenario[scenario][0]
        assert 0 <= float(row["score"]) < float(row["max_score"]), scenario


def test_a_large_demo_class_is_late_only_where_its_scenario_says_so():
    """Pushes are spaced within each round of the scenarios: a class of 200 is not pushed past the
    deadline by the spacing alone (it once made 108 of 200 late)."""
    from grader.course import demo

    plans = [demo.plan_student(f"s{i}", i, demo.SCENARIOS[i % len(demo.SCENARIOS)], "scorpion")
             for i in range(200)]
    late = {p.student for p in plans if p.when > demo.DEADLINE}
    assert late == {p.student for p in plans if p.scenario == "late"}
