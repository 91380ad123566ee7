"""The headless Simulation: the whole game without a window, audio device or GL context.

This is the contract of docs/api.md#the-headless-simulation — the API tests, level designers' scripts, `donify fly`
and the window all drive:

    sim = Simulation()                          # the default level, seed 0
    sim = Simulation(level=None, density=0.0, wind=(0, 0, 0), position=(0, 0, 100))  # lab world
    sim.pad.rt = 1.0; sim.pad.press("Y")        # the virtual gamepad
    sim.step(); sim.run(2.0)                    # one 1/60 s frame; frames for 2 s
    sim.select("mission"); sim.set_mode("angle"); sim.reset()
    t = sim.telemetry()                         # SI, world frame, Z up

    d = sim.add_drone(position=(10, 2, 0.07), yaw_deg=90)   # another drone, with its own pad
    d.pad.rt = 1.0; d.select("takeoff"); d.telemetry(); d.reset()
    sim.drones                                  # [the player's drone, the others…], creation order
    sim.remove_drone(d)

`sim.pad`, `sim.telemetry()`, `sim.select()`, `sim.set_mode()` and `sim.reset()` are the
player's drone's (`sim.drones[0]`). Same inputs and seed give bit-identical telemetry, for
every drone, whatever the order the others were made in. Bad arguments raise ValueError.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Iterable

import esper

from components.flight import Battery, Controller, RigidBody, Rotors
from components.pilot import Pad
from components.world import Collider, Trail
from engine.app import App, Plugin
from engine.datafile import DataFileError
from flight import quat
from flight.vehicle import RPM_TO_RAD_S, Vehicle, default_vehicle, load_vehicle
from components import events
from game.best_times import BestTimes, keep_best_times
from game.levels import apply_level
from game.plugins import build_mods, default_plugins
from game.replay import FORMAT, FORMAT_VERSION, Recorder, donify_version, level_hash, vehicle_hash
from game.seed import check_seed
from game.telemetry import Telemetry
from systems.weather import set_weather as _set_weather
from systems.weather import start_weather
from systems.assists import AssistState
from systems.course import CourseState
from systems.menu import select
from systems.modes import FlightModes
from systems.scene import Player, SceneConfig, drone_components, remove_drone, spawn_drone
from systems.scene import drones as drone_entities
from world.geometry import LevelGeometry
from world.level import ActiveLevel, Level, compile_level
from world.level_file import load_level
from world.sensing import TOUCH_TOLERANCE_M, overlapping
from world.weather import check_weather

FRAME_S = 1.0 / 60.0


def _check_vector(name: str, value, length: int = 3) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected {length} numbers, got {value!r}") from None
    if len(values) != length or not all(math.isfinite(v) for v in values):
        raise ValueError(f"{name}: expected {length} finite numbers, got {value!r}")
    return values


def _vehicle_of(vehicle) -> Vehicle:
    """The vehicle asked for: None (the default), a loaded `Vehicle`, or a vehicle file's path."""
    if vehicle is None:
        return default_vehicle()
    if isinstance(vehicle, Vehicle):
        return vehicle
    if not isinstance(vehicle, (str, Path)):
        raise ValueError(f"vehicle: expected a vehicle file path or a Vehicle, got {vehicle!r}")
    return load_vehicle(vehicle)


class NoFreeSpawn(ValueError):
    """`add_drone()` without a position, in a level whose start places are all taken."""


def _check_start(position: tuple[float, ...], yaw_rad: float, size_m, level: Level | None,
                 geometry: LevelGeometry) -> None:
    """A start whose guard envelope reaches into the ground or a solid is refused: the drone
    would be held between the ground and what stands on it, or fall through a building's
    inside and stay there, out of sight. Touching a surface (resting on it) is fine."""
    if level is None:
        return  # the lab world: no ground, nothing in it
    half_z = 0.5 * size_m[2]
    ground = level.ground.height
    if position[2] - half_z < ground - TOUCH_TOLERANCE_M:
        raise ValueError(f"position: z = {position[2]:g} m puts the drone's guards below the ground of this level "
                         f"({ground:g} m): their bottom at {position[2] - half_z:g} m; resting on the ground is "
                         f"z = {ground + half_z:g} m")
    hit = overlapping(geometry, position, quat.from_axis_angle((0.0, 0.0, 1.0), yaw_rad), size_m)
    if hit is not None:
        x, y, z = position
        raise ValueError(f"position: expected a place clear of the level's solids, got ({x:g}, {y:g}, {z:g}): "
                         f"the drone there overlaps {hit.kind} {hit.id!r}")


class Simulation:
    """Args:
        level: a shipped level name, a level file or folder path, or None for the empty lab
            world (no ground, no obstacles).
        seed: seeds every random process (gusts, turbulence).
        density: air density in kg/m³ (default: the level's preset, else 1.225).
        wind: constant wind (x, y, z) in m/s, world frame (default: the level's preset, else calm).
        position: spawn position of the centre of mass, m (default: the level's spawn pad).
        yaw_deg: spawn heading, degrees counter-clockwise from world X.
        vehicle: a vehicle file path or a loaded `Vehicle` (default: the shipped Tello).
        plugins: extra plugins (mods) built after the game's own, and watched while it runs:
            one that raises or leaves the drone's state non-finite is disabled, a slow one
            named (game.plugins.build_mods); `mod_problems` lists every such line.
        strict_mods: raise instead (the mod's exception, or game.plugins.ModError).
        best_times: a best-times file (game/best_times.py) the course runs read their best
            splits from and record finished runs in; None keeps none. `sim.best_times.problems`
            lists its one-line problems (a corrupt file set aside, a failed save).
    """

    def __init__(self, level: str | Path | None = "street", *, seed: int = 0,
                 density: float | None = None, wind=None, position=None, yaw_deg: float | None = None,
                 vehicle: Vehicle | str | Path | None = None, plugins: Iterable[Plugin] = (),
                 strict_mods: bool = False, best_times: str | Path | None = None) -> None:
        check_seed(seed)
        if density is not None or wind is not None:
            check_weather(1.225 if density is None else density, (0, 0, 0) if wind is None else wind)
        if position is not None:
            position = _check_vector("position", position)
        if yaw_deg is not None and (not isinstance(yaw_deg, (int, float)) or not math.isfinite(yaw_deg)):
            raise ValueError(f"yaw_deg: expected a finite number, got {yaw_deg!r}")
        vehicle = _vehicle_of(vehicle)
        self.vehicle = vehicle
        # how this Simulation was made, for a replay (game/replay.py)
        self._made_with = {"level": level if isinstance(level, str) or level is None else str(level),
                           "seed": seed, "density": density, "wind": None if wind is None else list(wind),
                           "position": None if position is None else list(position), "yaw_deg": yaw_deg,
                           "vehicle": None if vehicle is default_vehicle() else vehicle.source}
        self._recorder: Recorder | None = None

        level_obj, spawn, spawn_yaw, preset_density, preset_wind = _resolve_level(level, vehicle)
        if position is not None:
            _check_start(position, math.radians(yaw_deg) if yaw_deg is not None else spawn_yaw,
                         vehicle.envelope_size_m, level_obj,
                         compile_level(level_obj) if level_obj is not None else LevelGeometry.empty())
        self.level = level_obj
        # the level's start preset in full (wind, gusts, density, rain); explicit wind/density replace its own
        weather = start_weather(level_obj, wind=wind, density=density)
        self.app = App()
        self.config = SceneConfig(
            vehicle=vehicle, level=level_obj,
            spawn_position_m=position if position is not None else spawn,
            spawn_yaw_rad=math.radians(yaw_deg) if yaw_deg is not None else spawn_yaw,
            seed=seed,
        )
        app = self.app
        app.insert_resource(self.config)
        app.insert_resource(weather)
        self.pad = app.insert_resource(Pad())
        app.add_plugins(default_plugins())
        self._handles: dict[int, Drone] = {}  # entity → its handle, made on first sight
        spawn_drone(app, self.config)
        self.best_times = None if best_times is None else BestTimes(best_times)
        self._best_keeper = None if self.best_times is None else keep_best_times(app, self.best_times)
        self.mod_problems = build_mods(app, list(plugins), strict=strict_mods)
        self.mods = [str(p.name) for p in plugins]

    # -- driving ---------------------------------------------------------------------------
    def step(self, dt: float = FRAME_S) -> None:
        """One frame of `dt` seconds (capped at 0.25 s, sub-stepped at 1/240 s)."""
        if isinstance(dt, bool) or not isinstance(dt, (int, float)) or not math.isfinite(dt) or dt <= 0.0:
            raise ValueError(f"dt: expected a finite number of seconds > 0, got {dt!r}")
        if self._recorder is not None:
            self._recorder.frame(self.pad, dt)
        self.app.update(float(dt))

    def run(self, seconds: float, dt: float = FRAME_S) -> None:
        """Frames of `dt` until `seconds` of game time have passed."""
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds < 0.0:
            raise ValueError(f"seconds: expected a finite number ≥ 0, got {seconds!r}")
        frames = max(0, math.ceil(seconds / dt - 1e-9))
        for _ in range(frames):
            self.step(dt)

    def select(self, name: str) -> None:
        """What choosing `name` in the LB/Tab menu does (an unknown name raises ValueError)."""
        select(self.app, name)
        self._note("select", name=name)

    def set_mode(self, mode: str) -> None:
        """Switch to a laboratory model ("angle", "acro") or back to "manual"."""
        self.app.resource(FlightModes).set_mode(mode)
        self._note("set_mode", mode=mode)

    def reset(self) -> None:
        """Restart / ResetFlight: spawn pad, full pack, repaired, trail cleared."""
        self.app.emit(events.Reset())
        self._note("reset")

    # -- many drones -----------------------------------------------------------------------
    def add_drone(self, position=None, yaw_deg: float = 0.0, vehicle: Vehicle | str | Path | None = None) -> "Drone":
        """Another drone, resting where it is put with its motors off, flown by its own pad.

        Args:
            position: centre of mass (x, y, z), m, world; None: the level's next free spawn
                point (a level lists them: `spawn_points`).
            yaw_deg: heading, degrees counter-clockwise from world X.
            vehicle: a vehicle file path or a loaded `Vehicle` (default: this Simulation's).
        """
        if position is None:
            position = self._free_spawn()
        position = _check_vector("position", position)
        if isinstance(yaw_deg, bool) or not isinstance(yaw_deg, (int, float)) or not math.isfinite(yaw_deg):
            raise ValueError(f"yaw_deg: expected a finite number, got {yaw_deg!r}")
        vehicle = self.vehicle if vehicle is None else _vehicle_of(vehicle)
        active = self.app.resource(ActiveLevel)  # the level flown now (a hot reload may have changed it)
        _check_start(position, math.radians(yaw_deg), vehicle.envelope_size_m, active.level, active.geometry)
        drone = self._handle(spawn_drone(self.app, self.config, position, math.radians(yaw_deg), vehicle))
        self._note("add_drone", position=list(position), yaw_deg=float(yaw_deg),
                   vehicle=None if vehicle is self.vehicle else vehicle.source)
        return drone

    def remove_drone(self, drone: "Drone") -> None:
        """Take a drone out of the world (any but the player's)."""
        if not isinstance(drone, Drone) or drone not in self.drones:
            raise ValueError(f"remove_drone(): expected one of this simulation's drones, got {drone!r}")
        if drone is self.drones[0]:
            raise ValueError("remove_drone(): the player's drone (sim.drones[0]) stays")
        remove_drone(self.app, drone.entity)
        del self._handles[drone.entity]
        drone._removed = True

    @property
    def drones(self) -> list["Drone"]:
        """Every drone in the world, in creation order: the player's first, then those added
        (`add_drone`) and those the level brought (its traffic)."""
        entities = drone_entities(self.app)
        if len(entities) != len(self._handles) or any(e not in self._handles for e in entities):
            for gone in set(self._handles) - set(entities):  # taken out by the game (a level's traffic)
                self._handles.pop(gone)._removed = True
        return [self._handle(entity) for entity in entities]

    def _handle(self, entity: int) -> "Drone":
        handle = self._handles.get(entity)
        if handle is None:
            handle = self._handles[entity] = Drone(self, entity)
        return handle

    def _free_spawn(self) -> tuple[float, float, float]:
        """The level's first spawn point no drone rests near (within half a metre)."""
        level = self.level
        points = [] if level is None else level.spawn_points(self.vehicle.envelope_size_m[2])
        taken = [d.components(RigidBody)[0].position for d in self.drones]
        for point, _yaw in points:
            if all(math.dist(point[:2], (float(p[0]), float(p[1]))) > 0.5 for p in taken):
                return point
        where = "the open world has none" if level is None else f"level {level.name!r} lists {len(points)}, all taken"
        raise NoFreeSpawn(f"add_drone(): no free spawn point ({where}): give position=(x, y, z)")

    def set_weather(self, *, preset: str | None = None, wind=None, density: float | str | None = None,
                    gusts: float | None = None, rain: float | None = None) -> None:
        """Change the weather now. `preset`: a weather preset id (the level's, or the built-in
        ones in the lab world), applied first; then any of `wind` (x, y, z) world m/s (mean),
        `density` in kg/m³ or a density preset id ("sea_level", "altitude_2000m", "hot_day"),
        `gusts` (turbulence intensity σ, m/s; 0 = steady wind), `rain` (mm/h, visual only).
        Everything is checked before anything changes; bad values raise ValueError."""
        _set_weather(self.app, preset=preset, wind=wind, density=density, gusts=gusts, rain=rain)
        self._note("set_weather", preset=preset, wind=wind, density=density, gusts=gusts, rain=rain)

    # -- recording -------------------------------------------------------------------------
    def record(self) -> Recorder:
        """Note every input from now on (the pad each frame, the verbs above) for a replay:
        `sim.record().recording.save("flight.replay")` after flying; `game.replay` reads it.
        Start it before the first frame: a replay flies from the start."""
        if self.app.frame_count:
            raise ValueError("record(): start recording before the first frame (a replay flies from the start)")
        level = self.level
        self._recorder = Recorder({
            "format": FORMAT, "version": FORMAT_VERSION, "donify": donify_version(),
            "level": None if level is None else {"name": level.name, "sha256": level_hash(level)},
            "vehicle": {"name": self.vehicle.name, "sha256": vehicle_hash(self.vehicle)},
            "simulation": self._made_with, "mods": self.mods,
        })
        return self._recorder

    def _note(self, verb: str, **arguments) -> None:
        if self._recorder is not None:  # only a call that succeeded is part of the flight
            self._recorder.call(verb, arguments)

    def apply_level(self, level=None, sha256: str | None = None) -> None:
        """Fly in another level (a `Level`, a name or a path; None the open world) from the next
        tick: geometry and spawn pad change, the drone's state does not (hot reload). Bad files:
        DataFileError. A replay notes the level by its name or path and its content's hash;
        flown again, `sha256` refuses (DataFileError) a level whose content differs."""
        named = None if level is None else level.source if isinstance(level, Level) else str(level)
        if not isinstance(level, Level) and level is not None:
            level = load_level(level)
        if sha256 is not None and level_hash(level) != sha256:
            raise DataFileError([f"{named or 'the open world'}: refused: the level differs from the one recorded "
                                 f"(recorded version {sha256[:12]}, here {str(level_hash(level))[:12]}): "
                                 f"flown here it would not be the same flight"])
        apply_level(self.app, level)
        self.level = level
        self._note("apply_level", level=named or None, sha256=level_hash(level))

    @property
    def time(self) -> float:
        return self.app.clock.time_s

    def close(self) -> None:
        self.app.close()

    def __enter__(self) -> "Simulation":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------------
    def telemetry(self) -> Telemetry:
        """The player's drone's record (`sim.drones[0].telemetry()`)."""
        return drone_telemetry(self.app, self.app.resource(Player).entity)

    def components(self, *kinds):
        """The player's drone's components (RigidBody, Rotors, …) for tests and tools."""
        return drone_components(self.app, *kinds)


class Drone:
    """One drone of a Simulation (`sim.drones`, `sim.add_drone`): its own virtual pad, its
    telemetry, and the verbs of the Simulation for it alone."""

    def __init__(self, sim: Simulation, entity: int) -> None:
        self._sim = sim
        self.entity = entity
        self._removed = False
        self.pad: Pad = drone_components(sim.app, Pad, entity=entity)[0]

    def _is_player(self) -> bool:
        return self.entity == self._alive().resource(Player).entity

    def _alive(self) -> App:
        app = self._sim.app
        if not self._removed:
            app.activate()
            self._removed = not esper.entity_exists(self.entity)  # the game may take one out (traffic)
        if self._removed:
            raise ValueError(f"drone {self.entity} was removed from the simulation")
        return app

    def telemetry(self) -> Telemetry:
        return drone_telemetry(self._alive(), self.entity)

    def select(self, name: str) -> None:
        """What choosing `name` in the menu does, for this drone (an unknown name raises ValueError)."""
        if self._is_player():
            return self._sim.select(name)
        select(self._alive(), name, self.entity)

    def set_mode(self, mode: str) -> None:
        if self._is_player():
            return self._sim.set_mode(mode)
        self._alive().resource(FlightModes).set_mode(mode, self.entity)

    def reset(self) -> None:
        """This drone back where it was put (its spawn), full pack, repaired, trail cleared."""
        if self._is_player():
            return self._sim.reset()
        self._alive().emit(events.Reset(self.entity))

    def components(self, *kinds):
        return drone_components(self._alive(), *kinds, entity=self.entity)

    def __repr__(self) -> str:
        return f"Drone(entity={self.entity}{', removed' if self._removed else ''})"


def drone_telemetry(app: App, entity: int) -> Telemetry:
    """One drone's telemetry record."""
    body, rotors, battery, ctrl, collider, trail, assists = drone_components(
        app, RigidBody, Rotors, Battery, Controller, Collider, Trail, AssistState, entity=entity)
    roll, pitch, yaw = quat.to_euler(body.quaternion)
    player = entity == app.resource(Player).entity
    return Telemetry(
        time=app.clock.time_s,
        mode=ctrl.mode,
        armed=rotors.armed,
        motor_power=ctrl.motor_power,
        position=_floats(body.position),
        velocity=_floats(body.velocity),
        quaternion=_floats(body.quaternion),
        roll_deg=math.degrees(roll),
        pitch_deg=math.degrees(pitch),
        yaw_deg=math.degrees(yaw),
        angular_velocity=_floats(body.angular_velocity),
        rpm=tuple(float(w) / RPM_TO_RAD_S for w in rotors.speed_rad_s),
        thrust=_floats(rotors.thrust_n),
        target_velocity=_floats(ctrl.target_velocity),
        target_altitude=ctrl.target_altitude,
        height_above_ground=collider.height_above_ground_m,
        contact=collider.contact,
        battery_fraction=battery.energy_j / battery.capacity_j,
        battery_energy_wh=battery.energy_j / 3600.0,
        battery_voltage=battery.voltage_v,
        power_w=battery.power_w,
        damage=collider.damage,
        trail_points=len(trail.points),
        mission=assists.mission_record.record(),
        landing_refused=assists.landing_refused,
        crashed=collider.crashed,
        course=(app.resource(CourseState) if player else _NO_COURSE).record(),
    )


_NO_COURSE = CourseState()  # a course is flown by the player's drone: the others' record is idle


def _floats(values) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def _resolve_level(level, vehicle: Vehicle):
    """(level, spawn position, spawn yaw rad, density, wind) for a level name/path or None.

    A level: the drone rests on its spawn pad (centre of mass at the pad's top + half the
    envelope height) with the level's spawn yaw, in the level's start weather preset.
    """
    if level is None:
        return None, (0.0, 0.0, 0.0), 0.0, 1.225, (0.0, 0.0, 0.0)
    if isinstance(level, Level):
        level_obj = level
    elif isinstance(level, (str, Path)):
        level_obj = load_level(level)  # DataFileError: one located line per problem
    else:
        raise ValueError(f"level: expected a level name, a path, a Level or None, got {level!r}")
    start = level_obj.start_weather
    return (level_obj, level_obj.spawn_position(vehicle.envelope_size_m[2]), math.radians(level_obj.spawn_yaw_deg),
            start.density_kg_m3, tuple(start.wind_m_s))
