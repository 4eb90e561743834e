"""`solitaire starter build`: nbgrader ClearSolutions over reference/, in sync with starter/."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from starter_support import PRESENT, reference_file, variation_params

from grader.starter.build import (
    BEGIN_SOLUTION,
    END_SOLUTION,
    GENERATED_MARK,
    HEADER,
    MANIFEST_NAME,
    STARTER_DIR,
    BuildError,
    build,
    generated_files,
    stub_module,
)
from grader.starter.contract import stubbed_methods
from grader.starter.repo import load_starter
from solitaire import catalog
from solitaire.engine import shuffled_deck
from solitaire.protocol import LocalWorker, WorkerError
from solitaire.variation import RULE_METHODS

STUB = ["# YOUR CODE HERE", "raise NotImplementedError()"]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("starter")
    build(target)
    return target


@pytest.fixture(scope="module")
def committed_manifest() -> dict:
    return json.loads((STARTER_DIR / MANIFEST_NAME).read_text(encoding="utf-8"))


def test_fresh_build_equals_committed_starter(fresh: Path) -> None:
    new, old = generated_files(fresh), generated_files(STARTER_DIR)
    assert sorted(new) == sorted(old), "starter/ differs from a fresh build: run `solitaire starter build`"
    stale = [name for name in new if new[name] != old[name]]
    assert not stale, f"starter/ is out of date ({', '.join(stale)}): run `solitaire starter build`"


def test_build_is_deterministic(fresh: Path, tmp_path: Path) -> None:
    build(tmp_path)
    assert generated_files(tmp_path) == generated_files(fresh)


def test_build_leaves_other_files_alone(tmp_path: Path) -> None:
    (tmp_path / "traces" / "scorpion").mkdir(parents=True)
    kept = tmp_path / "traces" / "scorpion" / "t.json"
    kept.write_text("{}")
    hand_written = tmp_path / "notes.py"
    hand_written.write_text("# not generated\n")
    stale = tmp_path / "retired_game.py"
    stale.write_text(f"{GENERATED_MARK} from reference/retired_game.py\n")
    result = build(tmp_path)
    assert kept.read_text() == "{}" and hand_written.is_file()
    assert not stale.exists() and result.removed == [stale]


def _expected_starter(name: str, source: str) -> str:
    """The reference with each region replaced by the stub at the marker's indentation."""
    out, inside = [], False
    for line in source.split("\n"):
        if BEGIN_SOLUTION in line:
            indent = re.match(r"\s*", line).group(0)  # type: ignore[union-attr]
            out.extend(indent + stub for stub in STUB)
            inside = True
        elif END_SOLUTION in line:
            inside = False
        elif not inside:
            out.append(line)
    return HEADER.format(mark=GENERATED_MARK, name=name) + "\n".join(out)


@pytest.mark.parametrize("name", variation_params())
def test_starter_is_the_reference_with_regions_stubbed(name: str) -> None:
    source = reference_file(name).read_text(encoding="utf-8")
    starter = (STARTER_DIR / f"{name}.py").read_text(encoding="utf-8")
    assert starter == _expected_starter(name, source)
    assert starter.startswith(GENERATED_MARK)
    assert BEGIN_SOLUTION not in starter and END_SOLUTION not in starter


def _functions(source: str) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("name", variation_params())
def test_stubs_keep_docstrings_and_manifest_agrees(name: str, committed_manifest: dict) -> None:
    reference_functions = _functions(reference_file(name).read_text(encoding="utf-8"))
    starter_text = (STARTER_DIR / f"{name}.py").read_text(encoding="utf-8")
    starter_functions = _functions(starter_text)
    entry = committed_manifest["variations"][name]
    assert sorted(starter_functions) == sorted(reference_functions)
    for function_name, original in reference_functions.items():
        assert ast.get_docstring(starter_functions[function_name]) == ast.get_docstring(original)
    for function_name in entry["stubbed"]:
        body = starter_functions[function_name].body
        assert ast.unparse(body[-1]) == "raise NotImplementedError()", function_name
    cls = catalog.variation_class(__import__(f"reference.{name}", fromlist=["_"]))
    assert entry["categories"] == [m for m in RULE_METHODS if m in vars(cls)]
    assert set(entry["categories"]) <= set(entry["stubbed"])
    assert [m.name for m in stubbed_methods(starter_text)] == entry["stubbed"]
    assert entry["class"] == cls.__name__ and entry["title"] == cls.title


@pytest.mark.parametrize("name", variation_params())
def test_a_stubbed_deal_reports_not_implemented_through_the_protocol(name: str) -> None:
    variation = load_starter(name, (STARTER_DIR / f"{name}.py").read_text(encoding="utf-8"))
    cards = [str(card) for card in shuffled_deck(variation, 1)]
    with pytest.raises(WorkerError) as caught:
        LocalWorker(variation).start(cards, {})
    assert (caught.value.error, caught.value.method) == ("NotImplementedError", "deal")


def test_manifest_lists_exactly_the_built_variations(committed_manifest: dict) -> None:
    assert list(committed_manifest["variations"]) == sorted(PRESENT)


MODULE = '''\
"""A test variation."""
from solitaire.variation import Variation
{extra}

class Tiny(Variation):
    name = "tiny"
    title = "Tiny"

    def is_won(self, state):
        """Never won."""
{body}
'''
WON_BODY = "        ### BEGIN SOLUTION\n        return False\n        ### END SOLUTION"


def test_stub_module_clears_a_marked_method() -> None:
    starter = stub_module("tiny", MODULE.format(extra="", body=WON_BODY))
    assert starter.categories == ("is_won",) and starter.stubbed == ("is_won",)
    stubbed = '        """Never won."""\n        # YOUR CODE HERE\n        raise NotImplementedError()\n'
    assert stubbed in starter.text
    assert "return False" not in starter.text


@pytest.mark.parametrize(
    ("extra", "body", "message"),
    [
        ("### BEGIN SOLUTION\nX = 1\n### END SOLUTION", WON_BODY, "inside a function body"),
        ("", "        return False", "is_won has no solution markers"),
        ("", "        ### BEGIN SOLUTION\n        return False", "never closed"),
        ("", "        ### BEGIN SOLUTION\n        ### BEGIN SOLUTION\n        return False\n"
             "        ### END SOLUTION", "opened inside another"),
        ("", "        ### END SOLUTION\n        return False", "without"),
    ],
    ids=["module-level region", "unmarked rule method", "unclosed", "nested", "end without begin"],
)
def test_stub_module_refuses_unsafe_references(extra: str, body: str, message: str) -> None:
    with pytest.raises(BuildError, match=message) as caught:
        stub_module("tiny", MODULE.format(extra=extra, body=body))
    assert str(caught.value).startswith("reference/tiny.py")
