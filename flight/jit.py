"""The one switch for compiled flight code.

The per-tick flight model and controllers are plain Python functions over float64 arrays,
compiled by numba (`njit`, cached on disk next to the sources). Set DONIFY_NO_JIT=1 to run
the very same functions as plain Python — slower, handy with a debugger.
"""

from __future__ import annotations

import os

if os.environ.get("DONIFY_NO_JIT"):
    def njit(fn=None, **_options):
        return fn if fn is not None else (lambda f: f)
else:
    from numba import njit as _numba_njit

    def njit(fn=None, **options):
        options.setdefault("cache", True)
        options.setdefault("fastmath", False)  # keep IEEE results: telemetry must be reproducible
        if fn is None:
            return lambda f: _numba_njit(**options)(f)
        return _numba_njit(**options)(fn)
