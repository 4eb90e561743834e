"""``solitaire course export --gradescope ZIP``: a Gradescope autograder for the course.

The zip holds, at its root (Gradescope unpacks it to ``/autograder/source``):

* ``setup.sh``: run once by Gradescope on its Ubuntu image, as root: installs
  with apt only what the image lacks (Python 3.11 on Ubuntu 22.04, whose
  ``python3`` is 3.10; the ``venv`` module on Ubuntu 24.04, which ships it
  apart; git, bubblewrap for the sandbox), makes a virtual environment in ``source/.venv``
  and installs the bundled project into it, pinned to ``constraints.txt``
  (:mod:`.constraints`: the versions the instructor grades with), then makes
  ``/autograder/source`` readable by root only (:data:`LOCKDOWN_SH`: no sandbox
  uid can read the hidden traces or the roster, whatever layer the container
  allows) and prints the sandbox layer the image gets;
* ``run_autograder``: run for every submission; grades
  ``/autograder/submission`` with :mod:`grader.course.gradescope_run` and
  writes ``/autograder/results/results.json``;
* the project's code the grader needs: the engine (``solitaire/``), the grader
  with its sandbox, hidden suite and traces (``grader/``, without the
  instructor's tools that quote reference code), the catalog, and
  ``pyproject.toml`` — no reference solution;
* ``course.json``: the course's students (id, e-mail, variation), its point
  overrides and the grader's time limit.

Student code runs inside the sandbox there too, so nothing in the zip is
readable by it.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from .. import project
from .assign import load_assignments, roster_by_id
from .config import CourseConfig
from .constraints import pinned
from .points import category_points, known_variations

PROJECT_ROOT = project.ROOT
#: where the packages themselves are (the checkout, or site-packages in a regular install)
PACKAGES_ROOT = project.PACKAGE_DIR.parent
#: the starters and rules pages are public: the rubric reads the rulings each method implements
#: from the starter's docstrings and each ruling's sentence from its rules page
BUNDLED = ("pyproject.toml", "README.md", "solitaire", "grader", "assignments/catalog.toml", "starter",
           "docs/rules")
#: instructor tools that grading does not need; some quote reference code (mutants, survivors)
NOT_BUNDLED = ("grader/project", "grader/starter", "grader/cli_starter.py", "grader/mutants.py",
               "grader/survivors", "grader/check_suite.py")
SKIPPED_PARTS = ("__pycache__", ".pytest_cache", ".mypy_cache")
EXECUTABLE = 0o755 << 16
READABLE = 0o644 << 16

#: the end of setup.sh: the autograder's files (the grader, its hidden traces, course.json with the
#: roster's e-mails, the venv holding a copy of all of it) become root's alone, whatever sandbox
#: layer the container allows (docs/security.md); then the build log names the layer.
LOCKDOWN_SH = """\
chown -R root:root "$SOURCE"
chmod -R go-rwx "$SOURCE"
chmod 0711 "$(dirname "$SOURCE")"
"$SOURCE/.venv/bin/python" -c 'from grader.sandbox import active_isolation as a; print(a().describe())' \\
  || echo "sandbox: no layer works in this image: grading will fail" >&2
"""

SETUP_SH = """\
#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
set -euxo pipefail
SOURCE="${SOLITAIRE_AUTOGRADER_SOURCE:-/autograder/source}"
export DEBIAN_FRONTEND=noninteractive
# apt only for what the base image lacks (tested on Ubuntu 22.04 and 24.04 roots holding python3
# alone: scripts/gradescope_chroot_check.py)
PYTHON=""
NO_VENV=""   # a Python 3.11+ without its venv module (Debian and Ubuntu ship it apart)
for candidate in python3 python3.13 python3.12 python3.11; do
  command -v "$candidate" >/dev/null || continue
  "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null || continue
  if "$candidate" -c 'import venv, ensurepip' 2>/dev/null; then PYTHON="$candidate"; break; fi
  [ -n "$NO_VENV" ] || NO_VENV="$candidate"
done
missing=()
if [ -z "$PYTHON" ] && [ -n "$NO_VENV" ]; then   # Ubuntu 24.04: python3 is 3.12, without venv
  PYTHON="$NO_VENV"
  missing+=("$("$PYTHON" -c 'import sys; print("python%d.%d-venv" % sys.version_info[:2])')")
elif [ -z "$PYTHON" ]; then   # Ubuntu 22.04: its python3 is 3.10; 3.11 is in jammy-updates (universe)
  PYTHON=python3.11
  missing+=(python3.11 python3.11-venv)
fi
command -v git >/dev/null || missing+=(git)
command -v bwrap >/dev/null || missing+=(bubblewrap)
[ -e /etc/ssl/certs/ca-certificates.crt ] || missing+=(ca-certificates)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
"$PYTHON" -m venv "$SOURCE/.venv"
# the versions the instructor graded with (constraints.txt, written by `course export`)
"$SOURCE/.venv/bin/python" -m pip install -q -c "$SOURCE/constraints.txt" "$SOURCE"
""" + LOCKDOWN_SH


RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# Gradescope runs this for every submission: grade /autograder/submission and
# write /autograder/results/results.json (see grader/course/gradescope_run.py).
# Every path can be overridden by an environment variable (used by the tests).
set -uo pipefail
ROOT="${SOLITAIRE_AUTOGRADER_ROOT:-/autograder}"
SOURCE="${SOLITAIRE_AUTOGRADER_SOURCE:-$ROOT/source}"
PYTHON="${SOLITAIRE_PYTHON:-$SOURCE/.venv/bin/python}"
export SOLITAIRE_AUTOGRADER_ROOT="$ROOT"
export PYTHONPATH="$SOURCE${PYTHONPATH:+:$PYTHONPATH}"
cd "$SOURCE"
exec "$PYTHON" -m grader.course.gradescope_run
"""


def course_json(config: CourseConfig, grader_name: str = "sandbox",
                allow_weak: bool = False) -> dict[str, object]:
    """What the autograder needs to know about the course (``allow_weak``: the instructor accepted
    grading under the weak sandbox layer, ``course export --allow-weak-sandbox``)."""
    roster = roster_by_id(config)
    students = [
        {"id": a.student, "email": roster[a.student].email if a.student in roster else "",
         "variation": a.variation}
        for a in load_assignments(config)
    ]
    used = sorted({a.variation for a in load_assignments(config)} | set(config.variations))
    return {
        "course": config.course_id,
        "assignment": config.assignment,
        "grader": grader_name,
        "allow_weak_sandbox": allow_weak,
        "timeout": config.timeout,
        "known_variations": list(known_variations()),
        "students": students,
        "points": {v: category_points(v, config.points) for v in used if v in config.points},
    }


def _base(root: Path, entry: str) -> Path:
    """Where ``entry`` lies: under ``root``, or (the packages, in a regular install) beside the grader."""
    if not (root / entry).exists() and entry in ("solitaire", "grader"):
        return PACKAGES_ROOT
    return root


def _files(root: Path, entry: str) -> list[Path]:
    path = root / entry
    if path.is_file():
        return [path]
    if not path.is_dir():
        return []
    return sorted(
        p for p in path.rglob("*")
        if p.is_file() and not any(part in SKIPPED_PARTS for part in p.parts) and p.suffix != ".pyc"
    )


def _add(archive: zipfile.ZipFile, name: str, data: bytes, mode: int = READABLE) -> None:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # fixed: the same inputs, the same zip
    info.external_attr = mode
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def build(config: CourseConfig, dest: Path, grader_name: str = "sandbox", root: Path = PROJECT_ROOT,
          allow_weak: bool = False) -> Path:
    """Write the autograder zip to ``dest``; returns its path."""
    dest = Path(dest)
    if dest.suffix != ".zip":
        dest = dest.with_suffix(dest.suffix + ".zip") if dest.suffix else dest.with_suffix(".zip")
    dest.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(dest, "w") as archive:
        _add(archive, "setup.sh", SETUP_SH.encode(), EXECUTABLE)
        _add(archive, "run_autograder", RUN_AUTOGRADER.encode(), EXECUTABLE)
        _add(archive, "constraints.txt", ("\n".join(pinned(root / "pyproject.toml")) + "\n").encode())
        course = course_json(config, grader_name, allow_weak)
        _add(archive, "course.json", json.dumps(course, indent=1).encode())
        for entry in BUNDLED:
            base = _base(root, entry)
            for path in _files(base, entry):
                name = path.relative_to(base).as_posix()
                if not any(name == skip or name.startswith(skip + "/") for skip in NOT_BUNDLED):
                    _add(archive, name, path.read_bytes())
    return dest
