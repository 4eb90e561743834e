#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the whole test suite: lint, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/.venv/bin:$PATH"
echo "== ruff" && ruff check solitaire
echo "== mypy" && mypy solitaire
echo "== pytest" && python -m pytest -q -p no:cacheprovider "$@"
