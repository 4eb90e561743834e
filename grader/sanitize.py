"""Student text made safe once, where it enters the trusted side, and escaped where it is rendered.

Anything a submission can produce (exception messages and type names, printed
output, answers, file names) may hold invalid Unicode, terminal escape codes,
NUL, right-to-left overrides, Markdown and HTML. Three functions:

* :func:`text` is applied ONCE at the sandbox boundary (grader/sandbox/channel.py
  and worker.py): invalid Unicode is replaced, control and invisible formatting
  characters are shown as escapes (``\\x1b``, ``\\u202e``), the length is capped
  with a visible marker. Its output always encodes to UTF-8 and holds nothing
  that can move a terminal's cursor or reorder text; it is idempotent, so
  applying it again (a caller unsure whether a string was sanitised) is harmless.
* :func:`markdown` escapes inline Markdown and HTML for text shown in
  ``feedback.md`` (or any Markdown field of results.json).
* :func:`code` and :func:`code_block` wrap text in a code span or a fenced code
  block it cannot close.

``text`` never escapes a backslash (that would break idempotence): the escape
``\\u202e`` in its output and the same six characters typed by a student look
alike. That is fine: the point is that neither is the character itself.
"""

from __future__ import annotations

import re
import unicodedata

CUT = "... (cut)"
DEFAULT_LIMIT = 500
# Unicode categories shown escaped: controls, format characters (bidi marks and overrides, zero
# width, BOM, tags), line/paragraph separators, private use, unassigned (and noncharacters).
ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cn"})
MULTILINE_KEPT = frozenset("\n\t")
# The only ASCII characters escaped (all of category Cc); the rest of ASCII is kept as it is.
_ASCII_ESCAPED = re.compile(r"[\x00-\x1f\x7f]")
_ASCII_ESCAPED_MULTILINE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # \t and \n kept


def _escape(char: str) -> str:
    point = ord(char)
    if point < 0x100:
        return f"\\x{point:02x}"
    if point < 0x10000:
        return f"\\u{point:04x}"
    return f"\\U{point:08x}"


def _pieces(value: str, multiline: bool) -> list[str]:
    """``value`` split into kept characters and escapes (an escape is never cut in half)."""
    kept = MULTILINE_KEPT if multiline else frozenset()
    out: list[str] = []
    for char in value:
        if 0xD800 <= ord(char) <= 0xDFFF:  # a lone surrogate (category Cs): invalid Unicode
            out.append("\ufffd")
        elif char in kept or unicodedata.category(char) not in ESCAPED_CATEGORIES:
            out.append(char)
        else:
            out.append(_escape(char))
    return out


def _as_str(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", "replace")
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - a hostile __str__: say so instead of failing
        return f"<unprintable {type(value).__name__}>"


def text(value: object, limit: int = DEFAULT_LIMIT, *, multiline: bool = False) -> str:
    """``value`` (str, bytes or anything with a ``str``) as safe text of at most ``limit`` characters.

    Invalid Unicode (lone surrogates, undecodable bytes) becomes U+FFFD; control
    characters (C0, DEL, C1, so NUL and ESC too), format characters (bidi
    embeddings, overrides, isolates and marks, zero-width characters, BOM),
    line/paragraph separators, private-use and unassigned code points are shown
    as escapes. ``multiline`` keeps ``\\n`` and ``\\t``; otherwise they are
    escaped too (``\\r`` always is). Longer text is cut, ending with
    :data:`CUT`. Never raises (for str and bytes); ``text(text(x)) == text(x)``.
    """
    if limit < len(CUT) + 1:
        raise ValueError(f"limit must be at least {len(CUT) + 1}")
    value = _as_str(value)
    # Fast path (every answer of an honest worker): short ASCII with no control character to escape.
    if len(value) <= limit and value.isascii():
        if not (_ASCII_ESCAPED_MULTILINE if multiline else _ASCII_ESCAPED).search(value):
            return value
    # Every character gives at least one output character: limit + 1 of them decide the cut.
    pieces = _pieces(value[:limit + 1], multiline)
    if sum(len(p) for p in pieces) <= limit:
        return "".join(pieces)
    room = limit - len(CUT)
    kept: list[str] = []
    for piece in pieces:
        if len(piece) > room:
            break
        kept.append(piece)
        room -= len(piece)
    return "".join(kept) + CUT


# Every ASCII punctuation character that means something in CommonMark, GitHub Markdown (tables,
# strikethrough, autolinks, math) or at the start of a line (headings, lists, quotes, setext
# underlines). A backslash before ASCII punctuation always renders the character itself.
# ( ) stay as they are: with [ ] escaped they cannot make a link, and messages read better
_MARKDOWN_SPECIAL = re.compile(r"[\\`*_{}\[\]#+\-.!|~:=$@^]")
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def markdown(value: object, limit: int = DEFAULT_LIMIT) -> str:
    """``value`` as one line of inline Markdown that renders as exactly its text.

    The text is :func:`text` (single line: no line breaks, so it can never start
    a heading, list, quote or table row); then ``& < >`` become HTML entities
    (no tag, no comment, no entity of the student's) and Markdown punctuation is
    backslash-escaped: no emphasis, code, link, image, autolink
    (``javascript\\:``, ``www\\.``), table cell break, heading or list marker.
    Safe anywhere inline, table cells included. Not idempotent (it is an escaping).
    """
    safe = text(value, limit)
    safe = "".join(_HTML.get(char, char) for char in safe)
    return _MARKDOWN_SPECIAL.sub(lambda match: "\\" + match.group(), safe)


def _longest_run(value: str, char: str) -> int:
    runs = re.findall(re.escape(char) + "+", value)
    return max((len(run) for run in runs), default=0)


def code(value: object, limit: int = DEFAULT_LIMIT, *, table: bool = False) -> str:
    """``value`` as a complete inline code span, delimiters included (`` `x` ``).

    The delimiter is one backtick more than the longest run of backticks in the
    text, so the text cannot close the span; it is single-line :func:`text`, so
    it cannot end the paragraph either. ``table``: the span sits in a GitHub
    table cell, where ``|`` must be escaped even inside code.
    """
    safe = text(value, limit)
    if table:
        safe = safe.replace("|", "\\|")
    fence = "`" * (_longest_run(safe, "`") + 1)
    pad = " " if safe.startswith(("`", " ")) or safe.endswith(("`", " ")) or not safe else ""
    return f"{fence}{pad}{safe}{pad}{fence}"


def code_block(value: object, limit: int = 4000) -> str:
    """``value`` as a complete fenced code block (fences included, no trailing newline).

    Multi-line :func:`text`; the fence is longer than any run of backticks in
    it (at least three), so no line of the text can close the block.
    """
    safe = text(value, limit, multiline=True)
    fence = "`" * max(3, _longest_run(safe, "`") + 1)
    return f"{fence}text\n{safe}\n{fence}"
