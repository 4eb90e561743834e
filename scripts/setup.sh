#!/usr/bin/env bash
# Sets up everything Solitaire Lab needs on a fresh Debian machine: the system
# packages (bubblewrap for the sandbox, git, redis-server for the Celery grading
# backend and its test), a virtual environment in .venv and the project with its
# dev extras. Safe to run again: it only adds what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v git >/dev/null 2>&1 || need_apt+=(git)
command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${need_apt[*]} with apt-get" >&2
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null 2>&1 \
      || echo "setup: could not install ${need_apt[*]} (without bubblewrap the sandbox falls back to" \
              "weaker isolation; without redis-server the Celery backend's test is skipped)" >&2
  else
    echo "setup: please install ${need_apt[*]} (not root, or no apt-get)" >&2
  fi
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv" >&2
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)
if [ ! -f "$stamp" ]; then
  echo "setup: installing the project and its dependencies into .venv" >&2
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev]'
  rm -f .venv/.installed-*
  touch "$stamp"
fi
