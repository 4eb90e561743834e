"""Build Solitaire Lab's two wheels into a directory (default ``dist/``).

    .venv/bin/python scripts/build_wheels.py [OUT_DIR]

* ``solitaire_lab-<version>-py3-none-any.whl``: the instructor's package (the
  engine, the grader, the references, the hidden traces, and as
  ``grader/project/`` the catalog, rules pages and starters it reads; see
  ``setup.py``). A regular ``pip install`` of it grades.
* ``solitaire_engine-<version>-py3-none-any.whl``: the engine alone (the
  ``solitaire`` package: model, notation, deals, terminal play, solver), what
  a student may install. It holds no reference, no grader and no trace; the
  build refuses to write it if any file carries a solution marker.

pip builds each in an isolated environment (it fetches setuptools from the
package index). Prints the two paths.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")

ENGINE_PYPROJECT = """\
[build-system]
requires = ["setuptools>=77", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "solitaire-engine"
version = "{version}"
description = "The Solitaire Lab engine: cards, piles, moves, states, deals, terminal play and a solver"
requires-python = ">=3.11"
license = "MIT"
dependencies = [{dependencies}]

[project.scripts]
solitaire = "solitaire.cli:main"

[tool.setuptools.packages.find]
include = ["solitaire*"]

[tool.setuptools.package-data]
# the measured winnability that `solitaire variations` shows
solitaire = ["winnability.toml"]
"""


def _pip_wheel(source: Path, out: Path) -> Path:
    before = set(out.glob("*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
                   check=True)
    built = sorted(set(out.glob("*.whl")) - before) or sorted(out.glob("*.whl"))
    return built[-1]


def engine_sources_clean(package: Path) -> None:
    """Raise SystemExit if a file of the engine package carries a solution marker."""
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if any(marker in text for marker in SOLUTION_MARKERS):
            raise SystemExit(f"build_wheels: {path} carries a solution marker; not building the engine wheel")


def build(out: Path) -> tuple[Path, Path]:
    """Build both wheels into ``out``; returns (instructor wheel, engine wheel)."""
    out.mkdir(parents=True, exist_ok=True)
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    # the engine needs only what solitaire/ imports: rich, for the terminal
    dependencies = [d for d in meta["dependencies"] if d.startswith("rich")]
    instructor = _pip_wheel(ROOT, out)
    with tempfile.TemporaryDirectory(prefix="solitaire-engine-") as temp:
        staging = Path(temp)
        shutil.copytree(ROOT / "solitaire", staging / "solitaire",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        engine_sources_clean(staging / "solitaire")
        listed = ", ".join(f'"{d}"' for d in dependencies)
        pyproject = ENGINE_PYPROJECT.format(version=meta["version"], dependencies=listed)
        (staging / "pyproject.toml").write_text(pyproject, encoding="utf-8")
        engine = _pip_wheel(staging, out)
    return instructor, engine


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="build_wheels.py",
        description="Build the instructor's wheel (solitaire-lab: engine, grader, references, hidden traces) "
                    "and the student's engine-only wheel (solitaire-engine) with pip; prints their paths.")
    parser.add_argument("out_dir", nargs="?", type=Path, default=ROOT / "dist", metavar="OUT_DIR",
                        help="where the wheels go (default: dist/)")
    out = parser.parse_args(argv).out_dir
    for wheel in build(out.resolve()):
        print(wheel)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
