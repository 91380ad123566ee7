"""Hot reload of a level file: notice a save, wait for it to settle, load it again.

`LevelWatcher(path).poll(now_s)` is called from the game loop (any clock in seconds). It
polls the file's modification time and size; once a change has been stable for `debounce_s`
(an editor may write a file in several steps) it loads the file and returns a
`ReloadResult`: the new `Level`, or `level=None` and the error lines — the caller keeps
the last good level. Between changes `poll` returns None and costs one `stat` every
`interval_s`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from engine.datafile import DataFileError
from world.level import Level, level_path, load_level


@dataclass(frozen=True)
class ReloadResult:
    path: Path
    level: Level | None  # None: the file has errors; keep flying the last good level
    errors: list[str] = field(default_factory=list)  # one located line per problem

    @property
    def ok(self) -> bool:
        return self.level is not None


class LevelWatcher:
    """Watches one level file. Args: path (file, folder or shipped name); debounce_s: quiet
    time after the last change before reloading; interval_s: time between two `stat`s."""

    def __init__(self, path: str | Path, debounce_s: float = 0.3, interval_s: float = 0.25) -> None:
        self.path = level_path(path)
        self.debounce_s = debounce_s
        self.interval_s = interval_s
        self._seen = self._signature()
        self._changed_at: float | None = None
        self._pending: tuple | None = None
        self._next_check = -float("inf")

    def _signature(self) -> tuple | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def poll(self, now_s: float) -> ReloadResult | None:
        """A result when a saved change has settled; None otherwise."""
        if now_s < self._next_check and self._pending is None:
            return None
        self._next_check = now_s + self.interval_s
        sig = self._signature()
        if sig != self._seen and sig != self._pending:
            self._pending, self._changed_at = sig, now_s  # a new change: (re)start the quiet time
            return None
        if self._pending is None or self._changed_at is None or now_s - self._changed_at < self.debounce_s:
            return None
        self._seen, self._pending, self._changed_at = self._pending, None, None
        return self.reload()

    def reload(self) -> ReloadResult:
        """Load the file now."""
        try:
            return ReloadResult(self.path, load_level(self.path))
        except DataFileError as exc:
            return ReloadResult(self.path, None, exc.lines)
