#!/usr/bin/env bash
# Sets up everything Solitaire Lab needs on a fresh Debian machine: the system
# packages (bubblewrap for the sandbox, git, redis-server for the Celery grading
# backend and its test, chromium for the browser tests of the HTML pages), a
# virtual environment in .venv and the project with its dev extras. Safe to run
# again: it only adds what is missing.
#
# Output: one line per step ("setup: [N/3] what ... result"), the slow ones say
# so up front; apt and pip keep quiet unless they fail (pip's log: .venv/setup-pip.log).
set -euo pipefail
cd "$(dirname "$0")/.."

step() {  # step N TEXT: start a step's line (finished by `result`)
  printf 'setup: [%s/3] %s ... ' "$1" "$2" >&2
  started=$SECONDS
}
result() {  # result TEXT: end the current step's line, with its time when it took any
  local took=$((SECONDS - started))
  if [ "$took" -gt 0 ]; then echo "$1 (${took} s)" >&2; else echo "$1" >&2; fi
}

trap 'echo "FAILED (the lines above say why)" >&2' ERR

need_apt=()
command -v git >/dev/null 2>&1 || need_apt+=(git)
command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
if [ ${#need_apt[@]} -eq 0 ]; then
  step 1 "system packages (git, bubblewrap, redis-server, chromium)"
  result "already installed"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  step 1 "apt-get install ${need_apt[*]} (about a minute)"
  apt-get update -qq >/dev/null 2>&1 || true
  if DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null 2>&1; then
    result "done"
  else
    result "FAILED"
    echo "setup: could not install ${need_apt[*]} (without bubblewrap the sandbox falls back to" \
         "weaker isolation; without redis-server the Celery backend's test is skipped; without" \
         "chromium the browser tests are skipped)" >&2
  fi
else
  step 1 "system packages"
  result "missing: please install ${need_apt[*]} (not root, or no apt-get)"
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  step 2 "create .venv"
  "$PYTHON" -m venv .venv
  result "done"
else
  step 2 "virtual environment .venv"
  result "already there"
fi

stamp=.venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)
if [ ! -f "$stamp" ]; then
  step 3 "pip install the project and its dependencies into .venv (a minute or two the first time)"
  # pip's and setuptools' notices (build warnings boxes ...) go to a log, shown only on failure
  log=.venv/setup-pip.log
  if ! { .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip \
         && .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'; } >"$log" 2>&1; then
    result "FAILED"
    cat "$log" >&2
    exit 1
  fi
  rm -f .venv/.installed-*
  touch "$stamp"
  result "done"
else
  step 3 "Python packages in .venv"
  result "up to date"
fi
# The project's own bytecode, written once here: where PYTHONDONTWRITEBYTECODE is set (CI images,
# some shells) every process would otherwise compile every module it imports, each hidden suite
# of a grade included (about 20 ms for the sandbox's modules alone). Stale files are recompiled.
.venv/bin/python -m compileall -q solitaire grader reference >/dev/null 2>&1 || true
