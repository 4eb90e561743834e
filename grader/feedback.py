"""Feedback a student can act on: per rule category, the points and one failing example.

For a category that lost points the feedback shows the *first* failing check
only: the board before it (canonical state notation), the move, the question
asked and what was expected against what the submission answered. Nothing
more of the hidden traces is revealed. How much is shown is configurable
(catalog ``[grading] feedback``): ``first_failure``, ``counts`` or ``none``.
"""

from __future__ import annotations

from typing import Any

from .scoring import CategoryScore, total

READING_GUIDE = (
    "Boards are in the canonical state notation: the variation and its options, then "
    "`phase` and the counters, then one line per pile (bottom card first, top card last); "
    "a card in lower case is face down. Moves: `t3>f2` moves the top card of t3 onto f2, "
    "`t4:3>t7` the top three cards of t4, `deal`, `redeal` and `s>w` are actions. "
    "Replay a position yourself with `solitaire play` or your public tests."
)


def _points(value: float) -> str:
    return f"{value:g}"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def describe_failure(failure: dict[str, Any]) -> str:
    """One failing check, in Markdown: where, the board before, the move, expected vs actual."""
    step = failure.get("step")
    where = "at the start" if step is None else f"step {step}"
    lines = [f"First failing check (hidden trace `{failure.get('trace')}`, {where}): "
             f"{failure.get('subject')}."]
    before = failure.get("before")
    if before:
        lines += ["", "Board before it:", "", "```", before.rstrip("\n"), "```"]
    move = failure.get("move")
    if move:
        if failure.get("kind") in ("probe", "moves"):
            lines += ["", f"(asked before the move `{move}` is played)"]
        else:
            lines += ["", f"Move: `{move}`"]
    expected, actual = failure.get("expected"), failure.get("actual")
    if isinstance(expected, (bool, list)) or (isinstance(actual, (bool, list)) and expected is not None):
        lines += ["", f"Expected: `{_value(expected)}`; your code: "
                  f"`{_value(actual) if actual is not None else 'no answer'}`"]
    lines += ["", f"What went wrong: {failure.get('message') or 'a different answer'}"]
    return "\n".join(lines)


def category_output(item: CategoryScore, level: str) -> str:
    """The output of one category's Gradescope test."""
    if not item.total:
        return "Not tested: no hidden check exercises this rule (please tell your instructor)."
    head = f"{_points(item.score)} / {_points(item.max_score)} points"
    if level == "none":
        return head + "."
    head += f"; {item.passed} of {item.total} checks passed."
    if item.passed == item.total:
        return head + " All checks passed."
    if level == "counts" or not item.first_failure:
        return head
    return head + "\n\n" + describe_failure(item.first_failure)


def feedback_markdown(title: str, rules_file: str, scores: list[CategoryScore], level: str,
                      notes: list[str] | None = None) -> str:
    """The whole ``feedback.md``."""
    maximum = sum(s.max_score for s in scores)
    lines = [f"# Feedback: {title} (`{rules_file}`)", "",
             f"**Total: {_points(total(scores))} / {_points(maximum)}**", ""]
    for note in notes or []:
        lines += [f"> {note}", ""]
    lines += ["| rule | points | checks passed |", "| --- | --- | --- |"]
    for item in scores:
        checks = f"{item.passed} / {item.total}" if level != "none" else ""
        lines.append(f"| {item.test_name} | {_points(item.score)} / {_points(item.max_score)} | {checks} |")
    for item in scores:
        lines += ["", f"## {item.test_name}", "", category_output(item, level)]
    if level == "first_failure" and any(s.passed < s.total for s in scores):
        lines += ["", "---", "", READING_GUIDE]
    return "\n".join(lines) + "\n"
