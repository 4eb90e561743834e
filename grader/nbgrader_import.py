"""nbgrader imported without an optional helper it never uses.

Importing nbgrader imports jsonschema (through nbformat), whose format checkers
import every optional helper that is installed. One of them, ``rfc3987_syntax``
(there because jupyter-events asks for ``jsonschema[format-nongpl]``), builds a
lark grammar when imported: about 1.5 of the 2.7 s of CPU that importing
``nbgrader.api`` takes here. It serves only the "iri" formats, which no nbformat
schema and nothing of ours use, so the process that imports nbgrader takes it as
absent (jsonschema then skips those two checkers, as it does when the helper is
not installed).
"""

from __future__ import annotations

import sys

UNUSED_HELPERS = ("rfc3987_syntax",)


def skip_unused_helpers() -> None:
    """Call before the first import of nbgrader or nbformat (a helper imported already stays)."""
    for name in UNUSED_HELPERS:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]  # None: "import fails"
