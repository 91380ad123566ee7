"""The level in a running game: its geometry resource, contacts, and swapping it live.

The level's geometry and the drone's contacts against it are a feature of their own
(`systems.collision.LevelPlugin`). `apply_level(app, level)` swaps the level of a running App —
geometry, spawn pad for the next Restart — without touching the drones' state, unless the new
level's solids hold one: that one is lifted onto what holds it (`lift_buried_drones`).
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
from components.flight import RigidBody
from components.world import Collider
from systems.scene import SceneConfig, drone_components
from systems.scene import drones as scene_drones
from world.geometry import LevelGeometry
from world.level import ActiveLevel, Level
from world.sensing import lift_clear
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
    if level is not None:
        lift_buried_drones(app, active.geometry)


def lift_buried_drones(app: App, geometry: LevelGeometry) -> None:
    """A drone the new level's solids now hold (a shed saved where it rests, a building grown
    around it) is lifted straight up onto what holds it, its fall stopped: a designer's edit
    neither buries a drone out of sight nor damages it. Every other drone keeps its state.
    One held under more tops than `lift_clear` climbs is restarted instead."""
    for entity in scene_drones(app):
        body, collider = drone_components(app, RigidBody, Collider, entity=entity)
        x, y, z = (float(v) for v in body.position)
        lifted = lift_clear(geometry, (x, y, z), tuple(float(v) for v in body.quaternion), collider.size_m)
        if lifted == z:
            continue
        if lifted is None:
            log.info("the new level holds drone %d at (%.2f, %.2f, %.2f): restarted", entity, x, y, z)
            app.emit(events.Reset(entity))
            continue
        body.position[2] = lifted
        body.velocity[2] = max(0.0, float(body.velocity[2]))
        log.info("the new level holds drone %d at (%.2f, %.2f, %.2f): lifted %.2f m onto it", entity, x, y, z, lifted - z)


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
