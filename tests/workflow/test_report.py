"""solitaire course report: the class report's figures against the results store; the grade CSVs.

One small course (two variations, six students) is graded with the static
grader, then graded again by a stricter grader version, so that the report has
late, not-submitted and regraded students to show. The figures the report
prints are recomputed here from the results store and collected.csv, not from
the report's own code.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import shutil
import sqlite3
import statistics
import sys
from dataclasses import replace
from html.parser import HTMLParser

import pytest
import strict_grader
from workflow_support import at, notes, published, push, variation_of

from grader.course import class_report, class_stats, collect, config, export, lms, simulate
from grader.course.class_data import Grading, StoreReader, StudentData, class_data
from grader.course.grade_class import grade_class
from grader.course.graders import STATIC_VERSION
from grader.course.points import category_points
from grader.course.results import Key, Result, ResultStore
from solitaire import cli
from solitaire.variation import RULE_METHODS

STUDENTS = ["ada", "bob", "cy", "dee", "eve", "fay"]
VARIATIONS = ("bismarck", "scorpion")


def partial_edit(course, student, keep):
    variation = variation_of(course, student)
    text, _ = simulate.partial(variation, keep)
    return simulate.write_rules(variation, text)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """ada, eve: reference; bob: 2 methods, 30 h late; cy: never pushes; dee: starter; fay: 3 methods.
    Graded by the static grader, then by ``strict_grader`` (a new grader version); then reported."""
    course = published(tmp_path_factory.mktemp("report") / "course", STUDENTS, variations=VARIATIONS)
    push(course, "ada", at(-2))
    push(course, "bob", at(30), partial_edit(course, "bob", 2))
    push(course, "dee", at(-1), notes("later"))
    push(course, "eve", at(-3))
    push(course, "fay", at(-4), partial_edit(course, "fay", 3))
    collect.collect(course, clock=lambda: at(48))
    assert not grade_class(course, jobs=2, grader="static").failed
    assert not grade_class(course, jobs=2, grader="strict_grader:grade").failed
    return course


@pytest.fixture(scope="module")
def reported(course):
    """(exit status, stdout, the page) of ``solitaire course report DIR``."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli.main(["course", "report", str(course.directory)])
    page = class_report.default_path(course).read_text(encoding="utf-8")
    return status, out.getvalue(), page


def _squeeze(text: str) -> str:
    """Runs of ASCII white space as one space (a no-break space is part of the text)."""
    return re.sub(r"[ \t\r\n]+", " ", text).strip()


class Page(HTMLParser):
    """The tables of a page by caption (rows of cell texts), every attribute, the tags seen."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.attributes: list[tuple[str, str, str]] = []
        self.tags: list[str] = []
        self._caption: list[str] | None = None
        self._rows: list[list[str]] = []
        self._cell: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += [(tag, name, value or "") for name, value in attrs]
        if tag == "table":
            self._rows = []
        elif tag == "caption":
            self._caption = []
        elif tag == "tr":
            self._rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._rows[-1].append(_squeeze("".join(self._cell)))
            self._cell = None
        elif tag == "caption" and self._caption is not None:
            self.caption = _squeeze("".join(self._caption))
            self._caption = None
        elif tag == "table":
            self.tables[self.caption] = self._rows

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._caption is not None:
            self._caption.append(data)

    def table(self, starts: str) -> list[list[str]]:
        (caption,) = [c for c in self.tables if c.startswith(starts)]
        return self.tables[caption]


def stored(course) -> dict[str, tuple[str, float, float, Result]]:
    """Graded student -> (variation, final percent, penalty percent, the strict grader's stored result)."""
    found = {}
    with ResultStore(course.results_path) as store:
        for row in collect.read_collected(course):
            if row.gradable:
                result = store.get(Key(row.student, course.assignment, row.sha, strict_grader.VERSION))
                final = result.score - round(result.score * row.penalty_percent / 100, 4)
                percent = 100 * final / result.max_score
                found[row.student] = (row.variation, percent, row.penalty_percent, result)
    return found


def test_the_report_is_written_where_it_says(course, reported):
    status, printed, page = reported
    path = class_report.default_path(course)
    assert status == 0  # cy did not submit: reported, nobody needs attention
    assert f"class report: {path}" in printed
    assert path == course.directory / "report" / "class-report.html"
    assert "5 of 6 students graded" in printed and "grade change(s) on a regrade" in printed
    assert page.startswith("<!DOCTYPE html>") and '<html lang="en">' in page


def test_per_variation_means_match_the_store(course, reported):
    page = Page(reported[2])
    finals = stored(course)
    rows = {row[0].split(" (")[0]: row for row in page.table("Final scores per variation")[1:]}
    for variation in VARIATIONS:
        percents = [p for v, p, _, _ in finals.values() if v == variation]
        assert rows[variation][1] == str(len(percents))
        assert rows[variation][2] == f"{statistics.fmean(percents):.1f}\xa0%"
    everyone = [p for _, p, _, _ in finals.values()]
    assert rows["whole class"][2] == f"{statistics.fmean(everyone):.1f}\xa0%"
    bob_variation, bob_percent, penalty, bob = finals["bob"]
    assert penalty == 20 and bob_percent == pytest.approx(0.8 * 100 * bob.score / bob.max_score)


def test_rule_pass_rates_match_the_store(course, reported):
    rows = {row[0]: row[1:] for row in Page(reported[2]).table("Pass rate per rule method")[1:]}
    expected: dict[str, list[int]] = {}
    for _, _, _, result in stored(course).values():
        for test in result.results["tests"]:
            counts = expected.setdefault(test["name"], [0, 0])
            counts[0] += 1
            counts[1] += test["score"] >= test["max_score"] > 0
    assert set(rows) == set(expected)
    for method, (submissions, passed) in expected.items():
        assert rows[method] == [str(submissions), str(passed), f"{round(100 * passed / submissions)}\xa0%"]
    assert rows["deal"][1] == "0"  # the strict grader takes the first method from everyone
    rates = [int(r[2].split("\xa0")[0]) for r in rows.values()]
    assert rates == sorted(rates)  # hardest first


def test_late_and_not_graded_students_are_counted(reported):
    page = Page(reported[2])
    statuses = dict(page.table("Students per status")[1:])
    assert statuses == {"ok": "4", "late": "1", "not-submitted": "1"}
    (late,) = page.table("Late submissions")[1:]
    assert late[0] == "bob" and late[2] == "2"
    (missing,) = page.table("Students with nothing graded")[1:]
    assert missing[0] == "cy" and missing[1] in VARIATIONS and missing[2] == "not-submitted"
    assert re.search(r"late<strong>1</strong>", reported[2])


def test_regraded_students_are_listed_with_both_final_scores(course, reported):
    changes = {row[0]: row for row in Page(reported[2]).table("Changes of a student")[1:]}
    expected = {}
    with ResultStore(course.results_path) as store:
        for row in collect.read_collected(course):
            if row.gradable:
                before, after = (store.get(Key(row.student, course.assignment, row.sha, version)).score
                                 for version in (STATIC_VERSION, strict_grader.VERSION))
                if before != after:
                    factor = 1 - row.penalty_percent / 100
                    expected[row.student] = (f"{before * factor:g}", f"{after * factor:g}")
    assert expected and set(changes) == set(expected)  # dee's starter scored 0 both times
    for student, (before, after) in expected.items():
        assert changes[student][2:4] == [before, after]
        assert STATIC_VERSION in changes[student][4] and strict_grader.VERSION in changes[student][5]


def test_the_slowest_gradings_come_from_the_store(course, reported):
    rows = Page(reported[2]).table("The 5 submissions whose grading took longest")[1:]
    seconds = {student: result.seconds for student, (_, _, _, result) in stored(course).items()}
    assert [row[0] for row in rows] == sorted(seconds, key=lambda s: (-seconds[s], s))
    assert [row[2] for row in rows] == [f"{seconds[row[0]]:.1f}" for row in rows]


def test_plots_are_inline_svg_with_captions_and_nothing_is_fetched(reported):
    text = reported[2]
    page = Page(text)
    assert text.count("<svg ") == 4  # distribution, variations, methods, rulings
    for svg in re.findall(r"<figure>\s*(<svg .*?</svg>)\s*<figcaption>", text, flags=re.S):
        assert 'role="img"' in svg and "<title id=" in svg
    assert len(re.findall(r"<figure>\s*<svg ", text)) == 4
    assert not re.search(r"https?://", text)  # not a link, not a namespace, not a font
    for tag, name, value in page.attributes:
        if name in ("src", "href", "xlink:href", "srcset", "action", "data", "poster"):
            assert value.startswith("#"), (tag, name, value)  # only places in this page
    assert not {"script", "link", "img", "iframe", "object", "embed"} & set(page.tags)
    assert "@import" not in text and "@font-face" not in text
    headers = [a for a in page.attributes if a[0] == "th" and a[1] == "scope"]
    assert headers and {"h1", "h2", "nav", "main", "caption", "figcaption"} <= set(page.tags)
    assert "@media print" in text


def test_the_page_is_the_same_each_time(course, reported, tmp_path):
    again = class_report.write_report(course, tmp_path)
    assert again.path == tmp_path / "class-report.html"
    assert again.path.read_text(encoding="utf-8") == reported[2]  # seeded bootstrap, no dates in the SVG


def test_grades_csv_gains_a_points_column_per_rule_method(course, reported):
    with course.grades_path.open(encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header, rows = list(reader.fieldnames or []), {row["id"]: row for row in reader}
    methods = [m for m in RULE_METHODS if any(m in category_points(v) for v in VARIATIONS)]
    assert header == [*export.GRADES_COLUMNS, *(f"points_{m}" for m in methods)]
    for student, (variation, _, _, result) in stored(course).items():
        own = category_points(variation)
        cells = {m: rows[student][f"points_{m}"] for m in methods}
        assert all((cells[m] == "") == (m not in own) for m in methods), (student, cells)
        assert sum(float(cells[m]) for m in own) == pytest.approx(float(rows[student]["raw_score"]))
        assert sum(float(cells[m]) for m in own) == pytest.approx(result.score)
    assert all(rows["cy"][f"points_{m}"] == "" for m in methods)


def test_canvas_and_moodle_files(course, reported):
    canvas_path, moodle_path = lms.paths(course)
    assert canvas_path == course.directory / "export" / "canvas.csv"
    with canvas_path.open(encoding="utf-8") as handle:
        canvas = list(csv.reader(handle))
    with moodle_path.open(encoding="utf-8") as handle:
        moodle = list(csv.reader(handle))
    with course.grades_path.open(encoding="utf-8") as handle:
        grades = {row["id"]: row for row in csv.DictReader(handle)}
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", course.assignment]
    assert canvas[1] == ["Points Possible", "", "", "", "", "100"]
    assert moodle[0] == ["ID number", "Email address", "Full name", course.assignment]
    by_sis = {row[2]: row for row in canvas[2:]}
    by_email = {row[1]: row for row in moodle[1:]}
    assert sorted(by_sis) == sorted(STUDENTS)
    for student in STUDENTS:
        grade = grades[student]["percent"]
        assert by_sis[student][3] == f"{student}@students.example" and by_sis[student][5] == grade
        assert by_email[f"{student}@students.example"][3] == grade
    assert grades["bob"]["percent"] == f"{stored(course)['bob'][1]:g}"  # late penalty included
    assert by_sis["cy"][5] == "0"  # did not submit: a 0, as in grades.csv


def test_canvas_takes_optional_roster_columns(course, reported, tmp_path):
    shutil.copytree(course.directory, tmp_path / "copy", ignore=shutil.ignore_patterns("remotes", ".work"))
    copy = config.load(tmp_path / "copy")
    copy.roster_path.write_text("id,name,email,sis_user_id,section,idnumber\n"
                                + "".join(f"{s},{s.title()},{s}@students.example,U-{s},Lab 2,N-{s}\n"
                                          for s in STUDENTS), encoding="utf-8")
    rows = export.grade_rows(course)
    lms.write_lms_csvs(copy, rows, blank=("not-graded",))
    canvas, moodle = (list(csv.reader(path.open(encoding="utf-8"))) for path in lms.paths(copy))
    ada = next(row for row in canvas if row[2] == "U-ada")
    assert ada[3] == "ada@students.example" and ada[4] == "Lab 2"
    assert ["N-ada", "ada@students.example", "Ada Tester"] == next(r for r in moodle if r[0] == "N-ada")[:3]
    blank = [row if row.student != "dee" else replace(row, status="not-graded") for row in rows]
    lms.write_lms_csvs(copy, blank, blank=("not-graded",))
    canvas = list(csv.reader(lms.paths(copy)[0].open(encoding="utf-8")))
    assert next(row for row in canvas if row[2] == "U-dee")[5] == ""  # not graded yet: no change imported


def test_without_matplotlib_the_command_says_how_to_install_it(course, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    before = class_report.default_path(course).stat().st_mtime_ns
    assert cli.main(["course", "report", str(course.directory)]) == 2
    err = capsys.readouterr().err
    assert "pip install 'solitaire-lab[report]'" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert class_report.default_path(course).stat().st_mtime_ns == before  # nothing written


def test_an_unwritable_out_is_one_line(course, reported, tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert cli.main(["course", "report", str(course.directory), "--out", str(blocker / "r.html")]) == 2
    err = capsys.readouterr().err
    assert "cannot write the report" in err and "Traceback" not in err


# -- the store's history: unit level -------------------------------------------------------

OLD_SCHEMA = """
CREATE TABLE results (student TEXT, assignment TEXT, sha TEXT, grader_version TEXT, variation TEXT,
    score REAL, max_score REAL, categories TEXT, results_json TEXT, feedback_path TEXT, graded_at TEXT,
    run_id TEXT, seconds REAL, PRIMARY KEY (student, assignment, sha, grader_version));
CREATE TABLE gradings (number INTEGER PRIMARY KEY AUTOINCREMENT, student TEXT, assignment TEXT, sha TEXT,
    grader_version TEXT, run_id TEXT, graded_at TEXT);
"""


def grade_row(**fields: object) -> export.GradeRow:
    base = dict(student="ann", name="Ann", email="ann@x.example", variation="bismarck", sha="abc",
                received_at="", max_score=100.0, feedback="", reason="")
    return export.GradeRow(**(base | fields))  # type: ignore[arg-type]


def _result(score: float, run: str, at_time: str, version: str = "v1") -> Result:
    return Result(Key("ann", "hw", "abc", version), "bismarck", score, 100.0, {"deal": (score, 100.0)},
                  {"tests": []}, "", at_time, run, 2.5)


def test_an_old_store_reads_and_then_keeps_every_grading_score(tmp_path):
    path = tmp_path / "results.db"
    with sqlite3.connect(path) as connection:  # a store written before the log kept scores
        connection.executescript(OLD_SCHEMA)
        old = _result(60.0, "run1", "2030-01-01T00:00:00+00:00")
        connection.execute("INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           ("ann", "hw", "abc", "v1", "bismarck", 60.0, 100.0, '{"deal": [60, 100]}',
                            '{"tests": []}', "", old.graded_at, "run1", 2.5))
        connection.execute("INSERT INTO gradings (student, assignment, sha, grader_version, run_id, "
                           "graded_at) VALUES ('ann', 'hw', 'abc', 'v1', 'run1', ?)", (old.graded_at,))
    connection.close()
    with StoreReader(path) as reader:  # read-only: no migration, the score comes from the result row
        assert [g.score for g in reader.gradings("ann", "hw", "abc")] == [None]
    with sqlite3.connect(path) as connection:
        assert "score" not in {row[1] for row in connection.execute("PRAGMA table_info(gradings)")}
    connection.close()

    with ResultStore(path) as store:  # opening for writing migrates, then a regrade logs its score
        assert store.get(Key("ann", "hw", "abc", "v1")).score == 60.0
        store.put(_result(75.0, "run2", "2030-01-02T00:00:00+00:00"))
    with StoreReader(path) as reader:
        assert [(g.run_id, g.score) for g in reader.gradings("ann", "hw", "abc")] == [("run1", None),
                                                                                      ("run2", 75.0)]


def test_a_regrade_under_the_same_version_is_a_change(tmp_path):
    with ResultStore(tmp_path / "results.db") as store:
        store.put(_result(60.0, "run1", "2030-01-01T00:00:00+00:00"))
        store.put(_result(60.0, "run2", "2030-01-02T00:00:00+00:00"))  # same score: no change
        store.put(_result(90.0, "run3", "2030-01-03T00:00:00+00:00"))  # replaces the row; the log keeps all
    with StoreReader(tmp_path / "results.db") as reader:
        history = tuple(reader.gradings("ann", "hw", "abc"))
        (result,) = reader.results("ann", "hw", "abc")
    assert result.score == 90.0 and [g.score for g in history] == [60.0, 60.0, 90.0]
    row = grade_row(status="late", days_late=1, raw_score=90.0, late_penalty=9.0)
    student = StudentData(row, result, history, True, penalty_percent=10.0)
    (change,) = class_stats.grade_changes([student])
    assert (change.before, change.after) == (54.0, 81.0)  # final scores: the 10 % late penalty applied
    assert change.before_at.startswith("2030-01-02") and change.after_at.startswith("2030-01-03")


def test_class_data_uses_the_stored_result_with_the_gradebook_score(course):
    rows = export.grade_rows(course)
    students = {s.row.student: s for s in class_data(course, rows)}
    for student in stored(course):
        assert students[student].result.key.grader_version == strict_grader.VERSION
        assert students[student].matches_gradebook
        assert [g.grader_version for g in students[student].history] == [STATIC_VERSION,
                                                                          strict_grader.VERSION]
    assert students["cy"].result is None and students["cy"].percent is None


# -- the statistics ----------------------------------------------------------------------------


def test_the_bootstrap_is_seeded_and_brackets_the_mean():
    groups = {"a": [10.0, 50.0, 90.0, 70.0], "b": [100.0], "c": [40.0, 60.0]}
    whole, stats = class_stats.variation_stats(groups)
    again = class_stats.variation_stats(groups)
    assert (whole, stats) == again
    by_name = {s.name: s for s in stats}
    a = by_name["a"]
    assert a.interval.low <= a.mean <= a.interval.high and a.interval.high - a.interval.low > 10
    assert by_name["b"].interval is None and by_name["b"].difference_interval is None  # one student
    assert whole.mean == pytest.approx(statistics.fmean([10, 50, 90, 70, 100, 40, 60]))
    assert a.difference == pytest.approx(a.mean - whole.mean)
    assert a.difference_interval.low <= a.difference <= a.difference_interval.high
    assert all(s.small for s in stats)
    assert class_stats.variation_stats(groups, seed=class_stats.SEED + 1) != (whole, stats)  # seeded draws


def test_a_class_nobody_graded_has_no_figures():
    assert class_stats.variation_stats({}) == (None, [])
    assert class_stats.rule_rates([]) == ([], [])


def test_history_without_scores_is_not_a_change():
    row = grade_row(status="ok", days_late=0, raw_score=50.0, late_penalty=0.0)
    history = (Grading(1, "v1", "r1", "t1", None, None), Grading(2, "v2", "r2", "t2", 50.0, 1.0))
    assert class_stats.grade_changes([StudentData(row, None, history)]) == []


def test_report_help_names_the_extra(capsys):
    with pytest.raises(SystemExit):
        cli.main(["course", "report", "--help"])
    assert "solitaire-lab[report]" in capsys.readouterr().out


def test_a_plug_in_grader_s_tests_count_by_name_and_points():
    """Tests without tags or status (plug-in, static grader): method from the name, passed = full points."""
    row = grade_row(status="ok", days_late=0, raw_score=10.0, late_penalty=0.0)
    tests = [{"name": "deal", "score": 10, "max_score": 10},
             {"name": "is_won: wins the game", "score": 0, "max_score": 10, "tags": "not a list"},
             "not a test"]
    result = Result(Key("ann", "hw", "abc", "plug-1"), "bismarck", 10.0, 20.0, {}, {"tests": tests}, "",
                    "2030-01-01T00:00:00+00:00", "run1", 1.0)
    methods, rulings = class_stats.rule_rates([StudentData(row, result)])
    assert {(m.method, m.submissions, m.passed) for m in methods} == {("deal", 1, 1), ("is_won", 1, 0)}
    assert [(r.method, r.ruling, r.rate) for r in rulings] == [("is_won", "", 0.0), ("deal", "", 1.0)]


def test_the_result_behind_a_grade_is_found_under_changed_points():
    """``[points.*]`` changed after grading: the gradebook holds the new points, the stored score the old."""
    from grader.course.class_data import _behind

    half = Result(Key("ann", "hw", "abc", "v1"), "bismarck", 10.0, 20.0, {"deal": (1.0, 2.0)},
                  {"tests": []}, "", "2030-01-01T00:00:00+00:00", "run1", 1.0)
    full = replace(half, key=Key("ann", "hw", "abc", "v2"), score=20.0, categories={"deal": (2.0, 2.0)},
                   graded_at="2030-01-02T00:00:00+00:00")
    history = (Grading(1, "v1", "run1", half.graded_at, 10.0, 1.0), Grading(2, "v2", "run1", full.graded_at,
                                                                             20.0, 1.0))
    assert _behind(20.0, [half, full], history, {"deal": 40.0}) == (half, True)  # 1/2 of 40 points
    assert _behind(40.0, [half, full], history, {"deal": 40.0}) == (full, True)
    assert _behind(33.0, [half, full], history, {"deal": 40.0}) == (full, False)  # none: the latest


def test_a_class_with_nothing_graded_still_gets_a_page():
    rows = [grade_row(student=s, status="not-collected", days_late=0, raw_score=None, late_penalty=0.0,
                      reason="not collected yet") for s in ("ann", "ben")]
    context, report = class_report.page_context("c", "a", "2030-01-01T00:00:00+00:00",
                                                [StudentData(row, None) for row in rows])
    page = class_report.render(context)
    assert report.whole is None and "<svg" not in page
    assert "Nobody is graded yet" in page and page.count("not collected yet") == 2
    assert dict(Page(page).table("Students per status")[1:]) == {"not-collected": "2"}


def test_a_damaged_store_reads_as_empty_with_the_reason(tmp_path):
    path = tmp_path / "results.db"
    path.write_bytes(b"this is not SQLite" * 100)
    with StoreReader(path) as reader:
        assert reader.results("ann", "hw", "abc") == [] and reader.gradings("ann", "hw", "abc") == []
        assert "not readable as a results store" in reader.problem


def test_a_variation_apart_from_the_class_is_named():
    groups = {"easy": [95.0, 98.0, 100.0, 97.0, 99.0, 96.0], "hard": [40.0, 45.0, 50.0, 42.0, 48.0, 44.0],
              "mid": [70.0, 75.0, 72.0, 68.0, 74.0, 71.0]}
    _, stats = class_stats.variation_stats(groups)
    assert {s.name for s in stats if s.apart} == {"easy", "hard"}
    rows = [grade_row(student=f"{v}{i}", variation=v, status="ok", days_late=0, raw_score=score,
                      late_penalty=0.0) for v, scores in groups.items() for i, score in enumerate(scores)]
    context, _ = class_report.page_context("c", "a", "d", [StudentData(r, None) for r in rows])
    page = class_report.render(context)
    assert "leaves out 0 for\neasy (+" in page and "hard (-" in page


def test_a_rules_file_that_could_not_be_used_is_named_with_its_grading_status():
    rows = [grade_row(student="ann", status="ok", grading_status="syntax-error", days_late=0, raw_score=0.0,
                      late_penalty=0.0),
            grade_row(student="ben", status="ok", grading_status="ok", days_late=0, raw_score=80.0,
                      late_penalty=0.0)]
    page = Page(class_report.render(class_report.page_context("c", "a", "d",
                                                              [StudentData(r, None) for r in rows])[0]))
    assert page.table("Graded submissions whose rules file could not be used")[1:] == [
        ["ann", "bismarck", "syntax-error", "0 / 100"]]
    grades = {row[0]: row for row in page.table("Final grades")[1:]}
    assert grades["ann"][4] == "syntax-error" and grades["ben"][4] == "ok"
