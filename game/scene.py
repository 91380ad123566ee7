"""Scene assembly: the drone entity, its spawn pose, mode changes and Restart.

`SceneConfig` (a resource) says what this App is: which vehicle, which level (or none: the
empty lab world), where the drone spawns, which seed. `Drone` holds the player's entity id.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import esper

from components.flight import Airframe, Battery, Controller, RigidBody, Rotors
from components.pilot import Pad
from components.world import Collider, Trail
from engine.app import App
from flight import quat
from flight.battery import fill
from flight.control.loops import FlightLoops
from flight.vehicle import Vehicle
from game import events
from systems.control import law_of
from world.geometry import ActiveLevel
from world.sensing import sense_support

MODES = ("manual", "angle", "acro")


@dataclass
class SceneConfig:
    vehicle: Vehicle
    level: Any = None  # world.level.Level, or None for the empty lab world
    spawn_position_m: tuple[float, float, float] = (0.0, 0.0, 0.0)  # centre of mass, world
    spawn_yaw_rad: float = 0.0
    seed: int = 0
    rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)


@dataclass
class Drone:
    """The player's drone entity (a resource)."""

    entity: int


def spawn_drone(app: App, config: SceneConfig) -> int:
    vehicle = config.vehicle
    app.activate()
    body = RigidBody()
    rotors = Rotors()
    battery = Battery()
    ctrl = Controller(loops=FlightLoops(vehicle))
    collider = Collider(size_m=vehicle.envelope_size_m)
    entity = esper.create_entity(Airframe(vehicle), body, rotors, battery, ctrl, collider, Trail())
    app.insert_resource(Drone(entity))
    place_at_spawn(app)
    return entity


def place_at_spawn(app: App) -> None:
    """Restart / ResetFlight: spawn pose, full pack, no damage, empty trail, MotorPower 0."""
    config = app.resource(SceneConfig)
    entity = app.resource(Drone).entity
    app.activate()
    body = esper.component_for_entity(entity, RigidBody)
    rotors = esper.component_for_entity(entity, Rotors)
    battery = esper.component_for_entity(entity, Battery)
    ctrl = esper.component_for_entity(entity, Controller)
    collider = esper.component_for_entity(entity, Collider)
    trail = esper.component_for_entity(entity, Trail)
    vehicle = config.vehicle
    body.position[:] = config.spawn_position_m
    body.previous_position[:] = config.spawn_position_m
    body.velocity[:] = (0.0, 0.0, 0.0)
    body.acceleration[:] = (0.0, 0.0, 0.0)
    body.angular_velocity[:] = (0.0, 0.0, 0.0)
    body.quaternion[:] = quat.from_axis_angle((0.0, 0.0, 1.0), config.spawn_yaw_rad)
    body.previous_quaternion[:] = body.quaternion
    rotors.state[:] = 0.0
    fill(battery.state, rotors.state, vehicle.packed)
    ctrl.mode = "manual"
    ctrl.motor_power = 0.0
    ctrl.target_velocity[:] = (0.0, 0.0, 0.0)
    ctrl.target_altitude = config.spawn_position_m[2]
    ctrl.hold_altitude = True
    ctrl.hold_position = None
    ctrl.target_yaw_rate = 0.0
    ctrl.collective = 0.0
    ctrl.loops.manual.clear()
    ctrl.loops.reset(body.quaternion)
    collider.damage = 0.0
    collider.contact = False
    collider.last_impact_speed_m_s = 0.0
    _sense_at_spawn(app, body, collider)
    trail.points.clear()
    trail.since_last_s = 0.0


def _sense_at_spawn(app: App, body: RigidBody, collider: Collider) -> None:
    """Ground sensing before the first tick: what is under the drone where it was put."""
    active = app.try_resource(ActiveLevel)
    support = None if active is None else sense_support(active.geometry, body.position, body.quaternion,
                                                        collider.size_m)
    collider.support_height_m = None if support is None else support.height_m
    collider.support_id = None if support is None else support.id
    collider.height_above_ground_m = None if support is None else support.distance_m


class FlightModes:
    """Switches the drone's mode without touching its physical state (a long-lived handler)."""

    def __init__(self, app: App) -> None:
        self.app = app

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}: expected one of {', '.join(MODES)}")
        app = self.app
        entity = app.resource(Drone).entity
        app.activate()
        ctrl = esper.component_for_entity(entity, Controller)
        body = esper.component_for_entity(entity, RigidBody)
        old = ctrl.mode
        if law_of(old) != law_of(mode):
            ctrl.loops.reset(body.quaternion)  # another law: its loops start afresh
        if mode == "manual":
            ctrl.loops.manual.resume(ctrl, body)
        else:
            ctrl.collective = ctrl.motor_power
        ctrl.mode = mode
        if old != mode:
            app.emit(events.MODE_CHANGED, old, mode)

    def on_menu_selected(self, entry: str) -> None:
        if entry in MODES:
            self.set_mode(entry)
        elif entry == "restart":
            self.app.emit(events.RESET)

    def on_reset(self) -> None:
        place_at_spawn(self.app)
        pad = self.app.try_resource(Pad)
        if pad is not None:
            pad.neutral()


def drone_components(app: App, *kinds):
    """The player's drone components of the given types (for the facade and tools)."""
    entity = app.resource(Drone).entity
    app.activate()
    return tuple(esper.component_for_entity(entity, k) for k in kinds)
