"""The two wheels (scripts/build_wheels.py): the instructor's grades, the engine's leaks nothing.

Both wheels are built once (pip, in isolated build environments) and each is
installed, without its dependencies, into a fresh virtual environment; the
third-party packages it needs come from this test run's own environment (a
``.pth`` line), so the test needs no network beyond the build's setuptools and
tests exactly the files the wheel carries. Commands run outside the checkout,
so nothing is imported from it.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import re
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("build_wheels", ROOT / "scripts" / "build_wheels.py")
assert _spec is not None and _spec.loader is not None
build_wheels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_wheels)


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return build_wheels.build(tmp_path_factory.mktemp("wheels"))


def _clean_env() -> dict[str, str]:
    """This environment without the paths that would import the checkout instead of the wheel
    (``PYTHONPATH=$PWD``, as the tests are run here)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


def _install(wheel: Path, home: Path) -> Path:
    """A fresh venv in ``home`` holding ``wheel`` (no deps); returns its python."""
    venv.create(home)
    python = home / "bin" / "python"
    where = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    purelib = subprocess.run([python, "-c", where], check=True, capture_output=True, text=True).stdout.strip()
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    "--target", purelib, str(wheel)], check=True)
    (Path(purelib) / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def test_the_engine_wheel_holds_the_engine_only(wheels: tuple[Path, Path]) -> None:
    _, engine = wheels
    with zipfile.ZipFile(engine) as archive:
        names = archive.namelist()
        texts = [archive.read(n).decode("utf-8", "replace") for n in names if n.endswith(".py")]
    tops = {name.split("/")[0] for name in names}
    assert tops == {"solitaire", "solitaire_engine-0.1.0.dist-info"}, tops
    assert not any("BEGIN SOLUTION" in text for text in texts)
    assert not any(name.endswith(".json") for name in names)  # no trace of any kind
    assert len(texts) >= 15
    assert "solitaire/winnability.toml" in names  # the figures `solitaire variations` shows
    starters = Path(__file__).resolve().parents[2] / "starter"
    imported = {m for path in starters.glob("*.py")
                for m in re.findall(r"^from solitaire\.(\w+) import", path.read_text(encoding="utf-8"), re.M)}
    # every engine module a starter imports is in the wheel, so a starter runs on it
    assert imported and {f"solitaire/{m}.py" for m in imported} <= set(names), imported


def test_the_engine_wheel_plays_without_the_rest(wheels: tuple[Path, Path], tmp_path: Path) -> None:
    python = _install(wheels[1], tmp_path / "venv")
    shown = subprocess.run([python, "-m", "solitaire", "--help"], cwd=tmp_path, env=_clean_env(),
                           capture_output=True, text=True)
    assert shown.returncode == 0 and "usage" in shown.stdout.lower()
    where = subprocess.run([python, "-c", "import solitaire, importlib.util as u; "
                            "print(solitaire.__file__, u.find_spec('grader'), u.find_spec('reference'))"],
                           cwd=tmp_path, env=_clean_env(), capture_output=True, text=True,
                           check=True).stdout
    assert str(tmp_path / "venv") in where and where.strip().endswith("None None")


def test_the_instructor_wheel_keeps_nbgrader_and_celery_in_extras(wheels: tuple[Path, Path]) -> None:
    with zipfile.ZipFile(wheels[0]) as archive:
        metadata = archive.read("solitaire_lab-0.1.0.dist-info/METADATA").decode()
    requires = [line.split(":", 1)[1].strip() for line in metadata.splitlines()
                if line.startswith("Requires-Dist:")]
    for heavy in ("nbgrader", "nbformat", "celery"):
        entries = [r for r in requires if r.startswith(heavy)]
        assert entries and all("extra ==" in r for r in entries), (heavy, entries)
    assert "License-Expression: MIT" in metadata


def test_a_regular_install_of_the_instructor_wheel_grades(wheels: tuple[Path, Path], tmp_path: Path) -> None:
    python = _install(wheels[0], tmp_path / "venv")
    submission = tmp_path / "submission"
    submission.mkdir()
    (submission / "scorpion.py").write_bytes((ROOT / "reference" / "scorpion.py").read_bytes())
    out = tmp_path / "out"
    graded = subprocess.run([python, "-m", "solitaire", "grade", str(submission), "--out", str(out),
                             "--allow-weak-sandbox"], cwd=tmp_path, env=_clean_env(), capture_output=True,
                            text=True)
    assert graded.returncode == 0, graded.stderr[-2000:]
    results = json.loads((out / "results.json").read_text())
    assert results["score"] == 100.0
    assert results["extra_data"]["status"] == "ok"
    assert "100 / 100 points" in (out / "feedback.html").read_text()  # its templates are in the wheel
    installed = subprocess.run([python, "-c", "import grader.project as p; print(p.ROOT)"],
                               cwd=tmp_path, env=_clean_env(), capture_output=True, text=True,
                               check=True).stdout.strip()
    assert installed.startswith(str(tmp_path / "venv"))
    assert (Path(installed) / "assignments" / "catalog.toml").is_file()


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_pip_install_of_the_instructor_wheel_with_gradebook_grades_the_demo_class(
        wheels: tuple[Path, Path], tmp_path: Path) -> None:
    """The issue's "done when": ``pip install 'solitaire_lab-*.whl[gradebook]'`` into a new venv (its
    dependencies, nbgrader included, from the package index: minutes and the network), then
    ``solitaire demo`` from outside the checkout: three students collected, graded in the sandbox
    and entered in the nbgrader gradebook. The default run keeps the faster
    test_a_regular_install_of_the_instructor_wheel_grades."""
    home = tmp_path / "venv"
    venv.create(home, with_pip=True)
    python, env = home / "bin" / "python", _clean_env()
    installed = subprocess.run([python, "-m", "pip", "install", "-q", f"{wheels[0]}[gradebook]"],
                               cwd=tmp_path, env=env, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr[-3000:]
    demo = tmp_path / "demo"
    ran = subprocess.run([home / "bin" / "solitaire", "demo", "--dir", str(demo), "--students", "3"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1200)
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    with (demo / "grades.csv").open(encoding="utf-8") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    assert [rows[s]["status"] for s in ("s01", "s02", "s03")] == ["ok", "late", "not-submitted"]
    assert rows["s01"]["percent"] == "100" and float(rows["s02"]["score"]) < float(rows["s02"]["max_score"])
    assert (demo / "gradebook.db").is_file()  # the [gradebook] extra: nbgrader's gradebook
    probe = "import grader, nbgrader; print(grader.__file__, nbgrader.__file__)"
    where = subprocess.run([python, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True,
                           check=True).stdout.split()
    assert all(path.startswith(str(home)) for path in where), where


if sys.platform != "linux":  # pragma: no cover - the course machines are Linux
    pytestmark = pytest.mark.skip("the wheels are tested on Linux")
