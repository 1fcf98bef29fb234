#!/usr/bin/env bash
# Sets everything up, then plays the whole practice game unattended (headless on a
# private Xvfb when there is no DISPLAY). Extra arguments go to `logo-bot walkthrough`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec .venv/bin/logo-bot walkthrough "$@"
