"""Scene assembly: the drone entity, its spawn pose, and Restart.

`SceneConfig` (a resource) says what this App is: which vehicle, which level (or none: the
empty lab world), where the drone spawns, which seed. `Drone` holds the player's entity id.
Restart puts the drone back with `place_at_spawn` (systems/restart.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import esper

from components.flight import Airframe, Battery, Controller, RigidBody, Rotors
from components.layout import ROTORS
from components.modes import Mode
from components.world import Collider, Trail
from engine.app import App
from flight import quat
from flight.battery import fill
from flight.control.loops import FlightLoops
from flight.vehicle import Vehicle
from world.level import ActiveLevel
from world.sensing import sense_support


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


def place_at_spawn(app: App, position_m: tuple[float, float, float] | None = None) -> None:
    """Restart / ResetFlight: spawn pose, full pack, no damage, empty trail, MotorPower 0.
    `position_m`: another place than the spawn's for the centre of mass (a course's start pad)."""
    config = app.resource(SceneConfig)
    spawn = config.spawn_position_m if position_m is None else position_m
    entity = app.resource(Drone).entity
    app.activate()
    body = esper.component_for_entity(entity, RigidBody)
    rotors = esper.component_for_entity(entity, Rotors)
    battery = esper.component_for_entity(entity, Battery)
    ctrl = esper.component_for_entity(entity, Controller)
    collider = esper.component_for_entity(entity, Collider)
    trail = esper.component_for_entity(entity, Trail)
    vehicle = config.vehicle
    body.position[:] = spawn
    body.previous_position[:] = spawn
    body.velocity[:] = (0.0, 0.0, 0.0)
    body.acceleration[:] = (0.0, 0.0, 0.0)
    body.angular_velocity[:] = (0.0, 0.0, 0.0)
    body.quaternion[:] = quat.from_axis_angle((0.0, 0.0, 1.0), config.spawn_yaw_rad)
    body.previous_quaternion[:] = body.quaternion
    rotors.state[:] = ROTORS.fresh()  # stopped, disarmed, every rotor repaired (health 1)
    fill(battery.state, rotors.state, vehicle.physics)
    ctrl.mode = Mode.MANUAL
    ctrl.motor_power = 0.0
    ctrl.target_velocity[:] = (0.0, 0.0, 0.0)
    ctrl.target_altitude = spawn[2]
    ctrl.hold_altitude = True
    ctrl.hold_position = None
    ctrl.target_yaw_rate = 0.0
    ctrl.collective = 0.0
    ctrl.loops.manual.clear()
    ctrl.loops.reset(body.quaternion)
    collider.damage = 0.0
    collider.crashed = False
    collider.impact_speed_m_s = collider.impact_damage = 0.0
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


def drone_components(app: App, *kinds):
    """The player's drone components of the given types (for the facade and tools)."""
    entity = app.resource(Drone).entity
    app.activate()
    return tuple(esper.component_for_entity(entity, k) for k in kinds)

