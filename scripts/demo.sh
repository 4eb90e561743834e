#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the demo course end to end.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/solitaire demo "$@"
