"""The browser helper sees what it must report: console errors, exceptions, requests (to a local
port where nothing listens: no network is used).

Without this, "no console error and no request" in the page tests could hold because the helper saw
nothing at all.
"""

from __future__ import annotations

import pytest
from chromium import SKIP_REASON, available, render

pytestmark = pytest.mark.skipif(not available(), reason=SKIP_REASON)

BAD_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bad</title>
<link rel="stylesheet" href="http://127.0.0.1:9/a.css"></head>
<body><h1 id="t">bad page</h1><img src="http://127.0.0.1:9/x.png" alt="x">
<script>console.error("oops from the page"); throw new Error("boom");</script></body></html>
"""


def test_console_errors_exceptions_and_requests_are_reported(tmp_path):
    page_file = tmp_path / "bad.html"
    page_file.write_text(BAD_PAGE, encoding="utf-8")
    page = render(page_file, evaluate={"title": "document.getElementById('t').textContent"})
    assert page.values == {"title": "bad page"}
    assert "oops from the page" in page.console_errors
    assert any("Error: boom" in error for error in page.console_errors)
    assert sorted(page.requests) == ["http://127.0.0.1:9/a.css", "http://127.0.0.1:9/x.png"]
    assert '<h1 id="t">bad page</h1>' in page.dom
    assert page.screenshot.startswith(b"\x89PNG")


def test_a_quiet_page_reports_nothing(tmp_path):
    page_file = tmp_path / "ok.html"
    page_file.write_text("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>ok</title></head>"
                         "<body><p>fine</p></body></html>", encoding="utf-8")
    page = render(page_file, pdf=True)
    assert page.console_errors == [] and page.requests == [] and page.pdf.startswith(b"%PDF")
