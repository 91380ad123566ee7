"""The headless Simulation: the whole game without a window, audio device or GL context.

This is ARCHITECTURE §3's contract — the API tests, level designers' scripts, `donify fly`
and the window all drive:

    sim = Simulation()                          # the default level, seed 0
    sim = Simulation(level=None, density=0.0, wind=(0, 0, 0), position=(0, 0, 100))  # lab world
    sim.pad.rt = 1.0; sim.pad.press("Y")        # the virtual gamepad
    sim.step(); sim.run(2.0)                    # one 1/60 s frame; frames for 2 s
    sim.select("mission"); sim.set_mode("angle"); sim.reset()
    t = sim.telemetry()                         # SI, world frame, Z up

Same inputs and seed give bit-identical telemetry. Bad arguments raise ValueError.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Iterable

from components.flight import Battery, Controller, RigidBody, Rotors
from components.pilot import Pad
from components.world import Collider, Trail
from engine.app import App, Plugin
from flight import quat
from flight.dynamics import rotor_thrust
from flight.vehicle import RPM_TO_RAD_S, Vehicle, default_vehicle, load_vehicle
from game import events
from game.plugins import build_mods, default_plugins
from game.scene import FlightModes, SceneConfig, drone_components, spawn_drone
from game.telemetry import Telemetry
from systems.menu import Menu
from world.weather import Weather, check_weather

FRAME_S = 1.0 / 60.0
_DEFAULT = object()


def _check_vector(name: str, value, length: int = 3) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected {length} numbers, got {value!r}") from None
    if len(values) != length or not all(math.isfinite(v) for v in values):
        raise ValueError(f"{name}: expected {length} finite numbers, got {value!r}")
    return values


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
        plugins: extra plugins (mods) built after the game's own.
    """

    def __init__(self, level: str | Path | None = "street", *, seed: int = 0,
                 density: float | None = None, wind=None, position=None, yaw_deg: float | None = None,
                 vehicle: Vehicle | str | Path | None = None, plugins: Iterable[Plugin] = (),
                 strict_mods: bool = False) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed: expected an integer, got {seed!r}")
        if density is not None or wind is not None:
            check_weather(1.225 if density is None else density, (0, 0, 0) if wind is None else wind)
        if position is not None:
            position = _check_vector("position", position)
        if yaw_deg is not None and (not isinstance(yaw_deg, (int, float)) or not math.isfinite(yaw_deg)):
            raise ValueError(f"yaw_deg: expected a finite number, got {yaw_deg!r}")
        if vehicle is None:
            vehicle = default_vehicle()
        elif not isinstance(vehicle, Vehicle):
            vehicle = load_vehicle(vehicle)
        self.vehicle = vehicle

        level_obj, spawn, spawn_yaw, preset_density, preset_wind = _resolve_level(level, vehicle)
        self.level = level_obj
        weather = Weather(
            density_kg_m3=float(density if density is not None else preset_density),
            wind_m_s=tuple(wind) if wind is not None else preset_wind,
        )
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
        spawn_drone(app, self.config)
        self.mod_problems = build_mods(app, list(plugins), strict=strict_mods)

    # -- driving ---------------------------------------------------------------------------
    def step(self, dt: float = FRAME_S) -> None:
        """One frame of `dt` seconds (capped at 0.25 s, sub-stepped at 1/240 s)."""
        if isinstance(dt, bool) or not isinstance(dt, (int, float)) or not math.isfinite(dt) or dt <= 0.0:
            raise ValueError(f"dt: expected a finite number of seconds > 0, got {dt!r}")
        self.app.update(float(dt))

    def run(self, seconds: float, dt: float = FRAME_S) -> None:
        """Frames of `dt` until `seconds` of game time have passed."""
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds < 0.0:
            raise ValueError(f"seconds: expected a finite number ≥ 0, got {seconds!r}")
        frames = max(0, math.ceil(seconds / dt - 1e-9))
        for _ in range(frames):
            self.step(dt)

    def select(self, name: str) -> None:
        """What choosing `name` in the LB/Tab menu does."""
        menu = self.app.resource(Menu)
        if name not in menu.ids():
            raise ValueError(f"unknown menu entry {name!r}: expected one of {', '.join(menu.ids())}")
        self.app.emit(events.MENU_SELECTED, name)

    def set_mode(self, mode: str) -> None:
        """Switch to a laboratory model ("angle", "acro") or back to "manual"."""
        self.app.resource(FlightModes).set_mode(mode)

    def reset(self) -> None:
        """Restart / ResetFlight: spawn pad, full pack, repaired, trail cleared."""
        self.app.emit(events.RESET)

    def set_weather(self, *, wind=None, density: float | None = None) -> None:
        weather = self.app.resource(Weather)
        check_weather(weather.density_kg_m3 if density is None else density, weather.wind_m_s if wind is None else wind)
        if density is not None:
            weather.density_kg_m3 = float(density)
        if wind is not None:
            weather.wind_m_s = tuple(float(w) for w in wind)
            weather.wind_now_m_s[:] = weather.wind_m_s

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
        body, rotors, battery, ctrl, collider, trail = drone_components(
            self.app, RigidBody, Rotors, Battery, Controller, Collider, Trail)
        roll, pitch, yaw = quat.to_euler(body.quaternion)
        mission = _mission_state(self.app)
        return Telemetry(
            time=self.app.clock.time_s,
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
            target_velocity=tuple(ctrl.target_velocity),
            target_altitude=ctrl.target_altitude,
            height_above_ground=collider.height_above_ground_m,
            contact=collider.contact,
            battery_fraction=battery.energy_j / battery.capacity_j,
            battery_energy_wh=battery.energy_j / 3600.0,
            battery_voltage=battery.voltage_v,
            power_w=battery.power_w,
            damage=collider.damage,
            trail_points=len(trail.points),
            mission=mission,
        )

    def components(self, *kinds):
        """The drone's components (RigidBody, Rotors, …) for tests and tools."""
        return drone_components(self.app, *kinds)


def _floats(values) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def _mission_state(app: App) -> dict:
    for resource in app.resources.values():
        state = getattr(resource, "telemetry_state", None)
        if callable(state):
            return state()
    return {"status": "idle", "waypoint_index": -1}


def _resolve_level(level, vehicle: Vehicle):
    """(level, spawn position, spawn yaw rad, density, wind) for a level name/path or None."""
    if level is None:
        return None, (0.0, 0.0, 0.0), 0.0, 1.225, (0.0, 0.0, 0.0)
    if not isinstance(level, (str, Path)):
        raise ValueError(f"level: expected a level name, a path or None, got {level!r}")
    # Until level files exist, every level is the flat ground with the drone resting at the origin.
    rest_z = 0.5 * vehicle.envelope_size_m[2]
    return "flat", (0.0, 0.0, rest_z), 0.0, 1.225, (0.0, 0.0, 0.0)
