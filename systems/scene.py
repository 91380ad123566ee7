"""Scene assembly: the drone entity, its spawn pose, and Restart.

`SceneConfig` (a resource) says what this App is: which vehicle, which level (or none: the
empty lab world), where the player's drone spawns, which seed. `Player` holds the player's
entity id. `spawn_drone` makes a drone (the first is the player's), `remove_drone` takes one
out, `drones` lists them; Restart puts a drone back with `place_at_spawn` (systems/restart.py).
A drone's numbers live in its row of the `FleetStore` (components/fleet.py), so the fixed
tick runs every drone in one compiled call.
"""

from __future__ import annotations

import random
from functools import partial
from dataclasses import dataclass, field
from typing import Any

import esper

from components import events
from components.fleet import FleetStore
from components.flight import Airframe, Battery, Controller, RigidBody, Rotors
from components.layout import CONTACTS, CONTACTS_SIZE, ROTORS
from components.modes import Mode
from components.pilot import Pad, PilotCommand
from components.world import Collider, FleetRow, Spawn, Trail
from engine.app import App
from flight import quat
from flight.battery import fill
from flight.control.loops import FlightLoops
from flight.fleet import COLUMN_GROUPS
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


ROWS_PER_BLOCK = 256  # drones per FleetStore block


@dataclass
class Player:
    """The player's drone (a resource): the entity the pad, the menu, the HUD and the chase
    camera act on. While a menu action runs for another drone (`systems.menu.select(…,
    entity=)`), it names that drone."""

    entity: int


def is_player(app: App, entity: int | None) -> bool:
    """Whether an event's `entity` is the player's drone (None: it is)."""
    return entity is None or entity == app.resource(Player).entity


def fleet_store(app: App) -> FleetStore:
    """The drones' rows (a resource, made with the first drone): the tables the fleet kernels
    read (flight/fleet.py), the envelope size and the contact results."""
    store = app.try_resource(FleetStore)
    if store is None:
        # one block holds every drone up to ROWS_PER_BLOCK: the drone-drone contacts pair the
        # drones of a block (world/collision.py), so more would not meet the first ones
        store = app.insert_resource(FleetStore((*COLUMN_GROUPS, ("size", 3), ("contacts", CONTACTS_SIZE)),
                                               rows_per_block=ROWS_PER_BLOCK))
    return store


def spawn_drone(app: App, config: SceneConfig, position_m: tuple[float, float, float] | None = None,
                yaw_rad: float | None = None, vehicle: Vehicle | None = None) -> int:
    """A new drone resting where it is put, motors off: its entity. The first drone is the
    player's (`Player`); its spawn follows the scene's (`SceneConfig`, a level reload moves it).
    `position_m` (centre of mass, world) and `yaw_rad` default to the scene's spawn.

    Every drone has its own pad and command (`Pad`, `PilotCommand` components; the player's are
    the resources every input device writes), and `DroneSpawned` lets each feature add its own
    per-drone state."""
    vehicle = vehicle or config.vehicle
    app.activate()
    store = fleet_store(app)
    block, row = store.allocate()
    view = partial(store.view, block, row)
    view("physics")[:] = vehicle.physics
    view("gains")[:] = vehicle.gains
    view("size")[:] = vehicle.envelope_size_m
    ctrl = Controller(loops=FlightLoops(vehicle, view("loops")), targets=view("targets"), lab=view("lab"))
    player = app.try_resource(Player)
    is_player = player is None
    pad = (app.try_resource(Pad) or app.insert_resource(Pad())) if is_player else Pad()
    command = (app.try_resource(PilotCommand) or app.insert_resource(PilotCommand())) if is_player else PilotCommand()
    spawn = Spawn(None, None) if is_player else Spawn(
        tuple(position_m) if position_m is not None else config.spawn_position_m,
        yaw_rad if yaw_rad is not None else config.spawn_yaw_rad)
    entity = esper.create_entity(
        Airframe(vehicle), RigidBody(view("body")), Rotors(view("rotors")), Battery(view("battery")), ctrl,
        Collider(vehicle.envelope_size_m, view("contacts"), _solid_ids(app)), Trail(), pad, command, spawn,
        FleetRow(block, row))
    if is_player:
        app.insert_resource(Player(entity))
    place_at_spawn(app, entity=entity)
    app.emit(events.DroneSpawned(entity))
    return entity


def _solid_ids(app: App) -> tuple[str, ...]:
    active = app.try_resource(ActiveLevel)
    return () if active is None else active.geometry.solid_ids


def remove_drone(app: App, entity: int) -> None:
    """Take a drone out of the world (not the player's): its row is given back."""
    app.activate()
    if entity == app.resource(Player).entity:
        raise ValueError("the player's drone cannot be removed")
    where = esper.component_for_entity(entity, FleetRow)
    app.emit(events.DroneRemoved(entity))
    esper.delete_entity(entity, immediate=True)
    fleet_store(app).release(where.block, where.row)


def drones(app: App) -> list[int]:
    """Every drone's entity, in creation order (the player's first)."""
    app.activate()
    return sorted(entity for entity, _ in esper.get_component(FleetRow))


def place_at_spawn(app: App, position_m: tuple[float, float, float] | None = None, *, entity: int | None = None) -> None:
    """Restart / ResetFlight: spawn pose, full pack, no damage, empty trail, MotorPower 0.
    `position_m`: another place than the spawn's for the centre of mass (a course's start pad).
    `entity`: the drone (default: the player's)."""
    config = app.resource(SceneConfig)
    entity = app.resource(Player).entity if entity is None else entity
    app.activate()
    own = esper.component_for_entity(entity, Spawn)
    spawn = position_m or own.position_m or config.spawn_position_m
    yaw = config.spawn_yaw_rad if own.yaw_rad is None else own.yaw_rad
    body = esper.component_for_entity(entity, RigidBody)
    rotors = esper.component_for_entity(entity, Rotors)
    battery = esper.component_for_entity(entity, Battery)
    ctrl = esper.component_for_entity(entity, Controller)
    collider = esper.component_for_entity(entity, Collider)
    trail = esper.component_for_entity(entity, Trail)
    vehicle = esper.component_for_entity(entity, Airframe).vehicle
    body.position[:] = spawn
    body.previous_position[:] = spawn
    body.velocity[:] = (0.0, 0.0, 0.0)
    body.acceleration[:] = (0.0, 0.0, 0.0)
    body.angular_velocity[:] = (0.0, 0.0, 0.0)
    body.quaternion[:] = quat.from_axis_angle((0.0, 0.0, 1.0), yaw)
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
    collider.results[:] = CONTACTS.fresh()  # no contact, not resting: sensed again below
    collider.solid_ids = _solid_ids(app)
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


def drone_components(app: App, *kinds, entity: int | None = None):
    """A drone's components of the given types (default: the player's; for the facade and tools)."""
    entity = app.resource(Player).entity if entity is None else entity
    app.activate()
    return tuple(esper.component_for_entity(entity, k) for k in kinds)

