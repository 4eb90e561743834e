"""Grade one submission: ``solitaire grade SUBMISSION_DIR --variation V --out OUT``.

1. The hidden suite (:mod:`grader.suite`) runs in a *subprocess* (pytest with
   pytest-timeout), so that nothing a submission does can take the grading
   process down; it talks to the student's code only through a worker (the
   sandbox by default) and writes per-category counts to a file in a private
   temporary directory.
2. The checks are scored by the rubric (:mod:`grader.rubric`): each rule
   method's points (``assignments/catalog.toml``) split among its tests, one
   per ruling it implements plus random play; a test scores only when every
   one of its checks passed.
3. ``OUT/results.json`` (Gradescope's format, one test per method and ruling),
   ``OUT/feedback.md`` and ``OUT/feedback.html`` (one model, two templates:
   :mod:`grader.feedback_render`; the model itself as ``OUT/feedback.json``)
   are written; ``OUT`` may be an existing empty directory. A rules file that
   is missing or cannot be loaded gets a status (:mod:`grader.load_status`).

:func:`grade_in_process` is the fast path for trusted code (the reference,
mutants): the same replay and scoring, in this process, without pytest.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from solitaire.errors import UserError
from solitaire.protocol import LocalWorker
from solitaire.replay import Summary, WorkerSource, replay
from solitaire.traces import load_dir
from solitaire.variation import Variation

from . import catalog, feedback_model, feedback_render, sanitize
from . import rubric as rubrics
from .feedback import rule_test_output
from .lifeline import dies_with_this_process
from .load_status import headline_for_load, missing_file_headline
from .scoring import MethodScore, maximum, results_json, score_tests, total

SUITE_DIR = Path(__file__).resolve().parent / "suite"
#: results.json's extra_data.status for a rules file that could not be loaded, by the error's type
WORKER_KINDS = ("sandbox", "local")


def sandbox_available() -> bool:
    try:
        import grader.sandbox  # noqa: F401
    except ImportError:
        return False
    return True


def default_worker() -> str:
    """``sandbox`` when the sandbox is installed; there is no silent fallback to ``local``."""
    if not sandbox_available():
        raise UserError("the sandbox (grader.sandbox) is not available; pass --worker local only "
                        "for trusted code")
    return "sandbox"


# -- the fast in-process path (trusted code only) ------------------------------------
def replay_all(traces: Iterable[dict[str, Any]], worker: WorkerSource) -> Summary:
    """Replay every trace against ``worker`` (a factory: a fresh worker per trace), sharing the
    set of methods that hung; the counts per trace and category and the first failures."""
    summary = Summary()
    dead: set[str] = set()
    for trace in traces:
        for check in replay(trace, worker, dead=dead):
            summary.add(check)
    return summary


def rubric_for(name: str, traces: list[dict[str, Any]] | None = None,
               points: dict[str, float] | None = None) -> rubrics.Rubric:
    """The rubric of ``name`` over its graded hidden traces (or ``traces``) and catalog points."""
    traces = graded_traces(name, traces)
    return rubrics.build(name, traces, dict(points or catalog.points(name)), rubrics.contract_source(name))


def graded_traces(name: str, traces: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The hidden traces of ``name`` whose options the catalog grades."""
    from .trace_cache import hidden

    wanted = catalog.entry(name).graded_options
    traces = hidden(name) if traces is None else traces
    return [t for t in traces if all(t["options"].get(o) in v for o, v in wanted.items())]


def grade_in_process(variation: Variation, name: str | None = None,
                     traces: list[dict[str, Any]] | None = None,
                     rubric: rubrics.Rubric | None = None) -> list[MethodScore]:
    """Scores of a *trusted* implementation, replayed in this process (a fresh instance of its
    class per trace, as the sandbox starts a fresh worker per trace)."""
    name = name or variation.name
    summary = replay_all(graded_traces(name, traces), lambda: LocalWorker(type(variation)()))
    rubric = rubric or rubric_for(name, traces)
    first = {t: {c: _as_dict(check) for c, check in per.items()} for t, per in summary.first_failure.items()}
    return score_tests(rubric, summary.cells, first)


def _as_dict(check: Any) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(check)


# -- grading a submission ------------------------------------------------------------
def _prepare_out(out: Path) -> None:
    if out.exists():
        if not out.is_dir():
            raise UserError(f"--out {out} is a file, not a directory")
        if any(out.iterdir()):
            raise UserError(f"--out {out} is not empty (give a new or an empty directory)")
    else:
        out.mkdir(parents=True)


def run_suite(rules: Path, name: str, worker: str, work: Path, timeout: float,
              trace_timeout: float, traces_dir: Path | None = None) -> tuple[dict[str, Any] | None, str]:
    """Run the hidden suite in a subprocess; (its counts, or None if it broke; its output)."""
    counts_file = work / "counts.json"
    graded = catalog.entry(name).graded_options
    command = [
        # pytest, after starting the sandboxes in the background (grader/suite/run.py)
        sys.executable, "-m", "grader.suite.run", str(SUITE_DIR / "test_hidden.py"),
        "-c", str(SUITE_DIR / "pytest.ini"), "--rootdir", str(SUITE_DIR),
        # plugin autoloading is off (see below): exactly these two plugins are loaded
        "-p", "pytest_timeout", "-p", "grader.suite.plugin", "-q", "--no-header",
        f"--timeout={trace_timeout:g}",
        "--solitaire-submission", str(rules), "--solitaire-variation", name,
        "--solitaire-worker", worker, "--solitaire-results", str(counts_file),
        "--solitaire-graded", json.dumps(graded),
    ]
    if traces_dir is not None:
        command += ["--solitaire-traces", str(traces_dir)]
    else:  # validated once in this process (trace_cache), not again in every suite
        from .trace_cache import write_checked

        command += ["--solitaire-checked", str(write_checked(name, work / "traces.json"))]
    env = dict(os.environ)
    env.pop("PYTEST_ADDOPTS", None)
    # Installed pytest plugins (hypothesis, anyio, benchmark ...) are not loaded: importing them
    # cost about a second per submission, and none of them has any business in the hidden suite.
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    try:
        process = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True,
                                 timeout=timeout, start_new_session=True,
                                 preexec_fn=dies_with_this_process())  # a killed grader takes it along
        output = process.stdout + process.stderr
    except subprocess.TimeoutExpired as expired:
        partial = expired.stdout.decode("utf-8", "replace") if isinstance(expired.stdout, bytes) else ""
        output = f"the hidden suite did not finish within {timeout:g} s\n{partial}"
        return None, output
    if not counts_file.is_file():
        return None, output
    return json.loads(counts_file.read_text(encoding="utf-8")), output


def grade_submission(
    submission: str | Path,
    variation: str,
    out: str | Path,
    *,
    worker: str | None = None,
    points: dict[str, float] | None = None,
    timeout: float = 1200.0,
    traces_dir: Path | None = None,
) -> dict[str, Any]:
    """Grade ``submission/<variation>.py``; write ``out/results.json``, ``feedback.md``, ``feedback.html``.

    Returns the results. Raises :class:`UserError` for the grader's user's
    mistakes (unknown variation, non-empty ``out``); a submission's own
    problems (missing file, crash, timeouts) only cost it points.
    """
    started = time.monotonic()
    submission, out = Path(submission), Path(out)
    try:
        entry = catalog.entry(variation)
    except LookupError as error:
        raise UserError(str(error)) from None
    settings = catalog.settings()
    worker = worker or default_worker()
    if worker not in WORKER_KINDS:
        raise UserError(f"--worker must be one of {', '.join(WORKER_KINDS)}")
    if not submission.is_dir():
        raise UserError(f"{submission} is not a directory")
    _prepare_out(out)
    points = dict(points or entry.points)
    rules = submission / f"{variation}.py"
    notes: list[dict[str, str]] = []
    counts: dict[str, Any] = {"cells": {}, "first_failures": {}}
    internal_error = ""
    status = "ok"  # or one of load_status.STATUSES
    headline: dict[str, str] | None = None  # why no rule was tested at all (said once, at the top)
    if not rules.is_file() or rules.is_symlink():
        status, headline = "missing-file", missing_file_headline(submission, rules.name)
    else:
        with tempfile.TemporaryDirectory(prefix="solitaire-grade-") as temporary:
            work = Path(temporary)
            os.chmod(work, 0o700)
            found, output = run_suite(rules.resolve(), variation, worker, work, timeout,
                                      settings.trace_timeout, traces_dir)
            load = (found or {}).get("sandbox", {}).get("load_failure")
            if found is None:
                status, internal_error = "internal-error", output[-4000:]
                notes.append(feedback_model.note("The grader could not finish grading this submission; your "
                                                 "instructor has been told. The score below is not final."))
            elif found.get("sandbox", {}).get("failed"):
                counts, status = found, "internal-error"
                internal_error = "the sandbox could not start the worker\n" + output[-4000:]
                notes.append(feedback_model.note(
                    "The grader's sandbox could not run your code (not a problem of your code); your "
                    "instructor has been told. The score below is not final."))
            elif load:
                counts = found
                status, headline = headline_for_load(rules.name, load)
            else:
                counts = found
                timeouts = [n for n, t in counts.get("traces", {}).items() if t.get("status") == "timeout"]
                if timeouts:
                    notes.append(feedback_model.note(f"{len(timeouts)} hidden trace(s) ran out of time; the "
                                                     "checks they could not make count as failed. Is some "
                                                     "rule very slow?"))
    rubric = rubric_for(variation, points=points,
                        traces=load_dir(traces_dir, schema=False) if traces_dir is not None else None)
    methods = score_tests(rubric, counts["cells"], counts.get("first_failures"))
    outputs = {t.test.id: rule_test_output(t, settings.feedback, variation) for m in methods for t in m.tests}
    if headline:  # one reason, said once at the top, not repeated in every test
        outputs = {test_id: "Not run: see the note at the top." for test_id in outputs}
    if counts.get("dead"):
        notes.append(feedback_model.note("These rule methods did not answer in time and were not asked "
                                         "again: " + ", ".join(counts["dead"]) + ". Each lost its own "
                                         "points only."))
    summary = (f"{entry.title}: {total(methods):g} / {maximum(methods):g} points. "
               "Each rule method's points are split among its tests, one per ruling it implements "
               "and one for random play; a test earns its points only when all its checks pass.")
    summary += "\n\n| rule method | tests passed | points |\n| --- | --- | --- |\n" + "\n".join(
        f"| {m.title} | {sum(t.ok for t in m.tests)} / {len(m.tests)} | {m.score:g} / {m.max_score:g} |"
        for m in methods)
    shown = ([headline] if headline else []) + notes
    if shown:
        summary += "\n\n" + "\n\n".join(_note_markdown(n) for n in shown)
    extra: dict[str, Any] = {
        "variation": variation, "worker": worker, "status": status,
        "sandbox_layer": counts.get("sandbox", {}).get("layer", "local" if worker == "local" else "-"),
        "methods": {m.method: [m.score, m.max_score] for m in methods},
        "tests_passed": sum(t.ok for m in methods for t in m.tests),
        "tests": sum(len(m.tests) for m in methods),
    }
    if internal_error:
        extra["internal_error"] = True
    results = results_json(methods, outputs, summary, settings.visibility, time.monotonic() - started, extra)
    model = feedback_model.build(entry.title, rules.name, variation, methods, settings.feedback, notes,
                                 status=status, headline=headline)
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    feedback_render.write(out, model)
    if internal_error:
        (out / "grader-error.log").write_text(internal_error, encoding="utf-8")
    return results


def _note_markdown(note: dict[str, str]) -> str:
    """A note of the feedback model as one Markdown line (for results.json's summary)."""
    detail = note.get("detail")
    return note["text"] + (" " + sanitize.code(detail, 500) if detail else "")


def submission_variation(submission: Path) -> str:
    """The variation of a submission directory holding exactly one known ``<variation>.py``."""
    found = [name for name in catalog.names() if (submission / f"{name}.py").is_file()]
    if len(found) != 1:
        known = ", ".join(catalog.names())
        raise UserError(f"cannot tell the variation of {submission} (found {found or 'no'} rules files "
                        f"of {known}): give --variation")
    return found[0]


def clean_directory(path: Path) -> None:
    """Remove ``path`` (used by callers that grade into temporary directories)."""
    shutil.rmtree(path, ignore_errors=True)
