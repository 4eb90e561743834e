"""The class report opened in headless Chromium: every plot drawn, no console error, nothing fetched, prints.

The class is made up here (twelve students over three variations: a late one,
one who never submitted, one regraded to a different score) so that the test
needs no grading run; the figures of a graded course are checked against the
results store in tests/workflow/test_report.py. The browser is driven by
``tests/browser/chromium.py``; without it (or without Chromium) the test is skipped.

``SOLITAIRE_SCREENSHOTS=1`` also writes docs/images/class-report.png, shown in
docs/instructor-guide.md.
"""

from __future__ import annotations

import os
import re
import struct
from pathlib import Path

import pytest

from grader.course import class_report, export
from grader.course.class_data import Grading, StudentData
from grader.course.results import Key, Result

chromium = pytest.importorskip("chromium", reason="the Chromium helper tests/browser/chromium.py is absent")
pytestmark = pytest.mark.skipif(not chromium.available(), reason=chromium.SKIP_REASON)
DOCS_SHOT = Path(__file__).resolve().parents[2] / "docs" / "images" / "class-report.png"

METHODS = ("deal", "can_pick_up", "tableau_accepts", "is_won")
RULINGS = ("R1", "R2", "play")
CHECKS = {
    "plots": "document.querySelectorAll('figure > svg.plot').length",
    "undrawn": "[...document.querySelectorAll('svg.plot')].filter(s => { const r = s.getBoundingClientRect();"
               " return r.width < 200 || r.height < 80; }).length",
    "unnamed": "[...document.querySelectorAll('svg.plot')].filter(s => { const t ="
               " document.getElementById(s.getAttribute('aria-labelledby'));"
               " return s.getAttribute('role') !== 'img' || !t || !t.textContent.trim(); }).length",
    "uncaptioned": "[...document.querySelectorAll('figure')]"
                   ".filter(f => !f.querySelector('figcaption')).length",
    "marks": "[...document.querySelectorAll('svg.plot')].map(s => s.querySelectorAll('path, use').length)",
    "duplicate_ids": "(() => { const ids = [...document.querySelectorAll('[id]')].map(e => e.id);"
                     " return ids.length - new Set(ids).size; })()",
    "headings": "[...document.querySelectorAll('h1, h2')].map(h => h.tagName + ' ' + h.textContent.trim())",
    "row_headers": "document.querySelectorAll('tbody th[scope=row]').length",
    "too_wide": "document.documentElement.scrollWidth > document.documentElement.clientWidth",
}


def made_up_class() -> list[StudentData]:
    students = []
    for index in range(12):
        variation = ("bismarck", "scorpion", "indian")[index % 3]
        student = f"s{index + 1:02d}"
        status = "not-submitted" if index == 2 else ("late" if index == 1 else "ok")
        tests = [{"name": f"{m} · {r}: what ruling {r} says", "tags": [m, r], "score": 5.0, "max_score": 5.0,
                  "status": "passed" if (index * 7 + i * 3) % 5 else "failed"}
                 for i, (m, r) in enumerate((m, r) for m in METHODS for r in RULINGS)]
        raw = sum(t["score"] for t in tests if t["status"] == "passed") * 100 / 60
        penalty = round(raw * 0.2, 4) if status == "late" else 0.0
        missing = status == "not-submitted"
        row = export.GradeRow(student=student, name=f"Student {index + 1}", email=f"{student}@x.example",
                              variation=variation, status=status, sha="abc",
                              received_at="2030-06-14T20:00:00", days_late=2 if status == "late" else 0,
                              raw_score=None if missing else raw, late_penalty=penalty,
                              max_score=100.0, feedback="", reason="no push" if missing else "")
        if missing:
            students.append(StudentData(row, None))
            continue
        result = Result(Key(student, "solitaire", "abc", "sandbox-1"), variation, raw, 100.0, {},
                        {"tests": tests}, "", "2030-06-15T10:00:00+00:00", "run1", 3.0 + index)
        history = (Grading(2, "sandbox-1", "run1", result.graded_at, raw, result.seconds),)
        if index == 4:  # graded before by an older grader, 10 points lower
            history = (Grading(1, "sandbox-0", "run0", "2030-06-15T09:00:00+00:00", raw - 10, 2.0), *history)
        students.append(StudentData(row, result, history, True, 20.0 if status == "late" else 0.0))
    return students


def test_the_class_report_renders_in_chromium(tmp_path):
    context, report = class_report.page_context("demo", "solitaire", "2030-06-14T23:59:00+02:00",
                                                made_up_class())
    page_path = tmp_path / "class-report.html"
    class_report.write_text(page_path, class_report.render(context))
    assert len(report.changes) == 1 and report.whole is not None

    page = chromium.render(page_path, width=1200, evaluate=CHECKS, pdf=True)
    values = page.values
    assert page.console_errors == [] and page.requests == []  # nothing fetched, not even a font
    assert values["plots"] == 4 and values["undrawn"] == 0 and values["unnamed"] == 0
    assert values["uncaptioned"] == 0 and all(count > 10 for count in values["marks"])
    assert values["duplicate_ids"] == 0  # four SVGs in one page, each with its own ids
    assert values["headings"][0] == "H1 Class report: demo / solitaire"
    assert {"H2 Variations compared", "H2 What the class found hard"} <= set(values["headings"])
    assert values["row_headers"] >= 12 and values["too_wide"] is False
    assert page.screenshot.startswith(b"\x89PNG") and struct.unpack(">I", page.screenshot[16:20])[0] == 1200
    assert page.pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", page.pdf)) >= 2  # pages
    if os.environ.get("SOLITAIRE_SCREENSHOTS") == "1":
        DOCS_SHOT.parent.mkdir(parents=True, exist_ok=True)
        DOCS_SHOT.write_bytes(chromium.render(page_path, width=1000, max_height=2400).screenshot)
