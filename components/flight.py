"""The drone's physical state and its controller's state, as plain dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class RigidBody:
    """Six-degree-of-freedom state. World frame X, Y horizontal, Z up; body X fwd, Y left, Z up."""

    position: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # m, world
    velocity: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # m/s, world
    quaternion: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0, 1.0])  # x, y, z, w; body → world
    angular_velocity: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # rad/s, body
    acceleration: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # m/s², world, last sub-step
    previous_position: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # m, before the last tick (render interpolation)


@dataclass(slots=True)
class Rotors:
    """Four motors: 0 front-right, 1 rear-right, 2 rear-left, 3 front-left."""

    speed_rad_s: list[float] = field(default_factory=lambda: [0.0] * 4)  # actual ω
    setpoint_rad_s: list[float] = field(default_factory=lambda: [0.0] * 4)  # commanded ω
    thrust_command_n: list[float] = field(default_factory=lambda: [0.0] * 4)  # asked of the mixer
    thrust_n: list[float] = field(default_factory=lambda: [0.0] * 4)  # produced, from actual ω
    max_speed_rad_s: float = 0.0  # limit at the present loaded voltage
    armed: bool = False


@dataclass(slots=True)
class Battery:
    energy_j: float = 0.0  # energy left
    capacity_j: float = 0.0  # energy at full charge
    open_circuit_voltage_v: float = 0.0
    voltage_v: float = 0.0  # loaded
    current_a: float = 0.0
    power_w: float = 0.0  # electrical draw in the last sub-step
    depleted: bool = False


@dataclass(slots=True)
class Airframe:
    """Which vehicle this entity is: its validated parameters (`flight.vehicle.Vehicle`)."""

    vehicle: Any


@dataclass(slots=True)
class Controller:
    """Flight mode, pilot setpoints and the pure controller objects that hold loop state.

    `mode` is one of "manual" (MANUAL STABILISED), "angle", "acro", or an assist's name
    ("takeoff", "landing", "mission") while it flies.
    """

    mode: str = "manual"
    motor_power: float = 0.0  # MotorPower in [0, 1]: persistent propulsion / cruise setting
    target_velocity: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # m/s, world (ManualTargetVelocity)
    target_altitude: float = 0.0  # m, world (ManualTargetAltitude)
    hold_altitude: bool = True  # False while Y/A command a vertical speed (target_velocity z)
    hold_position: list[float] | None = None  # x, y m, world: hovering point once stopped; None while travelling
    target_yaw_rate: float = 0.0  # rad/s
    collective: float = 0.0  # lab modes: direct collective thrust fraction in [0, 1]
    lab_stick: tuple[float, float] = (0.0, 0.0)  # lab modes: roll, pitch stick in [-1, 1]
    lab_yaw_stick: float = 0.0  # lab modes: yaw stick in [-1, 1], right = clockwise
    attitude_setpoint: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # roll, pitch, yaw rad (lab)
    rate_setpoint: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # rad/s body
    torque_command: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # N·m body
    loops: Any = None  # the pure controllers (flight.control) owning integrator state
