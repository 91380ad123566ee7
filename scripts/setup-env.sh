#!/usr/bin/env bash
# Shared by ./run.sh and ./test.sh: make sure the Debian libraries Donify needs are present
# (OpenGL/EGL through Mesa for the window and headless rendering, FreeType/fontconfig for
# text), then create .venv and install Donify into it. Safe to run again: it only does what
# is missing, and when nothing changed (pyproject.toml, the Python, the extras) it runs no pip
# at all (scripts/venv_state.py decides).
#
# Python: $DONIFY_PYTHON if set, else the first of python3, python3.14 … python3.11 that is
# 3.11 or newer. A .venv made by another Python (say 3.9, before 3.11 was installed) is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"

pick_python() {  # prints the name found and its interpreter's real path (no shim in between)
  local candidates=(python3 python3.14 python3.13 python3.12 python3.11) cand exe
  [ -z "${DONIFY_PYTHON:-}" ] || candidates=("$DONIFY_PYTHON")
  for cand in "${candidates[@]}"; do
    command -v "$cand" >/dev/null 2>&1 || continue
    if exe="$("$cand" -c 'import sys; print(sys.executable) if sys.version_info >= (3, 11) else sys.exit(1)' 2>/dev/null)" \
        && [ -n "$exe" ]; then
      printf '%s\n%s\n' "$cand" "$exe"
      return 0
    fi
  done
  return 1
}

if picked="$(pick_python)"; then
  { read -r name; read -r py; } <<< "$picked"
else
  python="${DONIFY_PYTHON:-python3}"
  found="$("$python" --version 2>&1 | head -1 || true)"
  command -v "$python" >/dev/null 2>&1 || found="not found"
  if [ -n "${DONIFY_PYTHON:-}" ]; then
    echo "setup: Donify needs Python 3.11 or newer; DONIFY_PYTHON=$python is ${found:-not found}." >&2
  else
    echo "setup: Donify needs Python 3.11 or newer; python3 is ${found:-not found}" \
         "and no python3.11 … python3.14 was found." >&2
  fi
  echo "setup: install one (Debian/Ubuntu: apt-get install python3.11 python3.11-venv; or from" \
       "python.org or pyenv), then run this again: it picks python3.1x itself (or set DONIFY_PYTHON)." >&2
  exit 1
fi

# GL/EGL and fonts for the window and its headless tests; glib for OpenCV (DJITelloPy's, in the tests);
# iproute2 for the Tello network-namespace recipe (scripts/tello-netns.sh)
debs=(libgl1 libegl1 libgl1-mesa-dri libegl-mesa0 libfreetype6 libfontconfig1 fonts-dejavu-core libglib2.0-0 iproute2)
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  installed="$(dpkg-query -W -f='${Package} ${Status}\n' "${debs[@]}" 2>/dev/null || true)"
  for p in "${debs[@]}"; do
    [[ $'\n'"$installed"$'\n' == *$'\n'"$p install ok installed"$'\n'* ]] || missing+=("$p")
  done
fi
state="$("$py" scripts/venv_state.py check .venv "$extra")"
if [ "$state" != ok ] && [ "$state" != install ] && ! "$py" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  if [ "$name" = python3 ]; then missing+=(python3-venv); else missing+=("${name##*/}-venv"); fi
fi
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

case "$state" in
  ok) exit 0 ;;
  rebuild*)
    echo "setup: ${state#rebuild }" >&2
    rm -rf .venv
    "$py" -m venv .venv ;;
  create)
    "$py" -m venv .venv ;;
esac
echo "setup: installing Donify${extra:+ $extra} into .venv with $("$py" --version) (a minute or two the first time)…" >&2
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extra}"
"$py" scripts/venv_state.py stamp .venv "$extra"
