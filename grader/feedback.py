"""Feedback a student can act on: per rule method its tests, and for each failed test one example.

For a failed test the feedback names its ruling (id and sentence) and shows
its *first* failing check only: the board before it as a player at the table
sees it (face-down cards and the stock below its top card as ``##``), the
move or the call, what was expected against what the submission answered, a
short why where one can be derived, and a command that replays the position
in the student's own repo. Nothing more of the hidden traces is revealed.
How much is shown is configurable (catalog ``[grading] feedback``):
``first_failure``, ``counts`` or ``none``.

Everything the submission produced (answers, exception messages) is escaped
with :mod:`grader.sanitize` where it is rendered.
"""

from __future__ import annotations

import re
from typing import Any

from solitaire.errors import InvalidNotation
from solitaire.state import parse_state

from . import sanitize
from .rubric import PLAY
from .scoring import MethodScore, TestScore, maximum, total

READING_GUIDE = (
    "Boards are in the canonical state notation: the variation and its options, then "
    "`phase` and the counters, then one line per pile (bottom card first, top card last). "
    "`##` is a card a player cannot see (face down, or in the stock below its top card). "
    "Moves: `t3>f2` moves the top card of t3 onto f2, `t4:3>t7` the top three cards of t4, "
    "`deal`, `redeal` and `s>w` are actions."
)
_HIDDEN_CARD = re.compile(r"^[a2-9tjqk][cdhs]$")


def _points(value: float) -> str:
    return f"{value:g}"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def table_view(state: str) -> str:
    """``state`` as a player at the table sees it: every face-down card shown as ``##``."""
    lines = []
    for line in state.splitlines():
        name, sep, cards = line.partition(":")
        if sep and cards.strip():
            shown = ["##" if _HIDDEN_CARD.match(token) else token for token in cards.split()]
            line = f"{name}: {' '.join(shown)}"
        lines.append(line)
    return "\n".join(lines)


def why(expected: Any, actual: Any) -> str:
    """A short reason for two different states, where one can be read off them ('' if none)."""
    try:
        want, got = parse_state(str(expected)), parse_state(str(actual))
    except InvalidNotation:
        return ""
    reasons = []
    for name, pile in want.piles.items():
        mine = got.piles.get(name)
        if mine is None or mine == pile:
            continue
        if mine.cards == pile.cards:
            turned = mine.down > pile.down
            reasons.append(f"{name}: a card should be face {'up' if turned else 'down'}")
        elif len(pile.cards) > 1 and mine.cards == pile.cards[::-1]:
            reasons.append(f"the cards of {name} are in reverse order")
        elif sorted(map(str, mine.cards)) == sorted(map(str, pile.cards)):
            reasons.append(f"{name} holds the right cards in the wrong order")
    if (want.phase, want.counters) != (got.phase, got.counters):
        wanted = " ".join([want.phase, *(f"{k}={v}" for k, v in sorted(want.counters.items()))])
        reasons.append(f"the phase or counters differ (expected `{wanted}`)")
    return "; ".join(reasons[:3])


def describe_failure(failure: dict[str, Any], variation: str) -> str:
    """One failing check, in Markdown: where, the board before, the call, expected vs actual, why,
    and how to replay the position."""
    step = failure.get("step")
    where = "at the start" if step is None else f"step {step}"
    lines = [f"First failing check (hidden trace `{failure.get('trace')}`, {where}): "
             f"{sanitize.markdown(failure.get('subject'))}."]
    before = failure.get("before")
    kind = failure.get("kind")
    if before:
        board = before.rstrip("\n") if kind == "deal" else table_view(before)
        lines += ["", "Board before it (as a player sees it):", "", sanitize.code_block(board)]
    move = failure.get("move")
    if move:
        if kind in ("probe", "moves"):
            lines += ["", f"(asked before the move {sanitize.code(move)} is played)"]
        else:
            lines += ["", f"Move: {sanitize.code(move)}"]
    expected, actual = failure.get("expected"), failure.get("actual")
    if isinstance(expected, (bool, list)) or (isinstance(actual, (bool, list)) and expected is not None):
        yours = _value(actual) if actual is not None else "no answer"
        lines += ["", f"Expected: {sanitize.code(_value(expected))}; your code: {sanitize.code(yours)}"]
    # in a code span: as readable in the raw file as rendered, and nothing in it can render
    message = failure.get("message") or "a different answer"
    lines += ["", f"What went wrong: {sanitize.code(message, 1500)}"]
    reason = why(expected, actual)
    if reason:
        lines += ["", f"Why: {sanitize.markdown(reason)}"]
    if before and kind != "deal":
        lines += ["", "To replay this position: save the board below (the full board, face-down cards "
                  f"included) as `board.txt` in your repo and run `python -m solitaire play {variation} "
                  "--state board.txt`.", "", sanitize.code_block(before.rstrip("\n"))]
    return "\n".join(lines)


def rule_test_output(item: TestScore, level: str, variation: str) -> str:
    """The output of one test (Gradescope's test output, and its section in feedback.md)."""
    head = f"{_points(item.score)} / {_points(item.max_score)} points"
    ruling = item.test.ruling
    about = ("Random play: " if ruling == PLAY else f"Ruling {ruling}: ") + item.test.sentence
    if not item.total:
        return (f"{head}. {about}\n\nNot tested: no hidden check reached this test "
                "(please tell your instructor).")
    if item.ok:
        return f"{head}. {about}\n\nPassed."
    if level == "none":
        return f"{head}. {about}"
    head += f"; {item.passed} of {item.total} checks passed (the test needs all)."
    if level == "counts" or not item.first_failure:
        return f"{head}\n\n{about}"
    return f"{head}\n\n{about}\n\n" + describe_failure(item.first_failure, variation)


def feedback_markdown(title: str, rules_file: str, variation: str, methods: list[MethodScore], level: str,
                      notes: list[str] | None = None, not_run: bool = False) -> str:
    """The whole ``feedback.md`` (``not_run``: no rule was tested at all; the notes say why, once)."""
    lines = [f"# Feedback: {title} (`{rules_file}`)", "",
             f"**Total: {_points(total(methods))} / {_points(maximum(methods))}**", ""]
    for note in notes or []:
        lines += [f"> {note}", ""]
    lines += ["Each rule method's points are split among its tests (one per ruling it implements, and "
              "random play); a test earns its points only when every one of its checks passes.", "",
              "| rule method | tests passed | points |", "| --- | --- | --- |"]
    for method in methods:
        passed = sum(t.ok for t in method.tests)
        lines.append(f"| {method.title} | {passed} / {len(method.tests)} | "
                     f"{_points(method.score)} / {_points(method.max_score)} |")
    for method in methods:
        lines += ["", f"## {method.title}: {_points(method.score)} / {_points(method.max_score)}", ""]
        for item in method.tests:
            mark = "passed" if item.ok else "FAILED"
            lines.append(f"- {mark}: {item.test.title} ({_points(item.score)} / {_points(item.max_score)})")
        for item in method.tests:
            if not item.ok and level != "none" and not not_run:
                lines += ["", f"### FAILED {item.test.title}", "", rule_test_output(item, level, variation)]
    if level == "first_failure" and not not_run and any(not t.ok for m in methods for t in m.tests):
        lines += ["", "---", "", READING_GUIDE]
    return "\n".join(lines) + "\n"
