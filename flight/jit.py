"""The one switch for compiled flight code.

The per-tick flight model and controllers are plain Python functions over float64 arrays,
compiled by numba (`njit`). Compiled code is cached on disk, in the user's cache folder
under a name derived from every source file of the `flight` package: numba checks only the
file a function is defined in, so an edit to a callee in another file would otherwise run
stale machine code. Set DONIFY_NO_JIT=1 to run the very same functions as plain Python —
slower, handy with a debugger.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

_FLIGHT = Path(__file__).resolve().parent


def _cache_dir() -> Path:
    digest = hashlib.sha256()
    for path in sorted(_FLIGHT.rglob("*.py")):
        digest.update(path.relative_to(_FLIGHT).as_posix().encode())
        digest.update(path.read_bytes())
    import platformdirs  # noqa: PLC0415

    root = Path(os.environ.get("DONIFY_JIT_CACHE") or platformdirs.user_cache_dir("donify")) / "numba"
    here = root / digest.hexdigest()[:16]
    if not here.is_dir() and root.is_dir():
        for old in root.iterdir():  # caches of other versions of the sources
            shutil.rmtree(old, ignore_errors=True)
    return here


if os.environ.get("DONIFY_NO_JIT"):
    def njit(fn=None, **_options):
        return fn if fn is not None else (lambda f: f)
else:
    import numba
    from numba import njit as _numba_njit

    numba.config.CACHE_DIR = str(_cache_dir())

    def njit(fn=None, **options):
        options.setdefault("cache", True)
        options.setdefault("fastmath", False)  # keep IEEE results: telemetry must be reproducible
        if fn is None:
            return lambda f: _numba_njit(**options)(f)
        return _numba_njit(**options)(fn)
