"""`solitaire starter repo VARIATION DEST`: a complete student repo that works on its own."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from starter_support import clean_env, reference_file, variation_params

from grader.starter.build import MANIFEST_NAME, STARTER_DIR
from grader.starter.repo import ENGINE_DIR, RULES_DIR, RepoError, catalog_entry, engine_imports, make_repo
from solitaire import cli

TRACES_MODULE = ENGINE_DIR / "traces.py"


def require_public_traces(name: str) -> None:
    if not TRACES_MODULE.is_file():
        pytest.skip("solitaire/traces.py (trace replay) does not exist yet")
    if not any((STARTER_DIR / "traces" / name).glob("*.json")):
        pytest.skip(f"no public traces in starter/traces/{name}/ yet (run `solitaire traces build`)")
MANIFEST = json.loads((STARTER_DIR / MANIFEST_NAME).read_text(encoding="utf-8"))


def run(repo: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` inside the student repo, with nothing pointing into this project."""
    return subprocess.run(
        [sys.executable, *args], cwd=repo, env=clean_env(), input=stdin,
        capture_output=True, text=True, timeout=120,
    )


def pytest_in(repo: Path) -> subprocess.CompletedProcess[str]:
    return run(repo, "-m", "pytest", "-q", "-p", "no:cacheprovider")


# -- the files ------------------------------------------------------------------------
@pytest.mark.parametrize("name", variation_params())
def test_repo_holds_the_starter_the_engine_and_the_tests(name: str, repos: dict[str, Path]) -> None:
    repo = repos[name]
    assert (repo / f"{name}.py").read_bytes() == (STARTER_DIR / f"{name}.py").read_bytes()
    engine = {p.relative_to(ENGINE_DIR) for p in ENGINE_DIR.rglob("*") if p.is_file()
              and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    copied = {p.relative_to(repo / "solitaire") for p in (repo / "solitaire").rglob("*") if p.is_file()}
    assert copied == engine
    public = STARTER_DIR / "traces" / name
    expected_traces = sorted(p.name for p in public.glob("*.json")) if public.is_dir() else []
    assert sorted(p.name for p in (repo / "tests" / "traces").glob("*.json")) == expected_traces
    tests = ast.parse((repo / "tests" / "test_public.py").read_text(encoding="utf-8"))
    test_names = [n.name for n in tests.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    assert test_names == [f"test_{c}" for c in MANIFEST["variations"][name]["categories"]]
    for extra in (".gitignore", "README.md", "pyproject.toml"):
        assert (repo / extra).is_file()


@pytest.mark.parametrize("name", variation_params())
def test_pyproject_installs_the_rules_file_and_the_engine(name: str, repos: dict[str, Path]) -> None:
    project = tomllib.loads((repos[name] / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["setuptools"]["py-modules"] == [name]
    assert project["tool"]["setuptools"]["packages"]["find"]["include"] == ["solitaire*"]
    assert project["tool"]["pytest"]["ini_options"]["pythonpath"] == ["."]
    assert project["project"]["scripts"]["solitaire"] == "solitaire.cli:main"
    declared = {dep.split(">")[0].split("=")[0].split("<")[0].strip().lower()
                for dep in project["project"]["dependencies"]}
    assert {"pytest", "pytest-timeout"} <= declared
    third_party = {m for m in engine_imports(repos[name] / "solitaire")
                   if m not in sys.stdlib_module_names and m not in ("solitaire", "__future__")}
    distributions = packages_distributions()
    for module in third_party:
        assert {d.lower() for d in distributions.get(module, [module])} & declared, module
    for target in project["project"].get("entry-points", {}).get("solitaire.commands", {}).values():
        assert target.startswith("solitaire."), target


@pytest.mark.parametrize("name", variation_params())
def test_readme_has_rules_contract_notation_and_commands(name: str, repos: dict[str, Path]) -> None:
    readme = (repos[name] / "README.md").read_text(encoding="utf-8")
    entry = MANIFEST["variations"][name]
    assert readme.startswith(f"# {entry['title']}")
    starter = ast.parse((STARTER_DIR / f"{name}.py").read_text(encoding="utf-8"))
    for function in (n for n in ast.walk(starter) if isinstance(n, ast.FunctionDef)):
        if function.name in entry["stubbed"]:
            assert f"### `{function.name}(" in readme
            first_line = (ast.get_docstring(function) or "").splitlines()[0].replace("``", "`")
            assert first_line in readme
    for command in (f"python -m solitaire play {name}", "pip install -e .", "pytest"):
        assert command in readme
    assert "t4:3>t7" in readme  # the notation
    assert re.search(rf"```\n{name}( .*)?\nphase ", readme)  # the example state
    rules = RULES_DIR / f"{name}.md"
    if rules.is_file():
        text = rules.read_text(encoding="utf-8").replace(f"reference/{name}.py", f"{name}.py")
        body = [line for line in text.splitlines()[1:] if line.strip() and not line.startswith("#")]
        assert body and all(line in readme for line in body)
    else:
        assert "rules page of" in readme
    listed = catalog_entry(name)
    if listed is not None:
        for category, points in listed.points.items():
            assert f"| `{category}` | {points:g} |" in readme
    else:
        assert "the instructor announces" in readme


# -- refusing a bad destination ---------------------------------------------------------
def test_repo_is_written_into_an_absent_or_empty_directory(tmp_path: Path) -> None:
    make_repo("scorpion", tmp_path / "a" / "b")
    (tmp_path / "empty").mkdir()
    make_repo("scorpion", tmp_path / "empty")
    assert (tmp_path / "a" / "b" / "scorpion.py").is_file() and (tmp_path / "empty" / "scorpion.py").is_file()


def test_a_non_empty_destination_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    status = cli.main(["starter", "repo", "scorpion", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "is not empty" in err and "--force" in err
    assert not (tmp_path / "scorpion.py").exists()
    (tmp_path / "solitaire").mkdir()
    (tmp_path / "solitaire" / "stale.py").write_text("")
    assert cli.main(["starter", "repo", "scorpion", str(tmp_path), "--force"]) == 0
    assert (tmp_path / "scorpion.py").is_file() and (tmp_path / "notes.txt").read_text() == "mine"
    assert not (tmp_path / "solitaire" / "stale.py").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [(["nosuchgame"], "unknown variation 'nosuchgame'"), (["scorpion"], "is not a directory")],
)
def test_bad_requests_are_one_line_errors(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "file"
    dest.write_text("x")
    status = cli.main(["starter", "repo", *args, str(dest)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err and "Traceback" not in err


def test_missing_starter_is_reported(tmp_path: Path) -> None:
    with pytest.raises(RepoError, match="run `solitaire starter build` first"):
        make_repo("scorpion", tmp_path / "repo", starter_dir=tmp_path / "nothing")


def test_starter_build_command_writes_the_starters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["starter", "build", "--out", str(tmp_path)]) == 0
    assert (tmp_path / MANIFEST_NAME).read_bytes() == (STARTER_DIR / MANIFEST_NAME).read_bytes()
    assert "MANIFEST.json" in capsys.readouterr().out


# -- the repo works on its own ----------------------------------------------------------
@pytest.mark.parametrize("name", variation_params())
def test_repo_imports_its_own_engine_and_rules_file(name: str, repos: dict[str, Path]) -> None:
    code = f"import solitaire, {name}; print(solitaire.__file__); print({name}.__file__)"
    result = run(repos[name], "-c", code)
    assert result.returncode == 0, result.stderr
    for line in result.stdout.split():
        assert Path(line).resolve().is_relative_to(repos[name].resolve()), line


@pytest.mark.parametrize("name", variation_params())
def test_public_tests_fail_with_not_implemented_then_pass_with_the_reference(
    name: str, repos: dict[str, Path], tmp_path: Path
) -> None:
    require_public_traces(name)
    categories = MANIFEST["variations"][name]["categories"]
    stubbed = pytest_in(repos[name])
    output = stubbed.stdout + stubbed.stderr
    assert stubbed.returncode == 1, output  # 1: tests ran and failed (2 would be a collection error)
    assert f"{len(categories)} failed" in output and "error" not in output.splitlines()[-1], output
    assert "NotImplementedError" in output
    sections = dict(re.findall(r"\n_{3,} (test_\w+) _{3,}\n(.*?)(?=\n_{3,} |\n={3,} )", output, re.S))
    assert sorted(sections) == sorted(f"test_{c}" for c in categories), output
    for category in categories:  # each failure names a stubbed method first
        assert re.match(r"\w+(, \w+)* not implemented yet: ", sections[f"test_{category}"]), output

    solved = tmp_path / name
    shutil.copytree(repos[name], solved)
    shutil.copyfile(reference_file(name), solved / f"{name}.py")
    result = pytest_in(solved)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(categories)} passed" in result.stdout


@pytest.mark.parametrize("name", variation_params())
def test_play_in_the_repo_names_the_method_not_implemented(name: str, repos: dict[str, Path]) -> None:
    if not (ENGINE_DIR / "cli.py").is_file() or not (ENGINE_DIR / "__main__.py").is_file():
        pytest.skip("solitaire/cli.py does not exist yet")
    result = run(repos[name], "-m", "solitaire", "play", name, "--seed", "1", stdin="hint\nquit\n")
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert "not implemented" in output
    assert any(method in output for method in MANIFEST["variations"][name]["stubbed"]), output


def test_readme_shows_the_points_of_each_rule_category(tmp_path: Path) -> None:
    categories = MANIFEST["variations"]["scorpion"]["categories"]
    points = {category: float(index + 1) for index, category in enumerate(categories)}
    make_repo("scorpion", tmp_path, points=points)
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    for category, value in points.items():
        assert f"| `{category}` | {value:g} |" in readme
    assert f"| **total** | **{sum(points.values()):g}** |" in readme


def test_a_hanging_method_fails_its_own_public_test_quickly(repos: dict[str, Path], tmp_path: Path) -> None:
    """A `while True` in is_won fails test_is_won with a message, in seconds, and nothing else."""
    require_public_traces("scorpion")
    from grader.check_suite import replace_region

    repo = tmp_path / "hang"
    shutil.copytree(repos["scorpion"], repo)
    reference = reference_file("scorpion").read_text(encoding="utf-8")
    text = replace_region(reference, "is_won", "while True:\n    pass")
    (repo / "scorpion.py").write_text(text, encoding="utf-8")
    result = pytest_in(repo)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "1 failed" in output and "test_is_won" in output, output
    assert "did not answer within 2 s" in output and "Traceback" not in output, output
