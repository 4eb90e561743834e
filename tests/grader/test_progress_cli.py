"""`traces build`, `traces check` and `check-suite` show their progress on stderr, with the time left;
stdout keeps only their results (a pipe or a log is not a terminal: plain lines, not one per item)."""

from __future__ import annotations

import functools
import re

from solitaire import cli

TINY = "peek"  # the quickest variation to build (about 3 s)
COUNT = re.compile(r"^(?P<label>[\w :-]+?): (?P<done>\d+)/(?P<total>\d+) (?P<unit>\w+) \(\d+%\), ")


def progress_lines(err: str) -> list[re.Match[str]]:
    return [m for line in err.splitlines() if (m := COUNT.match(line))]


def test_traces_build_counts_the_variations_on_stderr(tmp_path, monkeypatch, capsys):
    from grader.traces import build

    # the real build, written to a scratch folder instead of the committed traces
    monkeypatch.setattr(build, "write", functools.partial(build.write, hidden_root=tmp_path / "hidden",
                                                          public_root=tmp_path / "public"))
    status = cli.main(["traces", "build", "--variation", TINY])
    out, err = capsys.readouterr()
    assert status == 0
    assert re.fullmatch(rf"{TINY}: \d+ hidden traces, \d+ public\n", out)  # stdout: the result only
    assert any((tmp_path / "hidden" / TINY).glob("*.json"))
    lines = progress_lines(err)
    assert [(m["label"], m["done"], m["total"], m["unit"]) for m in lines] == [
        ("traces build", "0", "1", "variations"), ("traces build", "1", "1", "variations")]
    assert err.splitlines()[-1].endswith(f"elapsed, done; {TINY}")


def test_traces_check_counts_on_stderr(capsys):
    status = cli.main(["traces", "check", "--variation", TINY])
    out, err = capsys.readouterr()
    assert status == 0 and out == f"{TINY}: current\n"
    assert [m["done"] for m in progress_lines(err)] == ["0", "1"]


def test_check_suite_counts_the_variations_on_stderr(capsys):
    status = cli.main(["check-suite", TINY, "--no-mutants", "--worker", "local"])
    out, err = capsys.readouterr()
    assert status == 0, out
    assert out.startswith(f"== {TINY}\n") and "PASS" in out
    assert "0/1 variations" not in out and "elapsed" not in out
    counts = [(m["label"], m["done"]) for m in progress_lines(err)]
    assert counts == [("check-suite", "0"), ("check-suite", "1")]
    assert f"{TINY}: grading the reference (local worker)" in err  # the parts, as they begin


def test_check_suite_counts_each_family_of_mutants_with_the_time_left(monkeypatch):
    import io

    from rich.console import Console

    from grader import check_suite, mutants

    def run(name, grade, jobs=1, timeout=60.0, mutants=None, progress=None):
        """Grading mutants takes minutes: each is reported killed at once, as the real run reports."""
        outcomes = [check_suite.mutants.Outcome(m, {m.method: 1.0}, "killed") for m in mutants]
        for outcome in outcomes:
            progress(outcome)
        return outcomes

    monkeypatch.setattr(mutants, "run", run)
    monkeypatch.setattr(check_suite, "grade_file", lambda *args: (0.0, 0.0))  # measured above
    console = Console(file=io.StringIO(), force_terminal=False, width=200)
    report = check_suite.check_suite(TINY, jobs=2, worker="local", console=console)
    lines = progress_lines(console.file.getvalue())
    ast = [m for m in lines if m["label"] == f"{TINY}: AST mutants"]
    assert ast[0]["done"] == "0" and ast[-1]["done"] == ast[-1]["total"] == str(len(report.outcomes))
    assert 3 <= len(ast) <= 11 < len(report.outcomes)  # a line per tenth, not per mutant
    constants = [m for m in lines if m["label"] == f"{TINY}: constant answers"]
    assert constants[-1]["done"] == constants[-1]["total"] and len(constants) <= 11
    assert "left" in console.file.getvalue()
