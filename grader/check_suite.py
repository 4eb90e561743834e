"""``solitaire check-suite V``: measure the hidden suite of a variation, do not assume it.

(a) the reference, graded like a submission (subprocess, sandbox): full marks;
(b) the starter (``starter/V.py``; without it, the reference with every
    solution region replaced by ``raise NotImplementedError``): 0;
(c) every AST mutant of the reference's solution regions (:mod:`grader.mutants`),
    graded in-process: the kill rate, and whether each killed mutant lost points
    only in its own method's category. A survivor must be listed in
    ``grader/survivors/V.txt`` with a reason: ``equivalent: <why>`` for a mutant
    no trace can kill, anything else for one a trace should kill (a to-do).

Also checked: the catalog entry, that every rule category has checks, that every
option value and every ruling id of the reference is exercised by some trace.
The gate passes when (a) and (b) hold, nothing else is wrong, no survivor is
unexplained and the kill rate over the non-equivalent mutants is at least 98%.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from solitaire.errors import UserError
from solitaire.protocol import LocalWorker
from solitaire.traces import planned
from solitaire.variation import Variation

from . import catalog, mutants
from .grade import grade_submission, graded_traces, replay_all, sandbox_available
from .traces.build import ROOT, option_sets, reference_variation

SURVIVORS_DIR = Path(__file__).resolve().parent / "survivors"
TARGET = 0.98
EQUIVALENT = "equivalent:"


@dataclass
class Report:
    variation: str
    reference: tuple[float, float] = (0.0, 0.0)
    starter: tuple[float, float] = (0.0, 0.0)
    starter_source: str = ""
    outcomes: list[mutants.Outcome] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    # -- mutant figures ------------------------------------------------------
    def survivors(self) -> list[mutants.Outcome]:
        return [o for o in self.outcomes if not o.killed]

    def equivalent(self) -> list[mutants.Outcome]:
        return [o for o in self.survivors() if self.reasons.get(key(o.mutant), "").startswith(EQUIVALENT)]

    def unexplained(self) -> list[mutants.Outcome]:
        return [o for o in self.survivors() if key(o.mutant) not in self.reasons]

    def leaks(self) -> list[mutants.Outcome]:
        return [o for o in self.outcomes if o.killed and o.lost and not o.own_category_only]

    @property
    def killed(self) -> int:
        return sum(o.killed for o in self.outcomes)

    @property
    def kill_rate(self) -> float:
        """Killed over all mutants."""
        return self.killed / len(self.outcomes) if self.outcomes else 1.0

    @property
    def score(self) -> float:
        """Killed over the mutants not explained as equivalent (the gate's figure)."""
        relevant = len(self.outcomes) - len(self.equivalent())
        return self.killed / relevant if relevant else 1.0

    @property
    def passed(self) -> bool:
        ref_ok = self.reference[1] > 0 and self.reference[0] == self.reference[1]
        return (ref_ok and self.starter[0] == 0 and not self.problems and not self.unexplained()
                and self.score >= TARGET)


def label(mutant: mutants.Mutant) -> str:
    return f"{mutant.method} {mutant.operator}: {mutant.before} -> {mutant.after}"


def key(mutant: mutants.Mutant) -> str:
    """A mutant's name in the survivors file: its method, operator and change, with
    ``[n]`` for the n-th identical change of one method (no line numbers: they move)."""
    return mutant.key or label(mutant)


def assign_keys(items: list[mutants.Mutant]) -> list[mutants.Mutant]:
    seen: Counter[str] = Counter()
    for mutant in items:
        text = label(mutant)
        seen[text] += 1
        mutant.key = text if seen[text] == 1 else f"{text} [{seen[text]}]"
    return items


def survivors_file(name: str) -> Path:
    return SURVIVORS_DIR / f"{name}.txt"


def read_reasons(name: str) -> dict[str, str]:
    """``key | reason`` lines of the survivors file (``#`` comments and blank lines skipped)."""
    path = survivors_file(name)
    if not path.is_file():
        return {}
    reasons = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        mutant_key, sep, reason = line.rpartition(" | ")
        if not sep or not reason.strip():
            raise UserError(f"{path}:{number}: expected 'mutant | reason'")
        reasons[mutant_key.strip()] = reason.strip()
    return reasons


def write_reasons(report: Report) -> Path:
    """Rewrite the survivors file: known reasons kept, new survivors marked UNEXPLAINED."""
    path = survivors_file(report.variation)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"# Surviving mutants of reference/{report.variation}.py and why (solitaire check-suite).",
             "# 'equivalent: ...' = no trace can kill it; anything else = a trace to add (a to-do).",
             "# Format: <method> <operator>: <before> -> <after> | <reason>"]
    for outcome in report.survivors():
        mutant_key = key(outcome.mutant)
        reason = report.reasons.get(mutant_key, "UNEXPLAINED: add a trace that kills it, or explain")
        lines.append(f"{mutant_key} | {reason}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# -- the parts -----------------------------------------------------------------------
def stub_source(source: str) -> str:
    """The reference with each solution region replaced by ``raise NotImplementedError``."""
    out = []
    inside = False
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith(mutants.BEGIN):
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}raise NotImplementedError")
            continue
        if stripped.startswith(mutants.END):
            inside = False
            continue
        if not inside:
            out.append(line)
    return "\n".join(out) + "\n"


def ruling_ids(source: str, variation: Variation) -> set[str]:
    """Ruling ids quoted in the reference: its title's initial and a number (``S1`` ... ``S6``)."""
    letter = variation.title[:1].upper()
    return set(re.findall(rf"\b({re.escape(letter)}[0-9]+)\b", source))


def coverage_problems(name: str, variation: Variation, traces: list[dict]) -> list[str]:
    problems = []
    totals: Counter[str] = Counter()
    for trace in traces:
        totals += planned(trace)
    for category in catalog.points(name):
        if totals[category] == 0:
            problems.append(f"no hidden check exercises {category}")
    for options in option_sets(variation):
        for option, value in options.items():
            if not any(t["options"].get(option) == value for t in traces):
                problems.append(f"no hidden trace uses option {option}={value}")
    _, source = mutants.reference_source(name)
    exercised = {ruling for trace in traces for ruling in trace.get("rulings", [])}
    for ruling in sorted(ruling_ids(source, variation) - exercised):
        problems.append(f"no hidden trace names ruling {ruling}")
    return problems


def grade_file(source_text: str, name: str, worker: str) -> tuple[float, float]:
    """Grade ``source_text`` as a submission through the real path; (score, max)."""
    with tempfile.TemporaryDirectory(prefix="solitaire-check-") as temporary:
        submission = Path(temporary) / "submission"
        submission.mkdir()
        (submission / f"{name}.py").write_text(source_text, encoding="utf-8")
        results = grade_submission(submission, name, Path(temporary) / "out", worker=worker)
    maximum = sum(t["max_score"] for t in results["tests"])
    return float(results["score"]), float(maximum)


def check_suite(
    name: str,
    jobs: int = 1,
    with_mutants: bool = True,
    worker: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> Report:
    started = time.monotonic()
    say = progress or (lambda _text: None)
    report = Report(name)
    variation = reference_variation(name)
    report.problems += [p for p in catalog.problems() if p.startswith(name)]
    traces = graded_traces(name)
    report.problems += coverage_problems(name, variation, traces)
    worker = worker or ("sandbox" if sandbox_available() else "local")
    _, source = mutants.reference_source(name)
    say(f"{name}: grading the reference ({worker} worker)")
    report.reference = grade_file(source, name, worker)
    starter = ROOT / "starter" / f"{name}.py"
    if starter.is_file():
        starter_text = starter.read_text(encoding="utf-8")
        report.starter_source = str(starter.relative_to(ROOT))
    else:
        starter_text, report.starter_source = stub_source(source), "reference with stubbed solutions"
    say(f"{name}: grading the starter ({report.starter_source})")
    report.starter = grade_file(starter_text, name, worker)
    if with_mutants:
        report.reasons = read_reasons(name)
        begun = time.monotonic()
        replay_all(traces, lambda: LocalWorker(variation))
        reference_seconds = time.monotonic() - begun
        timeout = max(10.0, 25 * reference_seconds)
        items = assign_keys(mutants.generate(name, source))
        say(f"{name}: {len(items)} mutants, {jobs} at a time, {timeout:.0f} s each at most")

        def grade(candidate: Variation) -> dict[str, list[int]]:
            return replay_all(traces, lambda: LocalWorker(candidate)).counts

        report.outcomes = mutants.run(name, grade, jobs=jobs, timeout=timeout, mutants=items)
        stale = set(report.reasons) - {key(o.mutant) for o in report.survivors()}
        for mutant_key in sorted(stale):
            report.problems.append(f"survivors file lists a mutant that is now killed or gone: {mutant_key}")
    report.seconds = time.monotonic() - started
    return report


def render(report: Report) -> str:
    """The human-readable report of one variation."""
    lines = [f"== {report.variation}"]
    ref, ref_max = report.reference
    lines.append(f"reference: {ref:g} / {ref_max:g} {'OK' if ref == ref_max and ref_max else 'FAIL'}")
    lines.append(f"starter ({report.starter_source}): {report.starter[0]:g} / {report.starter[1]:g} "
                 f"{'OK' if report.starter[0] == 0 else 'FAIL'}")
    if report.outcomes:
        by_method: dict[str, list[int]] = {}
        for outcome in report.outcomes:
            entry = by_method.setdefault(outcome.mutant.method, [0, 0])
            entry[0] += outcome.killed
            entry[1] += 1
        lines.append(f"mutants: {report.killed} / {len(report.outcomes)} killed ({report.kill_rate:.1%}); "
                     f"{len(report.equivalent())} equivalent; score {report.score:.1%} "
                     f"(target {TARGET:.0%}) {'OK' if report.score >= TARGET else 'FAIL'}")
        lines.append("  by method: " + ", ".join(f"{m} {k}/{t}" for m, (k, t) in by_method.items()))
        timeouts = sum(o.status == "timeout" for o in report.outcomes)
        errors = sum(o.status == "error" for o in report.outcomes)
        own = sum(o.own_category_only for o in report.outcomes if o.killed and o.lost)
        scored = sum(1 for o in report.outcomes if o.killed and o.lost)
        lines.append(f"  killed by points: {scored} (own category only: {own}); by timeout: {timeouts}; "
                     f"by error: {errors}")
        for outcome in report.outcomes:
            if outcome.status in ("timeout", "error"):
                lines.append(f"  killed by {outcome.status}: #{outcome.mutant.id} {key(outcome.mutant)} "
                             f"({outcome.detail[:80]})")
        for outcome in report.leaks():
            lost = ", ".join(f"{c} -{v:.1%}" for c, v in sorted(outcome.lost.items()))
            lines.append(f"  lost points outside its category: #{outcome.mutant.id} "
                         f"{key(outcome.mutant)} ({lost})")
        for outcome in report.survivors():
            reason = report.reasons.get(key(outcome.mutant), "UNEXPLAINED")
            lines.append(f"  survivor #{outcome.mutant.id} {key(outcome.mutant)} | {reason}")
    for problem in report.problems:
        lines.append(f"problem: {problem}")
    lines.append(f"{'PASS' if report.passed else 'FAIL'} ({report.seconds:.0f} s)")
    return "\n".join(lines)


def copy_reference(name: str, directory: Path) -> Path:
    """Copy the reference module of ``name`` into ``directory`` as a submission would hold it."""
    _, source = mutants.reference_source(name)
    path = directory / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return path


def remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
