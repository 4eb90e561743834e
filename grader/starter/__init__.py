"""Student starters: stubbed rule modules and student repos, generated from ``reference/``.

* :mod:`grader.starter.build` turns every reference module into its starter
  (``starter/<variation>.py``) with nbgrader's ``ClearSolutions`` and records
  ``starter/MANIFEST.json``; ``solitaire starter build`` runs it.
* :mod:`grader.starter.repo` writes a complete student repo for one variation
  (``solitaire starter repo VARIATION DEST``).

Nothing under ``starter/`` is edited by hand; ``tests/starter`` proves it is in
sync with ``reference/``.
"""

from .build import BuildError, build, stub_module
from .repo import RepoError, make_repo

__all__ = ["BuildError", "build", "stub_module", "RepoError", "make_repo"]
