"""A level's traffic: AI drones that fly scripted routes (the level's `[[traffic]]`).

When a level becomes active — the first frame of a flight, then every level swap
(`game.levels.apply_level`, a hot reload) — `RunTraffic` takes the old level's traffic out of
the world and spawns one drone per `[[traffic]]` entry of the new one, resting on its start
place. Every frame (INPUT stage, before the pads are read) it plays each drone's route onto
that drone's own `Pad` — never the player's — the way `donify fly` plays a flight script:
the actions due at the frame's start time are done, selections (`takeoff`, `land`…) act on
that drone alone.

- `start_delay_s`: the route's clock starts that long after the level became active.
- `loop = true`: when the route's length has passed (the script's `seconds`, else 2 s after
  its last action), the drone is restarted on its start place (`events.Reset(entity)`:
  full pack, repaired, pad neutral) and the route plays again from 0.
- A crashed traffic drone stays where it fell `CRASH_RESTART_S`, then restarts the same way
  (with or without `loop`).

Reading the routes is not this module's business: the plugin is given `routes(level)` (the
game passes `game.traffic.level_routes`, which reads the flight-script format), returning
one `Route` or None per entry and the problems as one located line each. An entry without
a route (a missing or bad script) brings no drone; its line is logged and shown as a
`Message`. Nothing a route file holds can stop the game.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

import esper

from components import events
from components.pilot import Pad
from components.world import Collider
from engine.app import App
from engine.stages import Stage
from flight.vehicle import Vehicle
from systems.menu import select
from systems.pilot_input import ReadPilotInput
from systems.scene import SceneConfig, drones, remove_drone, spawn_drone
from world.level import ActiveLevel, Level

log = logging.getLogger("donify.traffic")

CRASH_RESTART_S = 3.0  # a crashed traffic drone lies this long, then restarts on its start place


class RoutePlayer(Protocol):
    """Plays a timeline onto `target` (which has a `pad` and `select(name)`): every action due
    at or before `t` (seconds of route time) is done."""

    def apply(self, target: Any, t: float) -> None: ...


@dataclass(frozen=True)
class Route:
    """A traffic drone's route: `player(warn)` makes a fresh player (it starts at t = 0);
    `seconds` is the route's length (when a loop restarts)."""

    player: Callable[[Callable[[str], None]], RoutePlayer]
    seconds: float


#: routes(level) → (a Route or None for each `level.traffic` entry, one located line per problem)
RouteLoader = Callable[[Level], tuple[list[Route | None], list[str]]]


@dataclass
class TrafficDrone:
    """The component of a traffic drone: which entry it flies, and where its route is."""

    id: str  # the `[[traffic]]` entry's id
    route: Route
    loop: bool
    start_delay_s: float
    player: RoutePlayer | None = None
    time_s: float = 0.0  # route time: < 0 while the start delay runs
    crashed_s: float = 0.0  # how long it has lain crashed
    laps: int = 0  # restarts so far (loops and crashes)
    target: Any = field(default=None, repr=False)


class _Target:
    """What a route player drives: this drone's pad, and the menu acting on this drone."""

    def __init__(self, app: App, entity: int, pad: Pad) -> None:
        self.app, self.entity, self.pad = app, entity, pad

    def select(self, name: str) -> None:
        select(self.app, name, self.entity)


class RunTraffic(esper.Processor):
    """INPUT: bring the active level's traffic into the world (once per level), then play each
    traffic drone's route onto its pad for this frame."""

    def __init__(self, app: App, routes: RouteLoader | None) -> None:
        self.app = app
        self.routes = routes
        self.version: int | None = None  # the ActiveLevel version whose traffic flies
        self.flying: list[tuple[int, TrafficDrone, Collider]] = []  # entity, its route, its contacts
        self.active: ActiveLevel | None = None

    @property
    def entities(self) -> list[int]:
        """The traffic drones' entities, in the level's order."""
        return [entity for entity, _, _ in self.flying]

    def process(self, dt: float) -> None:
        active = self.active
        if active is None:  # swapped in place: one object for the App's life, once there is one
            active = self.active = self.app.try_resource(ActiveLevel)
        if active is not None and active.version != self.version:
            self.version = active.version
            self._swap(active.level)
        for entity, drone, collider in self.flying:
            self._fly(entity, drone, collider, dt)

    # -- the level's traffic -----------------------------------------------------------------
    def _swap(self, level: Level | None) -> None:
        app = self.app
        alive = set(drones(app))
        leaving, self.flying = self.entities, []
        for entity in leaving:
            if entity in alive:
                remove_drone(app, entity)
        if level is None or not level.traffic or self.routes is None:
            return
        try:
            routes, problems = self.routes(level)
        except Exception as exc:  # noqa: BLE001 — a route loader's bug must not stop the game
            routes, problems = [None] * len(level.traffic), [f"{level.source or level.name}: traffic: "
                                                             f"not flown: {type(exc).__name__}: {exc}"]
        for line in problems:
            self._warn(line)
        config = app.resource(SceneConfig)
        vehicle: Vehicle = config.vehicle
        height = vehicle.envelope_size_m[2]
        for index, (entry, route) in enumerate(zip(level.traffic, routes)):
            if route is None:
                continue
            try:
                position, yaw_deg = level.start_of(entry, height)
            except KeyError:  # a level made in code, never checked (a file's pads are)
                self._warn(f"{level.source or level.name}: traffic.{index}.pad: expected the id of a pad, "
                           f"got {entry.pad!r}; not flown")
                continue
            entity = spawn_drone(app, config, position, math.radians(yaw_deg), vehicle)
            app.activate()
            pad = esper.component_for_entity(entity, Pad)
            drone = TrafficDrone(entry.id, route, entry.loop, float(entry.start_delay_s),
                                 time_s=-float(entry.start_delay_s), target=_Target(app, entity, pad))
            drone.player = route.player(self._warn)
            esper.add_component(entity, drone)
            self.flying.append((entity, drone, esper.component_for_entity(entity, Collider)))

    def on_removed(self, event: events.DroneRemoved) -> None:
        # taken out by someone else (sim.remove_drone)
        self.flying = [f for f in self.flying if f[0] != event.entity]

    # -- one frame of one drone ------------------------------------------------------------
    def _fly(self, entity: int, drone: TrafficDrone, collider: Collider, dt: float) -> None:
        if collider.crashed:
            drone.crashed_s += dt
            if drone.crashed_s >= CRASH_RESTART_S:
                self._restart(entity, drone)
            return
        if drone.loop and drone.time_s >= drone.route.seconds:
            self._restart(entity, drone)
        if drone.time_s >= 0.0:
            drone.player.apply(drone.target, drone.time_s)
        drone.time_s += dt

    def _restart(self, entity: int, drone: TrafficDrone) -> None:
        self.app.emit(events.Reset(entity))  # start place, full pack, repaired, pad neutral
        drone.player = drone.route.player(self._warn)
        drone.time_s = 0.0
        drone.crashed_s = 0.0
        drone.laps += 1

    def _warn(self, line: str) -> None:
        log.warning("%s", line)
        self.app.emit(events.Message(line))


class TrafficPlugin:
    """The level's traffic (`RunTraffic`). `routes`: reads a level's routes (the game gives
    `game.traffic.level_routes`); None flies no traffic."""

    name = "traffic"

    def __init__(self, routes: RouteLoader | None = None) -> None:
        self.routes = routes

    def build(self, app: App) -> None:
        self.traffic = RunTraffic(app, self.routes)
        app.add_system(self.traffic, Stage.INPUT, before=ReadPilotInput)
        app.on(events.DroneRemoved, self.traffic.on_removed)
