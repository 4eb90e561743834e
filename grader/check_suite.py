"""``solitaire check-suite V``: measure the hidden suite of a variation, do not assume it.

(a) the reference, graded like a submission (subprocess, sandbox): full marks;
(b) the starter (``starter/V.py``; without it, the reference with every
    solution region replaced by ``raise NotImplementedError``): 0;
(c) two families of mutants, graded in-process with the rubric's scoring:
    every AST mutant of the reference's solution regions (:mod:`grader.mutants`)
    and every realistic student bug of the catalog (:mod:`grader.bugs`). For
    each: whether it is detected, whether it lost points only in its own
    method, and its loss as a share of its own method's points. An AST
    survivor must be listed in ``grader/survivors/V.txt`` with a reason:
    ``equivalent: <why>`` for a mutant no trace can kill, anything else for one
    a trace should kill (a to-do); a catalog bug must never survive;
(d) constant answers: for each method, the best score of returning True,
    False, None or an empty list (for a method that changes the state: leaving
    it unchanged), summed over the methods;
(e) the independent implementation (``tests/independent/V.py``, where there is one).

Also checked: the catalog entry, that every rule category has checks, that every
option value and every ruling id of the reference is exercised by some trace.
The gate passes when (a), (b) and (e) score exactly full marks, 0 and full marks,
nothing else is wrong, every non-equivalent mutant of each family is detected,
loses points only in its own method and at least :data:`MIN_LOSS` of that
method's points (a mutant killed by a timeout counts as detected), the median
loss of each family is at least :data:`MEDIAN_LOSS`, and constant answers score
at most :data:`CONSTANT_MAX` points.
"""

from __future__ import annotations

import re
import shutil
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from solitaire.errors import UserError
from solitaire.progress import Progress
from solitaire.protocol import LocalWorker
from solitaire.replay import planned
from solitaire.variation import Variation

from . import bugs, catalog, mutants, pysource
from .gate import CONSTANT_MAX, MEDIAN_LOSS, MIN_LOSS
from .grade import (
    grade_in_process,
    grade_submission,
    graded_traces,
    replay_all,
    rubric_for,
    sandbox_available,
)
from .rubric import Rubric, ruling_sentences
from .scoring import lost_shares, total
from .traces.build import ROOT, option_sets, reference_variation

SURVIVORS_DIR = Path(__file__).resolve().parent / "survivors"
EQUIVALENT = "equivalent:"
CONSTANTS = ("True", "False", "None", "[]")
#: grades a family of mutants: (label, mutants, timeout) -> their outcomes
Family = Callable[[str, list[mutants.Mutant], float], list[mutants.Outcome]]


@dataclass
class Report:
    variation: str
    reference: tuple[float, float] = (0.0, 0.0)
    starter: tuple[float, float] = (0.0, 0.0)
    starter_source: str = ""
    outcomes: list[mutants.Outcome] = field(default_factory=list)
    bug_outcomes: list[mutants.Outcome] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    constants: dict[str, tuple[str, float]] = field(default_factory=dict)  # method -> (best, points)
    independent: tuple[float, float] | None = None
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
        """Killed over the mutants not explained as equivalent."""
        relevant = len(self.outcomes) - len(self.equivalent())
        return self.killed / relevant if relevant else 1.0

    @property
    def constant_total(self) -> float:
        return round(sum(points for _, points in self.constants.values()), 2)

    def family(self, which: str) -> list[mutants.Outcome]:
        """The outcomes of one family (``ast`` or ``bugs``) that count: equivalent AST survivors out."""
        if which == "bugs":
            return self.bug_outcomes
        equivalent = {id(o) for o in self.equivalent()}
        return [o for o in self.outcomes if id(o) not in equivalent]

    def failures(self) -> list[str]:
        """Why the gate does not hold (empty: it holds)."""
        why = list(self.problems)
        if not (self.reference[1] > 0 and self.reference[0] == self.reference[1]):
            why.append(f"the reference scored {self.reference[0]:g} / {self.reference[1]:g}")
        if self.starter[0] != 0:
            why.append(f"the starter scored {self.starter[0]:g}")
        if self.independent is not None and self.independent[0] != self.independent[1]:
            got, most = self.independent
            why.append(f"the independent implementation scored {got:g} / {most:g}")
        if self.unexplained():
            why.append(f"{len(self.unexplained())} AST survivors are not explained")
        for which in ("ast", "bugs"):
            outcomes = self.family(which)
            if not outcomes:
                continue
            missed = [o for o in outcomes if not o.killed]
            if which == "bugs" and missed:
                why.append(f"{len(missed)} catalog bugs are not detected")
            leaks = [o for o in outcomes if o.killed and o.lost and not o.own_category_only]
            if leaks:
                why.append(f"{len(leaks)} {which} mutants lose points outside their own method")
            low = [o for o in outcomes if o.killed and (loss := own_loss(o)) is not None and loss < MIN_LOSS]
            if low:
                why.append(f"{len(low)} {which} mutants lose less than {MIN_LOSS:.0%} of their method")
            median = median_loss(outcomes)
            if median is not None and median < MEDIAN_LOSS:
                why.append(f"median loss of the {which} mutants {median:.0%} < {MEDIAN_LOSS:.0%}")
        if self.constants and self.constant_total > CONSTANT_MAX:
            why.append(f"constant answers score {self.constant_total:g} > {CONSTANT_MAX:g}")
        return why

    @property
    def passed(self) -> bool:
        return not self.failures()


def own_loss(outcome: mutants.Outcome) -> float | None:
    """The share of its own method's points a mutant lost (for a helper: the most among the
    methods it serves); None for a mutant killed by a timeout or an error (no score)."""
    if outcome.status in ("timeout", "error"):
        return None
    own = outcome.mutant.categories or {outcome.mutant.method}
    return max((outcome.lost.get(c, 0.0) for c in own), default=0.0)


def median_loss(outcomes: list[mutants.Outcome]) -> float | None:
    losses = [loss for o in outcomes if (loss := own_loss(o)) is not None]
    return statistics.median(losses) if losses else None


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
    return replace_regions(source, "raise NotImplementedError")


def ruling_ids(source: str, variation: Variation) -> set[str]:
    """Ruling ids the reference quotes that its rules page rules (``S1`` ... ``S6``; ``MA1``,
    ``X4`` ...): the ids of the page's ruling bullets named anywhere in the source."""
    ruled = set(ruling_sentences(variation.name))
    return {found for found in re.findall(r"\b([A-Z]{1,2}[0-9]+)\b", source) if found in ruled}


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


def bug_mutants(name: str, source: str) -> list[mutants.Mutant]:
    """The catalog's realistic bugs of ``name`` as mutants (none without a catalog)."""
    if name not in bugs.variations():
        return []
    serves = mutants.served_categories(pysource.parse(source))
    items = []
    for index, bug in enumerate(bugs.load(name)):
        code = compile(bug.source(source), f"<bug {name}:{bug.id}>", "exec")
        items.append(mutants.Mutant(index, bug.method, 0, "bug", bug.id, bug.description, code,
                                    frozenset(serves.get(bug.method, {bug.method})), key=f"bug {bug.id}"))
    return items


def constant_source(source: str, method: str, value: str) -> str:
    """The reference with ``method``'s solution region replaced by ``return <value>``."""
    return replace_region(source, method, f"return {value}")


def replace_region(source: str, method: str, body: str) -> str:
    """The reference with ``method``'s solution region replaced by the lines of ``body``."""
    return replace_regions(source, body, {method})


def replace_regions(source: str, body: str, methods: set[str] | None = None) -> str:
    """``source`` with the solution region of each of ``methods`` (every one: None) replaced by
    the lines of ``body``, at the region's indentation."""
    out: list[str] = []
    inside, current = False, None
    for line in source.splitlines():
        stripped = line.strip()
        found = re.match(r"def (\w+)\(", stripped)
        if found:
            current = found.group(1)
        if stripped.startswith(mutants.BEGIN) and (methods is None or current in methods):
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out.extend(indent + part for part in body.splitlines())
            continue
        if inside:
            inside = not stripped.startswith(mutants.END)
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def loss_grader(name: str, traces: list[dict], rubric: Rubric) -> Callable[[Variation], dict[str, float]]:
    """What grading a trusted candidate gives :func:`mutants.run`: per method, the share of
    its points lost (in-process, the rubric's scoring, a fresh instance per trace)."""
    def grade(candidate: Variation) -> dict[str, float]:
        return lost_shares(grade_in_process(candidate, name, traces, rubric))
    return grade


def constant_scores(name: str, source: str, rubric: Rubric, traces: list[dict], jobs: int,
                    timeout: float, run_family: Family | None = None) -> dict[str, tuple[str, float]]:
    """Per rule method: the constant answer that scores best in that method, and its points.
    ``run_family(label, mutants, timeout)`` grades them (default: :func:`mutants.run`, unshown)."""
    methods = list(catalog.points(name))
    items: list[mutants.Mutant] = []
    for method in methods:
        for value in CONSTANTS:
            code = compile(constant_source(source, method, value), f"<constant {method}={value}>", "exec")
            items.append(mutants.Mutant(len(items), method, 0, "constant", method, value, code,
                                        frozenset({method})))
    points = catalog.points(name)
    best: dict[str, tuple[str, float]] = {m: ("-", 0.0) for m in methods}
    grade = loss_grader(name, traces, rubric)
    if run_family is None:
        outcomes = mutants.run(name, grade, jobs=jobs, timeout=timeout, mutants=items)
    else:
        outcomes = run_family("constant answers", items, timeout)
    for outcome in outcomes:
        method, value = outcome.mutant.method, outcome.mutant.after
        if outcome.status in ("timeout", "error"):
            continue  # earned nothing
        earned = round(float(points[method]) * (1 - outcome.lost.get(method, 0.0)), 2)
        if earned > best[method][1]:
            best[method] = (value, earned)
    return best


def grade_file(source_text: str, name: str, worker: str) -> tuple[float, float]:
    """Grade ``source_text`` as a submission through the real path; (score, max)."""
    with tempfile.TemporaryDirectory(prefix="solitaire-check-") as temporary:
        submission = Path(temporary) / "submission"
        submission.mkdir()
        (submission / f"{name}.py").write_text(source_text, encoding="utf-8")
        results = grade_submission(submission, name, Path(temporary) / "out", worker=worker)
    # rounded as the score is: per-test maxima are hundredths, and their float sum need not be exact
    maximum = round(sum(t["max_score"] for t in results["tests"]), 2)
    return float(results["score"]), float(maximum)


def check_suite(
    name: str,
    jobs: int = 1,
    with_mutants: bool = True,
    worker: str | None = None,
    progress: Callable[[str], None] | None = None,
    console: Console | None = None,
) -> Report:
    """Measure the hidden suite of ``name`` (see the module docstring). ``progress`` hears a line
    as each part begins; ``console`` (None: nothing shown) shows the count of each family of
    mutants, with the time left (:mod:`solitaire.progress`)."""
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
    rubric = rubric_for(name, traces)
    independent = ROOT / "tests" / "independent" / f"{name}.py"
    if independent.is_file():
        from solitaire.catalog import load_file

        methods = grade_in_process(load_file(independent), name, traces, rubric)
        report.independent = (total(methods), float(sum(catalog.points(name).values())))
    if with_mutants:
        report.reasons = read_reasons(name)
        begun = time.monotonic()
        replay_all(traces, lambda: LocalWorker(type(variation)()))
        reference_seconds = time.monotonic() - begun
        timeout = max(10.0, 25 * reference_seconds)

        grade = loss_grader(name, traces, rubric)

        def run_family(label: str, items: list[mutants.Mutant], timeout: float) -> list[mutants.Outcome]:
            if console is None or not items:
                return mutants.run(name, grade, jobs=jobs, timeout=timeout, mutants=items)
            with Progress(f"{name}: {label}", len(items), unit="graded", console=console,
                          redirect=False) as shown:  # mutants.run forks
                return mutants.run(name, grade, jobs=jobs, timeout=timeout, mutants=items,
                                   progress=lambda outcome: shown.advance())

        items = assign_keys(mutants.generate(name, source))
        say(f"{name}: {len(items)} AST mutants, {jobs} at a time, {timeout:.0f} s each at most")
        report.outcomes = run_family("AST mutants", items, timeout)
        stale = set(report.reasons) - {key(o.mutant) for o in report.survivors()}
        for mutant_key in sorted(stale):
            report.problems.append(f"survivors file lists a mutant that is now killed or gone: {mutant_key}")
        catalog_bugs = bug_mutants(name, source)
        say(f"{name}: {len(catalog_bugs)} catalog bugs")
        report.bug_outcomes = run_family("catalog bugs", catalog_bugs, timeout)
        say(f"{name}: constant answers")
        report.constants = constant_scores(name, source, rubric, traces, jobs, timeout, run_family)
    report.seconds = time.monotonic() - started
    return report


def family_line(report: Report, which: str) -> str:
    """One family's figures: detected, own method only, minimum and median loss share."""
    outcomes = report.family(which)
    detected = [o for o in outcomes if o.killed]
    own = [o for o in detected if not o.lost or o.own_category_only]
    losses = [loss for o in detected if (loss := own_loss(o)) is not None]
    timeouts = sum(o.status in ("timeout", "error") for o in detected)
    low = min(losses) if losses else None
    median = statistics.median(losses) if losses else None
    return (f"{which}: {len(detected)} / {len(outcomes)} detected ({timeouts} by timeout or error); "
            f"own method only {len(own)} / {len(detected)}; loss of own method: min "
            f"{'-' if low is None else f'{low:.0%}'}, median {'-' if median is None else f'{median:.0%}'}")


def render(report: Report) -> str:
    """The human-readable report of one variation."""
    lines = [f"== {report.variation}"]
    ref, ref_max = report.reference
    lines.append(f"reference: {ref:g} / {ref_max:g} {'OK' if ref == ref_max and ref_max else 'FAIL'}")
    lines.append(f"starter ({report.starter_source}): {report.starter[0]:g} / {report.starter[1]:g} "
                 f"{'OK' if report.starter[0] == 0 else 'FAIL'}")
    if report.independent is not None:
        got, most = report.independent
        lines.append(f"independent implementation: {got:g} / {most:g} {'OK' if got == most else 'FAIL'}")
    if report.outcomes:
        lines.append(family_line(report, "ast") + f"; {len(report.equivalent())} equivalent survivors")
    if report.bug_outcomes:
        lines.append(family_line(report, "bugs"))
    for outcome in report.outcomes + report.bug_outcomes:
        loss = own_loss(outcome)
        if not outcome.killed:
            reason = report.reasons.get(key(outcome.mutant), "UNEXPLAINED")
            if outcome.mutant.operator == "bug":
                reason = "a catalog bug: must be detected"
            lines.append(f"  survivor {key(outcome.mutant)} | {reason}")
        elif loss is not None and (loss < MIN_LOSS or not outcome.own_category_only):
            lost = ", ".join(f"{c} -{v:.0%}" for c, v in sorted(outcome.lost.items()))
            lines.append(f"  weak or leaking: {key(outcome.mutant)} ({lost})")
    if report.bug_outcomes:
        lines.append("  catalog bugs, loss of own method: " + ", ".join(
            f"{o.mutant.before} {'T/O' if own_loss(o) is None else f'{own_loss(o):.0%}'}"
            for o in report.bug_outcomes))
    if report.constants:
        best = ", ".join(f"{m} {v} {p:g}" for m, (v, p) in report.constants.items() if p)
        lines.append(f"constant answers: {report.constant_total:g} points (at most {CONSTANT_MAX:g})"
                     + (f": {best}" if best else ""))
    for problem in report.failures():
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
