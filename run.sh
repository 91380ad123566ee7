#!/usr/bin/env bash
# Install what Donify needs and play: the game window, or the headless demo flight where
# there is no display. Arguments go to `donify` (e.g. ./run.sh bench), which lives in .venv:
# .venv/bin/donify, or `donify` after `. .venv/bin/activate`. Once installed, the set-up
# installs nothing until pyproject.toml or the Python changes.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup-env.sh
exec .venv/bin/donify "$@"
