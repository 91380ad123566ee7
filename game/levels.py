"""The level in a running game: its geometry resource, contacts, and swapping it live.

The level's geometry and the drone's contacts against it are a feature of their own
(`systems.collision.LevelPlugin`). `apply_level(app, level)` swaps the level of a running App —
geometry, spawn pad for the next Restart — without touching the drone's state.
`apply_reload(app, result)` is what the game loop does with a `LevelWatcher` result: apply
a good level, keep the last good one on errors, and emit LEVEL_RELOADED with the error lines.

    watcher = LevelWatcher(level.source)           # world.level_watch: mtime polling, debounced
    ...every frame:
    result = watcher.poll(time.monotonic())
    if result is not None:
        apply_reload(app, result)

The game window uses `BackgroundLevelWatcher` instead (same `poll`): the file is parsed,
checked and compiled in a worker process, so a big level never stalls a frame.
"""

from __future__ import annotations

import logging
import math

from engine.app import App
from components import events
from systems.scene import SceneConfig
from world.geometry import LevelGeometry
from world.level import ActiveLevel, Level
from world.level_watch import ReloadResult

log = logging.getLogger("donify.level")


def apply_level(app: App, level: Level | None, geometry: LevelGeometry | None = None) -> None:
    """Fly in `level` from the next tick: new geometry and spawn pad; the drone keeps its state.

    `geometry`: the level's collision geometry if it was already compiled (a background
    reload compiles it in its worker: for a big level that is too long for a frame).
    """
    active = app.resource(ActiveLevel)
    if geometry is None or level is None:
        active.swap(level)
    else:  # what swap does, minus the compiling
        active.level, active.geometry = level, geometry
        active.version += 1
    config = app.try_resource(SceneConfig)
    if config is not None:
        config.level = level
        if level is not None:
            config.spawn_position_m = level.spawn_position(config.vehicle.envelope_size_m[2])
            config.spawn_yaw_rad = math.radians(level.spawn_yaw_deg)


def apply_reload(app: App, result: ReloadResult) -> list[str]:
    """Apply a watcher's result: the new level if it loaded, else keep the last good one.

    Emits LEVEL_RELOADED with the error lines (empty: reloaded fine) and returns them.
    """
    if result.level is not None:
        apply_level(app, result.level, result.geometry)
        log.info("level reloaded: %s", result.path)
    else:
        for line in result.errors:
            log.warning("%s", line)
    app.emit(events.LevelReloaded(tuple(result.errors)))
    return list(result.errors)
