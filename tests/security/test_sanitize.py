"""grader.sanitize fuzzed over arbitrary text and bytes, and the boundary that applies it.

What must hold for anything a student can produce: no exception, strict UTF-8,
no control / bidi / invisible character left, the length cap kept, ``text``
idempotent; ``markdown`` renders as plain text (no raw ``<``, no emphasis, no
link); ``code`` cannot be closed from inside.
"""

from __future__ import annotations

import json
import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from security_support import DEALT

from grader import sanitize
from grader.sandbox.channel import MAX_TEXT, check_reply

DANGEROUS = ("\x00", "\x1b", "\x7f", "\x85", "\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f",
             "\u061c", "\u200b", "\u200d", "\ufeff", "\u2028", "\udc80", "\r")
PIECES = [*DANGEROUS, "a", " ", "\n", "\t", "*", "_", "`", "<", ">", "&", "[", "]", "(", ")", "#", "|", ":",
          "javascript:", "\\", "\\u202e", "\U000e0041", "\ud800", "&lt;", sanitize.CUT]
every_code_point = st.text(alphabet=st.characters(exclude_categories=()))  # lone surrogates too
anything = st.one_of(every_code_point, st.binary(), st.lists(st.sampled_from(PIECES)).map("".join))
limits = st.integers(min_value=len(sanitize.CUT) + 1, max_value=300)
FUZZ = settings(max_examples=300, deadline=None)


def _bad_characters(value: str, multiline: bool) -> list[str]:
    allowed = {"\n", "\t"} if multiline else set()
    return [c for c in value if c not in allowed and (
        unicodedata.category(c) in sanitize.ESCAPED_CATEGORIES | {"Cs"})]


@FUZZ
@given(anything, limits, st.booleans())
def test_text_is_safe_capped_and_idempotent(value, limit, multiline):
    out = sanitize.text(value, limit, multiline=multiline)
    out.encode("utf-8", "strict")
    assert _bad_characters(out, multiline) == []
    assert len(out) <= limit
    assert sanitize.text(out, limit, multiline=multiline) == out
    if multiline:  # a multi-line text stays one when sanitised as one line, escaped once more
        assert "\n" not in sanitize.text(out, limit)


@FUZZ
@given(st.text(alphabet=st.characters(categories=["L", "N", "P", "S", "Zs"]), max_size=200))
def test_text_leaves_safe_text_alone(value):
    assert sanitize.text(value, 500) == value


@pytest.mark.parametrize(("raw", "shown"), [
    ("a\udc80b", "a\ufffdb"), (b"a\xffb", "a\ufffdb"), ("x\x00y", "x\\x00y"), ("\x1b[31mred", "\\x1b[31mred"),
    ("abc\u202edef", "abc\\u202edef"), ("zero\u200bwidth", "zero\\u200bwidth"), ("a\nb\tc", "a\\x0ab\\x09c"),
    ("tag\U000e0041", "tag\\U000e0041"), ("\x9bC1", "\\x9bC1"),
])
def test_text_examples(raw, shown):
    assert sanitize.text(raw) == shown


@pytest.mark.parametrize("multiline", [False, True])
def test_the_ascii_fast_path_escapes_as_the_per_character_path(multiline):
    """Short ASCII text skips the per-character scan: every ASCII character, alone and among others,
    must come out as the scan makes it, and text one character over the limit is still cut."""
    for point in range(128):
        for value in (chr(point), f"ab{chr(point)}cd"):
            expected = "".join(sanitize._pieces(value, multiline))
            assert sanitize.text(value, multiline=multiline) == expected, point
    assert sanitize.text("x" * 20, 20, multiline=multiline) == "x" * 20
    assert sanitize.text("x" * 21, 20, multiline=multiline) == "x" * 11 + sanitize.CUT


def test_text_keeps_lines_when_asked_and_cuts_visibly():
    assert sanitize.text("a\nb\tc\r\n", multiline=True) == "a\nb\tc\\x0d\n"
    long = sanitize.text("x" * 1000, 100)
    assert len(long) == 100 and long.endswith(sanitize.CUT)
    escaped = sanitize.text("\x00" * 50, 20)  # an escape is never cut in half
    assert escaped == "\\x00" * 2 + sanitize.CUT


def test_text_of_a_hostile_object():
    class Hostile:
        def __str__(self):
            raise RuntimeError("no")

    assert sanitize.text(Hostile()) == "<unprintable Hostile>"


_RAW_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")


@FUZZ
@given(anything, limits)
def test_markdown_renders_as_plain_text(value, limit):
    out = sanitize.markdown(value, limit)
    out.encode("utf-8", "strict")
    assert _bad_characters(out, multiline=False) == []
    assert "<" not in out and ">" not in out
    assert re.search(r"&(?!amp;|lt;|gt;)", out) is None  # every & is one of our entities
    for special in "*_`[]#|~:!":  # each one escaped by a backslash (itself not escaped); ( ) need not
        # be: with [ ] escaped no link can form
        for match in re.finditer(re.escape(special), out):
            slashes = len(out[:match.start()]) - len(out[:match.start()].rstrip("\\"))
            assert slashes % 2 == 1, (special, out)
    assert "**" not in out.replace("\\*", "") and "javascript:" not in out
    assert _RAW_LINK.search(out) is None


@pytest.mark.parametrize(("raw", "shown"), [
    ("**Total: 100 / 100**", "\\*\\*Total\\: 100 / 100\\*\\*"),
    ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
    ("[click](javascript:alert(1))", "\\[click\\](javascript\\:alert(1))"),
    ("# Heading\n| a | b |", "\\# Heading\\\\x0a\\| a \\| b \\|"),
    ("a & b &lt;", "a &amp; b &amp;lt;"),
])
def test_markdown_examples(raw, shown):
    assert sanitize.markdown(raw) == shown


def _span_content(span: str) -> str:
    """The text a CommonMark renderer shows for a code span made by :func:`sanitize.code`."""
    fence = re.match(r"`+", span).group()
    assert span.endswith(fence) and len(span) > 2 * len(fence)
    inner = span[len(fence):-len(fence)]
    assert re.search(r"(?<!`)" + fence + r"(?!`)", inner) is None  # nothing inside closes the span
    if inner.startswith(" ") and inner.endswith(" ") and inner.strip(" "):
        inner = inner[1:-1]
    return inner


@FUZZ
@given(anything, limits)
def test_code_cannot_be_closed_from_inside(value, limit):
    span = sanitize.code(value, limit)
    assert "\n" not in span and _bad_characters(span, multiline=False) == []
    safe = sanitize.text(value, limit)
    if safe.strip(" "):
        assert _span_content(span) == safe


@FUZZ
@given(anything)
def test_code_block_cannot_be_closed_from_inside(value):
    block = sanitize.code_block(value, 200)
    lines = block.split("\n")
    fence = lines[0][:len(lines[0]) - len("text")]
    assert set(fence) == {"`"} and lines[-1] == fence and len(fence) >= 3
    assert not any(line.strip().startswith(fence) for line in lines[1:-1])
    assert _bad_characters(block, multiline=True) == []


def test_code_in_a_table_escapes_the_bar():
    assert sanitize.code("a|b", table=True) == "`a\\|b`"
    assert sanitize.code("``x") == "``` ``x ```"


# -- the boundary: every string of a worker reply is sanitised as it is parsed ------------------


@FUZZ
@given(every_code_point, every_code_point, every_code_point, st.lists(every_code_point, max_size=5),
       every_code_point)
def test_replies_leave_the_channel_sanitised(error, message, method, moves, state):
    failed = check_reply(json.dumps({"ok": False, "error": error, "message": message, "method": method,
                                     "id": 3}).encode(), expected_id=3)
    for key in ("error", "message", "method"):
        assert failed[key] == sanitize.text(failed[key]) and len(failed[key]) <= MAX_TEXT
        assert _bad_characters(failed[key], multiline=False) == []
    answered = check_reply(json.dumps({"ok": True, "value": moves, "state": state, "id": 1}).encode(),
                           expected_id=1)
    assert all(_bad_characters(move, multiline=False) == [] for move in answered["value"])
    assert _bad_characters(answered["state"], multiline=True) == []
    json.dumps(failed, ensure_ascii=False).encode("utf-8", "strict")
    json.dumps(answered, ensure_ascii=False).encode("utf-8", "strict")


def test_a_correct_answer_is_not_changed_by_the_boundary():
    line = json.dumps({"ok": True, "state": DEALT, "value": ["t1>t2", "deal"], "id": 1}).encode()
    reply = check_reply(line, expected_id=1)
    assert reply == {"ok": True, "state": DEALT, "value": ["t1>t2", "deal"]}


def test_a_lone_surrogate_from_the_pipe_is_replaced():
    line = b'{"ok": false, "error": "Boom\\udc80", "message": "bad \\udc80\\u202e\\u001b[2J", "id": 1}'
    reply = check_reply(line, expected_id=1)
    assert reply["error"] == "Boom\ufffd" and reply["message"] == "bad \ufffd\\u202e\\x1b[2J"
