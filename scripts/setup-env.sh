#!/usr/bin/env bash
# Shared by ./run.sh and ./test.sh: make sure the Debian libraries Donify needs are present
# (OpenGL/EGL through Mesa for the window and headless rendering, FreeType/fontconfig for
# text), then create .venv and install Donify into it. Safe to run again: it only does what
# is missing.
set -euo pipefail
extra="${1:-}"

debs=(libgl1 libegl1 libgl1-mesa-dri libegl-mesa0 libfreetype6 libfontconfig1 fonts-dejavu-core)
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${debs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  missing+=(python3-venv)
fi
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extra}"
