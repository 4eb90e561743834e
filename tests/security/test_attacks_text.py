"""Hostile text graded end to end: the grader survives it and writes nothing raw of it.

The attacks (tests/security/attacks/) put lone surrogates, a fake full-marks
total, HTML and script tags, ``javascript:`` links, terminal escape codes, NUL
and right-to-left overrides into exception messages, answers and output. Each
is graded with the real hidden suite (``grader.grade.grade_submission`` on a
two-trace subset) and two through the ``solitaire grade`` command.

What must hold now (the sandbox boundary, grader/sandbox/channel.py, sanitises
every string a worker sends): grading ends normally; ``results.json``, a
non-empty ``feedback.md``, ``feedback.html`` and ``feedback.json`` are
written; all are strict UTF-8 and hold no control, bidi or invalid character;
the score is 0.

And, the feedback quoting student text with ``grader.sanitize.markdown`` and
``code`` (grader/feedback.py): nothing the student wrote renders as markup: no
HTML tag, no link, no heading, table row or bold total of its own; in
feedback.html (jinja2 autoescape) no element, attribute or link its template
does not write.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from security_support import REPO, compose, unsafe_characters

grade = pytest.importorskip("grader.grade")

TEXT_ATTACKS = ("surrogate_message", "fake_total_markdown", "html_script", "javascript_link",
                "terminal_escapes", "nul_and_bidi")
HIDDEN = REPO / "grader" / "traces" / "data" / "scorpion"
SMALL_SET = ("deal-default-3.json", "near-won-1.json")
LIMITS_ENV = {"SOLITAIRE_SANDBOX_CALL_S": "1", "SOLITAIRE_SANDBOX_WALL_S": "4",
              "SOLITAIRE_SANDBOX_STARTUP_S": "5", "SOLITAIRE_SANDBOX_CPU_S": "5"}


@dataclass
class Graded:
    out: Path
    results: dict | None
    error: str = ""


@pytest.fixture(scope="module")
def graded(tmp_path_factory, isolation):
    if not all((HIDDEN / name).is_file() for name in SMALL_SET):
        pytest.skip("the hidden scorpion traces are not built")
    traces = tmp_path_factory.mktemp("traces")
    for name in SMALL_SET:
        shutil.copy(HIDDEN / name, traces / name)
    root = tmp_path_factory.mktemp("text")

    def one(attack: str) -> Graded:
        submission, out = root / attack / "submission", root / attack / "out"
        compose(attack, submission, out=out)
        try:
            results = grade.grade_submission(submission, "scorpion", out, traces_dir=traces)
        except Exception as error:  # noqa: BLE001 - reported by the attack's own test
            return Graded(out, None, f"{type(error).__name__}: {error}")
        return Graded(out, results)

    with pytest.MonkeyPatch.context() as patch:
        for key, value in LIMITS_ENV.items():
            patch.setenv(key, value)
        with ThreadPoolExecutor(2) as pool:
            return dict(zip(TEXT_ATTACKS, pool.map(one, TEXT_ATTACKS), strict=True))


def _strings(value):
    """Every string in a parsed JSON document, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


WRITTEN = ["feedback.html", "feedback.json", "feedback.md", "results.json"]  # no grader-error.log


def check_written_safely(out: Path) -> tuple[dict, str]:
    """results.json, feedback.md, feedback.html and feedback.json exist, are strict UTF-8 and carry
    no unsafe character."""
    assert sorted(p.name for p in out.iterdir()) == WRITTEN
    for name in ("results.json", "feedback.json"):
        document = json.loads((out / name).read_bytes().decode("utf-8", "strict"))
        for text in _strings(document):
            text.encode("utf-8", "strict")
            assert unsafe_characters(text) == [], text[:200]
        if name == "results.json":
            results = document
    for name in ("feedback.md", "feedback.html"):
        written = (out / name).read_bytes().decode("utf-8", "strict")
        assert written.strip() and unsafe_characters(written) == []
    return results, (out / "feedback.md").read_text(encoding="utf-8")


#: every element feedback.html's template writes (grader/templates/feedback.html.j2): nothing else may appear
HTML_TAGS = {"html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "h3", "h4", "p", "code",
             "pre", "section", "dl", "dt", "dd", "table", "caption", "thead", "tbody", "tr", "th", "td", "a",
             "ul", "li", "span", "details", "summary", "figure", "figcaption", "div", "strong"}


def student_html(page: str) -> list[str]:
    """Markup in feedback.html that its template does not write: a student's tag, link or entity."""
    tags = {t.lower() for t in re.findall(r"</?([A-Za-z][A-Za-z0-9]*)", page)}
    found = sorted(tags - HTML_TAGS)
    found += re.findall(r"<!--|<!\[CDATA", page, flags=re.I)  # text such as "javascript:" is fine: no link
    found += re.findall(r"\b(?:on[a-z]+|href|src)=\"(?!#)[^\"]*\"", page.replace('href="#', ""))
    return found


@pytest.mark.parametrize("attack", TEXT_ATTACKS)
def test_hostile_text_is_graded_and_written_safely(attack, graded):
    result = graded[attack]
    assert result.results is not None, result.error  # grading did not crash
    results, feedback = check_written_safely(result.out)
    assert results == result.results and "internal_error" not in json.dumps(results)
    assert results["score"] == 0 and results["tests"]
    assert all(test["score"] == 0 for test in results["tests"])


def outside_code(markdown: str) -> str:
    """``markdown`` without its fenced code blocks and inline code spans (rendered literally)."""
    text = re.sub(r"^(`{3,})[^\n]*\n.*?^\1\s*$", "", markdown, flags=re.S | re.M)
    return re.sub(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)", "", text, flags=re.S)


def rendered_markup(markdown: str) -> list[str]:
    """What in ``markdown`` would render as markup a student could have written: HTML, links, bold."""
    text = outside_code(markdown)
    found = re.findall(r"<[A-Za-z!/?]", text)
    found += re.findall(r"javascript:", text, flags=re.I)
    found += re.findall(r"(?<!\\)\]\(", text)
    found += [m for m in re.findall(r"&[A-Za-z#0-9]+;?", text) if m not in ("&amp;", "&lt;", "&gt;")]
    return found


FAKES = ("**Total: 100 / 100**", "__FAKE__", "# Feedback: every check passed", "| deal | 10 / 10 | 46 / 46 |")


def student_markup(markdown: str) -> list[str]:
    """Markup a student wrote that would render: HTML, links, entities, the fake total, heading and row."""
    found = rendered_markup(markdown)
    text = outside_code(markdown)
    found += [fake for fake in FAKES if fake in text]
    found += [line for line in markdown.splitlines() if line.lstrip().startswith(("#", "|", ">"))
              and ("FAKE" in line or "every check passed" in line or "46 / 46" in line)]
    return found


@pytest.mark.parametrize("attack", TEXT_ATTACKS)
def test_hostile_text_renders_as_text(attack, graded):
    result = graded[attack]
    assert result.results is not None, result.error
    results, feedback = check_written_safely(result.out)
    assert student_markup(feedback) == []
    for test in results["tests"]:  # Gradescope renders these as Markdown too (output_format "md")
        assert student_markup(test.get("output", "")) == [], test["output"][:300]
    assert student_markup(results.get("output", "")) == []
    assert student_html((result.out / "feedback.html").read_text(encoding="utf-8")) == []


def _cli_grade(submission: Path, out: Path) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "solitaire", "grade", str(submission), "--variation", "scorpion",
               "--out", str(out)]
    return subprocess.run(command, capture_output=True, timeout=600, cwd=submission.parent)


def _without_hostile_characters(path: Path) -> Path:
    """The same submission with every escape (``\\udc80``, ``\\x1b``, ``\\u202e`` ...) in its source
    replaced by a plain ``x``: the same code, minus the attack."""
    control = path.parent.parent / "control" / path.name
    control.parent.mkdir()
    control.write_text(re.sub(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2})", "x", path.read_text()))
    return control


@pytest.mark.parametrize("attack", ["surrogate_message", "terminal_escapes"])
def test_hostile_text_through_the_command_line(attack, tmp_path, isolation):
    """The whole command on the whole hidden suite: exit 0, files written, the terminal kept clean, and
    no more points than the same code without the hostile characters."""
    if not HIDDEN.is_dir():
        pytest.skip("the hidden scorpion traces are not built")
    submission, out = tmp_path / "submission", tmp_path / "out"
    rules = compose(attack, submission, out=out)
    finished = _cli_grade(submission, out)
    printed = (finished.stdout + finished.stderr).decode("utf-8", "strict")
    assert finished.returncode == 0, printed[-2000:]
    assert unsafe_characters(printed) == []  # no escape code reaches the instructor's terminal
    results, _feedback = check_written_safely(out)
    control = _without_hostile_characters(rules)
    baseline = grade.grade_submission(control.parent, "scorpion", tmp_path / "control-out")
    assert results["score"] <= baseline["score"], (results["score"], baseline["score"])
