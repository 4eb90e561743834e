#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the whole test suite: lint, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/.venv/bin:$PATH"
echo "== ruff" && ruff check solitaire grader reference tests bench scripts  # (starter/ is generated)
echo "== mypy" && mypy solitaire grader reference
# One pytest worker per CPU, each taking whole test files (module fixtures are built once);
# `-n 0` after the other arguments runs in one process (the benchmarks of `-m slow` want that).
echo "== pytest" && python -m pytest -q -p no:cacheprovider -n auto --dist loadfile "$@"
