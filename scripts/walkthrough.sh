#!/usr/bin/env bash
# Sets up what playing needs (./scripts/setup.sh --play), then plays the whole practice
# game unattended (headless on a private Xvfb when there is no DISPLAY). Extra arguments
# go to `logo-bot walkthrough`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --play
exec .venv/bin/logo-bot walkthrough "$@"
