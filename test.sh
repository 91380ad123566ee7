#!/usr/bin/env bash
# Install what the tests need and run the whole suite. Rendering tests draw real frames
# headless through EGL (Mesa llvmpipe): no display, no X server. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup-env.sh "[test]"
export PYGLET_HEADLESS=1
exec .venv/bin/python -m pytest -q "$@"
