"""The rubric: the tests a submission is scored by, one per rule method and ruling.

A *test* is what a student and an instructor both understand: "can_pick_up,
ruling S3: only the top card or a run moves". Each rule method's points (from
the catalog) are split evenly among its tests; a test earns its points only
when every check in it passes. The tests of a method are:

* one per ruling the method implements (the ruling ids its docstring in the
  reference names) that some hidden trace is made for (the trace's
  ``rulings``): the checks of that method in those traces;
* ``play``: the method's checks in every other trace (seeded deals played out).

A trace made for several of the method's rulings feeds the test of the most
specific one (named by the fewest traces). A test whose right answers are all
alike (every ``can_pick_up`` answer True, say) would pass a constant answer:
it is merged into another test of its method, so that, wherever the method
has both answers, every test holds cases whose right answer is yes and cases
whose right answer is no.

Which checks fall into which test depends on the traces and the reference's
docstrings only, never on a submission: the rubric of a variation is the same
on every machine and for every submission.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solitaire.protocol import BOOL_METHODS
from solitaire.replay import planned
from solitaire.variation import RULE_METHODS

from . import project, pysource

PLAY = "play"
ROOT = project.ROOT
RULES_DOCS = ROOT / "docs" / "rules"
STARTERS = ROOT / "starter"
_RULING = re.compile(r"\b([A-Z]{1,2}[0-9]+)\b")  # S3, MA5, X4: a game's prefix and a number
_BULLET = re.compile(r"^- \*\*([A-Z]{1,2}[0-9]+)\*\*\s+(.*)$")


@dataclass
class RuleTest:
    """One scored test: a rule method and a ruling (or ``play``)."""

    method: str
    ruling: str
    sentence: str
    traces: list[str] = field(default_factory=list)
    points: float = 0.0

    @property
    def id(self) -> str:
        return f"{self.method}/{self.ruling}"

    @property
    def title(self) -> str:
        if self.ruling == PLAY:
            return f"{self.method} · play: {self.sentence}"
        return f"{self.method} · {self.ruling}: {self.sentence}"


@dataclass
class Rubric:
    variation: str
    tests: list[RuleTest]
    cell_test: dict[tuple[str, str], str]  # (trace, method) -> test id

    def test_of(self, trace: str, method: str) -> str | None:
        """The test a check of ``method`` in ``trace`` counts for (None: no test of that method)."""
        found = self.cell_test.get((trace, method))
        if found is not None:
            return found
        mine = [t for t in self.tests if t.method == method]
        if not mine:
            return None
        play = [t for t in mine if t.ruling == PLAY]
        return (play or mine)[0].id

    def by_method(self) -> dict[str, list[RuleTest]]:
        result: dict[str, list[RuleTest]] = {}
        for test in self.tests:
            result.setdefault(test.method, []).append(test)
        return result


def method_rulings(source: str) -> dict[str, list[str]]:
    """The ruling ids each rule method's docstring names, in order (the reference's source)."""
    result: dict[str, list[str]] = {}
    for node in ast.walk(pysource.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name in RULE_METHODS:
            doc = ast.get_docstring(node) or ""
            result[node.name] = list(dict.fromkeys(_RULING.findall(doc)))
    return result


def contract_source(name: str) -> str:
    """The source whose docstrings say which rulings each rule method implements: the starter
    ``starter/<name>.py`` (public, generated from the reference with its docstrings kept, so the
    grader needs no solution to score), or the reference itself where no starter is built yet."""
    starter = STARTERS / f"{name}.py"
    if starter.is_file():
        return starter.read_text(encoding="utf-8")
    from .mutants import reference_source

    return reference_source(name)[1]


def ruling_sentences(name: str, docs: Path = RULES_DOCS) -> dict[str, str]:
    """Each ruling's first sentence, from its bullet on the rules page ``docs/rules/<name>.md``."""
    path = docs / f"{name}.md"
    sentences: dict[str, str] = {}
    if not path.is_file():
        return sentences
    ruling, text = None, []
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        bullet = _BULLET.match(line)
        if bullet or not line.startswith("  "):
            if ruling:
                sentences[ruling] = _first_sentence(" ".join(text))
            ruling, text = (bullet.group(1), [bullet.group(2)]) if bullet else (None, [])
        elif ruling:
            text.append(line.strip())
    return sentences


def _first_sentence(text: str) -> str:
    match = re.search(r"^(.+?[.!?])(\s|$)", text)
    return (match.group(1) if match else text).strip()


PLAY_SENTENCE = "the method's answers in seeded games played out from the deal"


def build(name: str, traces: list[dict[str, Any]], points: dict[str, float], source: str,
          sentences: dict[str, str] | None = None) -> Rubric:
    """The rubric of variation ``name`` for its graded ``traces`` and catalog ``points``."""
    sentences = ruling_sentences(name) if sentences is None else sentences
    rulings_of = method_rulings(source)
    named = Counter(r for trace in traces for r in set(trace.get("rulings", [])))
    cells: dict[tuple[str, str], tuple[str, str]] = {}
    answers: dict[tuple[str, str], set[Any]] = {}
    for trace in traces:
        mine = set(trace.get("rulings", []))
        for method in planned(trace):
            if method not in points:
                continue
            candidates = [r for r in rulings_of.get(method, []) if r in mine]
            ruling = PLAY
            if candidates:
                ruling = min(candidates, key=lambda r: (named[r], rulings_of[method].index(r)))
            cells[(trace["name"], method)] = (method, ruling)
            answers.setdefault((method, ruling), set()).update(_answers(trace, method))
    keys = _merge_constant(sorted(set(cells.values()), key=_order(rulings_of)), answers)
    tests: dict[tuple[str, str], RuleTest] = {}
    for key in sorted(set(keys.values()), key=_order(rulings_of)):
        method, ruling = key
        sentence = PLAY_SENTENCE if ruling == PLAY else sentences.get(ruling, f"ruling {ruling}")
        tests[key] = RuleTest(method, ruling, sentence)
    cell_test: dict[tuple[str, str], str] = {}
    for (trace_name, method), key in cells.items():
        test = tests[keys[key]]
        test.traces.append(trace_name)
        cell_test[(trace_name, method)] = test.id
    ordered = [tests[k] for k in sorted(tests, key=_order(rulings_of))]
    ordered.sort(key=lambda t: list(points).index(t.method))
    _share_points(ordered, points)
    return Rubric(name, ordered, cell_test)


def _order(rulings_of: dict[str, list[str]]) -> Any:
    def key(item: tuple[str, str]) -> tuple[int, int]:
        method, ruling = item
        order = rulings_of.get(method, [])
        return RULE_METHODS.index(method), order.index(ruling) if ruling in order else len(order)
    return key


def _answers(trace: dict[str, Any], method: str) -> set[Any]:
    """The kinds of right answer ``method`` gives in ``trace``: True/False, or "some"/"none" actions."""
    found: set[Any] = set()
    for step in trace["steps"]:
        for probe in step.get("probes", ()):
            if probe["method"] == method:
                expect = probe["expect"]
                found.add(expect if isinstance(expect, bool) else ("some" if expect else "none"))
        if method == "is_won" and "won" in step:
            found.add(step["won"])
        if method == "special_moves" and step.get("action"):
            found.add("some" if step["legal"] else "none")
    return found


def _merge_constant(keys: list[tuple[str, str]], answers: dict[tuple[str, str], set[Any]]
                    ) -> dict[tuple[str, str], tuple[str, str]]:
    """Map each test key to the key it is scored under: a test whose right answers are all alike
    joins another test of its method (``play`` first), where one exists."""
    result = {key: key for key in keys}
    for key in keys:
        method, _ruling = key
        if method not in BOOL_METHODS and method != "special_moves":
            continue
        if len(answers.get(key, set())) > 1:
            continue
        others = [k for k in keys if k[0] == method and k != key and result[k] == k]
        if not others:
            continue
        play = [k for k in others if k[1] == PLAY]
        into = (play or sorted(others, key=lambda k: -len(answers.get(k, set()))))[0]
        for k, v in result.items():
            if v == key:
                result[k] = into
        answers.setdefault(into, set()).update(answers.get(key, set()))
    return result


def _share_points(tests: list[RuleTest], points: dict[str, float]) -> None:
    """Split each method's points evenly among its tests, in hundredths that add up exactly."""
    by_method: dict[str, list[RuleTest]] = {}
    for test in tests:
        by_method.setdefault(test.method, []).append(test)
    for method, mine in by_method.items():
        cents = round(float(points[method]) * 100)
        share, extra = divmod(cents, len(mine))
        for index, test in enumerate(mine):
            test.points = (share + (1 if index < extra else 0)) / 100
