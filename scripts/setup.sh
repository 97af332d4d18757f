#!/usr/bin/env bash
# Creates .venv (once) and installs Pantheon with its test tools into it.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "First run: creating the virtual environment in .venv ..." >&2
  "$PY" -m venv .venv
fi
stamp=.venv/.pantheon-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ requirements.lock -nt "$stamp" ]; then
  echo "Installing Pantheon's dependencies into .venv (a minute or two the first time) ..." >&2
  .venv/bin/python -m pip install --quiet --upgrade pip
  # the exact versions the tests passed with (requirements.lock) as constraints
  .venv/bin/python -m pip install --quiet -c requirements.lock -e ".[dev]"
  touch "$stamp"
fi
