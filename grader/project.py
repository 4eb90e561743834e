"""Where the instructor's project files are: the checkout, or the copy an installed package ships.

The grader reads files that live beside the packages in a checkout: the
catalog (``assignments/catalog.toml``), the rules pages (``docs/rules``), the
starters and their public traces (``starter/``) and ``pyproject.toml`` (a
student repo's dependencies). In a checkout (an editable install too) they are
read in place. A regular install has no checkout, so the wheel build
(``setup.py``) copies them into the package as ``grader/project/``, with the
same relative paths, and :data:`ROOT` points there.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
#: the files an installed grader needs from the checkout, relative to its root
SHIPPED = ("pyproject.toml", "README.md", "assignments/catalog.toml", "docs/rules", "starter")
SHIPPED_DIR = PACKAGE_DIR / "project"


def _root() -> Path:
    checkout = PACKAGE_DIR.parent
    if (checkout / "assignments" / "catalog.toml").is_file():
        return checkout
    return SHIPPED_DIR


#: the project root: the checkout, else the copy shipped in the installed package
ROOT = _root()
