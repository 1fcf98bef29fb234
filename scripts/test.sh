#!/usr/bin/env bash
# Sets everything up, then runs ruff and the whole test suite (the end-to-end
# tests start their own Xvfb, so no display is needed). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check . >/dev/null || { .venv/bin/ruff format --diff . | head -40; exit 1; }
.venv/bin/python -m pytest "$@"
