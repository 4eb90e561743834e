"""Build hook: ship the project files the grader reads beside the packages (grader/project.py).

Everything else about the build is in pyproject.toml. A regular (non-editable)
install has no checkout, so the wheel carries the catalog, the rules pages, the
starters with their public traces and pyproject.toml as ``grader/project/``.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _shipped() -> tuple[str, ...]:
    """grader.project.SHIPPED, read from its source: the build must not import the package."""
    tree = ast.parse((HERE / "grader" / "project.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["SHIPPED"]:
            return tuple(ast.literal_eval(node.value))
    raise RuntimeError("grader/project.py has no SHIPPED list")


SHIPPED = _shipped()
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc")


class BuildWithProjectFiles(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "grader" / "project"
        for entry in SHIPPED:
            source, dest = HERE / entry, target / entry
            dest.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, dest, ignore=SKIPPED, dirs_exist_ok=True)
            else:
                shutil.copy2(source, dest)


setup(cmdclass={"build_py": BuildWithProjectFiles})
