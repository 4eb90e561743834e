"""The feedback of one submission as plain data: what ``feedback.md`` and ``feedback.html`` both show.

:func:`build` turns the scored tests (:mod:`grader.scoring`) into a tree of
dicts, lists, strings and numbers; the two templates in ``grader/templates``
render that same tree (:mod:`grader.feedback_render`). Being JSON, the tree is
also written beside them (``feedback.json``), so that the course workflow can
render both files again with the late penalty and the final grade
(:func:`with_late`) without grading again.

What the tree holds about a hidden trace is what the Markdown always showed:
the board before the first failing check (as a player sees it, and the full
board to replay it), the move or call, the answers and the message. Boards
after a move (expected and actual) are kept only as a player sees them: a
face-down card is a back, never its identity.

Strings the submission produced (answers, messages) are kept as the sandbox
sanitised them; each template escapes them for its own format.
"""

from __future__ import annotations

from typing import Any

from solitaire.cards import RANK_LETTERS, Card
from solitaire.errors import InvalidNotation
from solitaire.state import State, parse_state

from .course.scores import final_score
from .rubric import PLAY
from .scoring import MethodScore, TestScore, maximum, total

VERSION = 1
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
#: what a failing check compares, by the replay's kind of check (solitaire.replay.Check)
STATE_KINDS = ("deal", "action", "effects")
READING_GUIDE = (
    "Boards are in the canonical state notation: the variation and its options, then "
    "`phase` and the counters, then one line per pile (bottom card first, top card last). "
    "`##` is a card a player cannot see (face down, or in the stock below its top card). "
    "Moves: `t3>f2` moves the top card of t3 onto f2, `t4:3>t7` the top three cards of t4, "
    "`deal`, `redeal` and `s>w` are actions."
)


def points(value: float) -> str:
    """A number of points as written in the feedback (``12.5``, ``100``)."""
    return f"{value:g}"


def answer(value: Any) -> str:
    """An answer (bool, list of moves, anything else) as one line of text."""
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
            shown = ["##" if _is_down(token) else token for token in cards.split()]
            line = f"{name}: {' '.join(shown)}"
        lines.append(line)
    return "\n".join(lines)


def _is_down(token: str) -> bool:
    return len(token) == 2 and token[0] in "a23456789tjqk" and token[1] in "cdhs"


def card(value: Card | None) -> dict[str, Any]:
    """A card as the templates draw it; ``None``: a face-down card (its identity is not kept)."""
    if value is None:
        return {"down": True, "label": "face-down card"}
    rank = RANK_LETTERS[value.rank - 1]
    rank_name = RANK_NAMES.get(value.rank, str(value.rank))
    return {"down": False, "text": str(value), "rank": "10" if rank == "T" else rank, "suit": value.suit,
            "symbol": SUIT_SYMBOLS[value.suit], "red": value.is_red,
            "label": f"{rank_name} of {SUIT_NAMES[value.suit]} ({value})"}


def _parse(text: Any) -> State | None:
    if not isinstance(text, str):
        return None
    try:
        return parse_state(text)
    except (InvalidNotation, ValueError):
        return None


def board(state: State, differing: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A state as a player sees it: its header, then per pile its name and cards (face-down: backs),
    ``differs`` marking the piles in ``differing``."""
    options = " ".join(f"{k}={v}" for k, v in sorted(state.options.items()))
    counters = " ".join(f"{k}={v}" for k, v in sorted(state.counters.items()))
    piles = []
    for name, pile in state.piles.items():
        cards = [card(c if i >= pile.down else None) for i, c in enumerate(pile.cards)]
        piles.append({"name": name, "cards": cards, "differs": name in differing})
    return {"variation": state.variation, "options": options, "phase": state.phase, "counters": counters,
            "piles": piles}


def differing_piles(want: State, got: State) -> list[str]:
    """The piles whose cards or face-down count differ between two states (in layout order)."""
    return [name for name, pile in want.piles.items() if got.piles.get(name) != pile]


def why(expected: Any, actual: Any) -> str:
    """A short reason for two different states, where one can be read off them ('' if none)."""
    want, got = _parse(expected), _parse(actual)
    if want is None or got is None:
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


def _compare(expected: Any, actual: Any) -> dict[str, Any] | None:
    """Expected and actual boards with the differing piles marked (both must be states)."""
    want, got = _parse(expected), _parse(actual)
    if want is None or got is None or want == got:
        return None
    differing = differing_piles(want, got)
    extra = [name for name in got.piles if name not in want.piles]
    marked = frozenset(differing + extra)
    return {"expected": board(want, marked), "actual": board(got, marked), "differing": differing + extra,
            "header_differs": (want.phase, want.counters) != (got.phase, got.counters)}


def _moves(expected: Any, actual: Any) -> dict[str, Any] | None:
    """Two sets of legal moves: the ones missing and the ones extra in the submission's answer."""
    if not (isinstance(expected, list) and isinstance(actual, list)):
        return None
    want, got = [str(m) for m in expected], [str(m) for m in actual]
    return {"missing": [m for m in want if m not in got], "extra": [m for m in got if m not in want]}


def failure(check: dict[str, Any]) -> dict[str, Any]:
    """The first failing check of a test (a :class:`solitaire.replay.Check` as a dict)."""
    step, kind = check.get("step"), check.get("kind") or ""
    before_text = check.get("before") or ""
    before = _parse(before_text)
    expected, actual = check.get("expected"), check.get("actual")
    shows_answer = isinstance(expected, (bool, list)) or (
        isinstance(actual, (bool, list)) and expected is not None)
    return {
        "trace": str(check.get("trace", "")),
        "where": "at the start" if step is None else f"step {step}",
        "subject": str(check.get("subject", "")),
        "kind": kind,
        "board_text": before_text.rstrip("\n") if kind == "deal" else table_view(before_text),
        "board": board(before) if before is not None else None,
        "move": str(check.get("move") or ""),
        "asked_before_move": kind in ("probe", "moves"),
        "answer": {"expected": answer(expected),
                   "actual": answer(actual) if actual is not None else "no answer"} if shows_answer else None,
        "message": str(check.get("message") or "a different answer"),
        "why": why(expected, actual),
        "replay": before_text.rstrip("\n") if before_text and kind != "deal" else "",
        "compare": _compare(expected, actual),
        "moves": _moves(expected, actual),
    }


def test(item: TestScore) -> dict[str, Any]:
    ruling = item.test.ruling
    status = "passed" if item.ok else ("not-tested" if not item.total else "failed")
    return {
        "id": item.test.id, "title": item.test.title, "ruling": ruling, "sentence": item.test.sentence,
        "about": ("Random play: " if ruling == PLAY else f"Ruling {ruling}: ") + item.test.sentence,
        "score": item.score, "max_score": item.max_score, "passed": item.passed, "total": item.total,
        "ok": item.ok, "status": status,
        "failure": failure(item.first_failure) if item.first_failure and not item.ok else None,
    }


def method(score: MethodScore) -> dict[str, Any]:
    return {"method": score.method, "title": score.title, "score": score.score, "max_score": score.max_score,
            "passed": sum(t.ok for t in score.tests), "count": len(score.tests),
            "tests": [test(t) for t in score.tests]}


def note(text: str, detail: str = "") -> dict[str, str]:
    """A note at the top of the feedback: the grader's ``text``, then the submission's ``detail``
    (shown as code, escaped by each template)."""
    return {"text": text, "detail": detail}


def build(title: str, rules_file: str, variation: str, methods: list[MethodScore], level: str,
          notes: list[dict[str, str]] | None = None, *, status: str = "ok",
          headline: dict[str, str] | None = None) -> dict[str, Any]:
    """The feedback of one submission. ``headline``: the one sentence that says why no rule was
    tested at all (a missing or unusable rules file); then no test repeats it."""
    return {
        "version": VERSION, "title": title, "rules_file": rules_file, "variation": variation,
        "level": level, "status": status, "headline": headline, "not_run": headline is not None,
        "notes": list(notes or []), "total": total(methods), "maximum": maximum(methods),
        "methods": [method(m) for m in methods], "late": None,
        "reading_guide": READING_GUIDE,
    }


def with_late(model: dict[str, Any], days_late: int, penalty_percent: float, raw: float,
              penalty: float) -> dict[str, Any]:
    """``model`` with the course's late penalty: ``raw`` points earned, ``penalty`` points taken off
    (the gradebook's figures), the final grade ``raw - penalty`` (never below 0: the course's one
    arithmetic, :func:`grader.course.scores.final_score`)."""
    late = {"days_late": days_late, "penalty_percent": penalty_percent, "raw": raw, "penalty": penalty,
            "final": final_score(raw, penalty)}
    return {**model, "late": late}
