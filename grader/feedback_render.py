"""Render the feedback model (:mod:`grader.feedback_model`) as Markdown and as HTML, and write the files.

Two jinja2 templates in ``grader/templates`` over one model: ``feedback.md.j2``
(autoescape off; what a submission produced goes through the Markdown escapes
of :mod:`grader.sanitize`) and ``feedback.html.j2`` (autoescape on, and the
same text through :func:`grader.sanitize.text` first). The HTML is one
self-contained page: its CSS is inline, cards are drawn with CSS, there is no
script, font, image or link to fetch.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from . import sanitize
from .feedback_model import points

TEMPLATES = Path(__file__).resolve().parent / "templates"
FILES = ("feedback.md", "feedback.html", "feedback.json")


def _clean(value: Any, limit: int = sanitize.DEFAULT_LIMIT) -> str:
    return sanitize.text(value, limit)


def _clean_block(value: Any, limit: int = 4000) -> str:
    return sanitize.text(value, limit, multiline=True)


@cache
def _environment(html: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=html, trim_blocks=True,
        lstrip_blocks=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
    )
    env.filters["pts"] = points
    if html:
        env.filters["clean"] = _clean
        env.filters["clean_block"] = _clean_block
    else:
        env.filters["md"] = sanitize.markdown
        env.filters["code"] = sanitize.code
        env.filters["code_block"] = sanitize.code_block
    return env


def markdown(model: dict[str, Any]) -> str:
    """``feedback.md`` of ``model``."""
    return _environment(False).get_template("feedback.md.j2").render(m=model)


def test_markdown(test: dict[str, Any], level: str, variation: str) -> str:
    """The Markdown of one test of the model (Gradescope's test output, and its section in feedback.md)."""
    module = _environment(False).get_template("feedback.md.j2").make_module({"test_only": True})
    return str(module.test_output(test, level, variation)).strip("\n")  # type: ignore[attr-defined]


def html(model: dict[str, Any]) -> str:
    """``feedback.html`` of ``model``."""
    return _environment(True).get_template("feedback.html.j2").render(m=model)


def write(out: Path, model: dict[str, Any]) -> None:
    """Write ``feedback.md``, ``feedback.html`` and the model itself (``feedback.json``) into ``out``."""
    (out / "feedback.md").write_text(markdown(model), encoding="utf-8")
    (out / "feedback.html").write_text(html(model), encoding="utf-8")
    (out / "feedback.json").write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")


def read(out: Path) -> dict[str, Any] | None:
    """The model written into ``out`` by :func:`write`, or None (none there, or unreadable)."""
    try:
        model = json.loads((out / "feedback.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return model if isinstance(model, dict) and "methods" in model else None
