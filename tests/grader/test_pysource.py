"""grader.pysource.parse: safe from several threads at once (CPython 3.11's AST constructor is not)."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from grader import pysource

REPO = Path(__file__).resolve().parents[2]
SOURCE = (REPO / "reference" / "scorpion.py").read_text(encoding="utf-8")


class _Cyclic:
    """Garbage only the cycle collector frees; its finalizer runs Python code, letting other threads in."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        sum(range(50))


def test_parse_from_several_threads_while_finalizers_run():
    # Without the lock this setup failed on 3.11 within a second or two (a SystemError
    # "AST constructor recursion depth mismatch" in two of three parsing threads).
    errors: list[BaseException] = []

    def parse_many() -> None:
        try:
            for _ in range(100):
                pysource.parse(SOURCE)
        except BaseException as error:  # noqa: BLE001 - collected and asserted below
            errors.append(error)

    def churn() -> None:
        for _ in range(200_000):
            _Cyclic()

    parsers = [threading.Thread(target=parse_many) for _ in range(3)]
    churner = threading.Thread(target=churn)
    churner.start()
    for thread in parsers:
        thread.start()
    for thread in [*parsers, churner]:
        thread.join()
    assert errors == []


def test_parse_gives_the_tree_and_names_the_file():
    assert [node.name for node in pysource.parse(SOURCE).body if hasattr(node, "name")].count("Scorpion") == 1
    try:
        pysource.parse("def broken(:\n", "student/rules.py")
    except SyntaxError as error:
        assert error.filename == "student/rules.py"
    else:
        raise AssertionError("a syntax error was not raised")


def test_no_grader_module_calls_ast_parse_directly():
    calls = re.compile(r"\bast\.parse\(")
    direct = [str(path.relative_to(REPO)) for path in (REPO / "grader").rglob("*.py")
              if path.name != "pysource.py" and calls.search(path.read_text(encoding="utf-8"))]
    assert direct == []
