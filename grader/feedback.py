"""Feedback a student can act on: per rule method its tests, and for each failed test one example.

For a failed test the feedback names its ruling (id and sentence) and shows
its *first* failing check only: the board before it as a player at the table
sees it (face-down cards and the stock below its top card as ``##``), the
move or the call, what was expected against what the submission answered, a
short why where one can be derived, and a command that replays the position
in the student's own repo. Nothing more of the hidden traces is revealed.
How much is shown is configurable (catalog ``[grading] feedback``):
``first_failure``, ``counts`` or ``none``.

One model (:mod:`grader.feedback_model`), two templates
(:mod:`grader.feedback_render`): ``feedback.md`` and ``feedback.html`` show
the same things. The functions here are the Markdown entry points the grader
and its tests use. Everything the submission produced (answers, exception
messages) is escaped with :mod:`grader.sanitize` where it is rendered.
"""

from __future__ import annotations

from typing import Any

from . import feedback_model, feedback_render
from .feedback_model import READING_GUIDE, table_view, why
from .scoring import MethodScore, TestScore

__all__ = ["READING_GUIDE", "describe_failure", "feedback_markdown", "rule_test_output", "table_view", "why"]


def describe_failure(failure: dict[str, Any], variation: str) -> str:
    """One failing check, in Markdown: where, the board before, the call, expected vs actual, why,
    and how to replay the position."""
    test = {"total": 1, "ok": False, "score": 0, "max_score": 0, "passed": 0, "about": "",
            "failure": feedback_model.failure(failure)}
    text = feedback_render.test_markdown(test, "first_failure", variation)
    return text.split("\n\n", 2)[2]  # without the head and the ruling of the test around it


def rule_test_output(item: TestScore, level: str, variation: str) -> str:
    """The output of one test (Gradescope's test output, and its section in feedback.md)."""
    return feedback_render.test_markdown(feedback_model.test(item), level, variation)


def feedback_markdown(title: str, rules_file: str, variation: str, methods: list[MethodScore], level: str,
                      notes: list[str] | None = None, not_run: bool = False) -> str:
    """The whole ``feedback.md`` (``not_run``: no rule was tested at all; the first note says why)."""
    items = [feedback_model.note(n) for n in notes or []]
    headline = items.pop(0) if not_run and items else None
    model = feedback_model.build(title, rules_file, variation, methods, level, items, headline=headline)
    return feedback_render.markdown(model)
