"""The one switch for compiled flight code.

The per-tick flight model and controllers are plain Python functions over float64 arrays,
compiled by numba (`njit`). Compiled code is cached on disk, in the user's cache folder
(or $DONIFY_JIT_CACHE) under `numba/CHECKOUT/SOURCES`: SOURCES is derived from every source
file of the `flight` and `world` packages (the compiled contacts and whole ticks call the
flight kernels) and from components/layout.py, whose offsets the compiled code freezes as
constants — numba checks only the file a function is defined in, so an edit to a
callee or to the layout would otherwise run stale machine code — and CHECKOUT from
where this copy of Donify lives. When the sources change, the caches of the older sources of
*this* checkout are deleted; those of other checkouts (another clone, an installed copy, a
CI worktree), each running its own sources, are theirs and are left alone, as is anything
in the folder not named like a cache. Set DONIFY_NO_JIT=1 to run the very same functions as
plain Python — slower, handy with a debugger.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

_FLIGHT = Path(__file__).resolve().parent
_LAYOUT = _FLIGHT.parent / "components" / "layout.py"  # the offsets compiled in as constants


def _cache_dir() -> Path:
    digest = hashlib.sha256()
    world = _FLIGHT.parent / "world"
    for path in [*sorted(_FLIGHT.rglob("*.py")), *sorted(world.rglob("*.py")), _LAYOUT]:
        digest.update(path.relative_to(_FLIGHT.parent).as_posix().encode())
        digest.update(path.read_bytes())
    import platformdirs  # noqa: PLC0415

    root = Path(os.environ.get("DONIFY_JIT_CACHE") or platformdirs.user_cache_dir("donify")) / "numba"
    mine = root / hashlib.sha256(str(_FLIGHT).encode()).hexdigest()[:_NAME_CHARS]
    here = mine / digest.hexdigest()[:_NAME_CHARS]
    if not here.is_dir() and mine.is_dir():
        for old in mine.iterdir():  # caches of older versions of this checkout's sources
            if _CACHE_NAME.fullmatch(old.name) and old.is_dir() and not old.is_symlink():
                shutil.rmtree(old, ignore_errors=True)
    return here


_NAME_CHARS = 16  # hexadecimal digits of a checkout's or sources' name
_CACHE_NAME = re.compile(f"[0-9a-f]{{{_NAME_CHARS}}}")


#: every compiled function made by `njit` (numba dispatchers, in definition order): the loading
#: screen counts those compiled (game/startup.py). Empty with DONIFY_NO_JIT.
DISPATCHERS: list = []


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
            return lambda f: _registered(_numba_njit(**options)(f))
        return _registered(_numba_njit(**options)(fn))

    def _registered(dispatcher):
        DISPATCHERS.append(dispatcher)
        return dispatcher
