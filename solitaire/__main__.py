"""``python -m solitaire``: the ``solitaire`` command line."""

from .cli import main

raise SystemExit(main())
