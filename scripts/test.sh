#!/usr/bin/env bash
# Sets everything up, then runs ruff, mypy and the tests. No display is needed: the
# end-to-end tests start their own Xvfb, one per test process.
#
#   ./scripts/test.sh            the whole suite, tests side by side (pytest-xdist)
#   ./scripts/test.sh --quick    only the tests that need no X server, no Fuse and no
#                                ffmpeg, less a few slow ones: the one to run while
#                                editing (under a minute)
#
# Other arguments go to pytest, e.g. ./scripts/test.sh --quick tests/solvers -x
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
args=()
for arg in "$@"; do
    case "$arg" in
        --quick) quick=1 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) args+=("$arg") ;;
    esac
done
./scripts/setup.sh
# Compiled Python (and pytest's rewritten test modules) is kept in .venv, never beside
# the sources: each test process and each bot it starts then skips compiling them
# (about 8 s of every test process's collection), even where PYTHONDONTWRITEBYTECODE is set.
export PYTHONPYCACHEPREFIX="$PWD/.venv/pycache"
unset PYTHONDONTWRITEBYTECODE
.venv/bin/ruff check .
.venv/bin/ruff format --check . >/dev/null || { .venv/bin/ruff format --diff . | head -40; exit 1; }
.venv/bin/mypy  # what it checks, and how strictly: [tool.mypy] in pyproject.toml
if [ "$quick" = 1 ]; then
    # tests/programs.py: in the quick suite the watched programs refuse to run
    LOGO_TEST_QUICK=1 exec .venv/bin/python -m pytest -p no:cacheprovider -n 2 \
        -m "not fuse and not xserver and not ffmpeg and not slow" "${args[@]}"
fi
exec .venv/bin/python -m pytest -p no:cacheprovider -n "${LOGO_TEST_WORKERS:-6}" "${args[@]}"
