"""The drone's physical state and its controller's state.

RigidBody, Rotors and Battery keep their numbers in one flat float64 array each (`state`),
because the compiled sub-step (flight/dynamics.py) reads arrays; every named field below is
a view into that array or a property over one slot, so the rest of the game reads and
writes `body.position`, `rotors.speed_rad_s` or `battery.energy_j` as plain data. Where a
field sits in the array is declared once, in flight/layout.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from flight import layout as L


def _vector(offset: int, size: int, doc: str):
    def get(self):
        return self.state[offset:offset + size]

    def set(self, value):
        self.state[offset:offset + size] = value

    return property(get, set, doc=doc)


def _scalar(offset: int, doc: str, kind=float):
    def get(self):
        return kind(self.state[offset])

    def set(self, value):
        self.state[offset] = float(value)

    return property(get, set, doc=doc)


class _ArrayComponent:
    __slots__ = ("state",)
    SIZE = 0

    def __init__(self, **fields: Any) -> None:
        self.state = np.zeros(self.SIZE)
        self._defaults()
        for name, value in fields.items():
            if not isinstance(getattr(type(self), name, None), property):
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
            setattr(self, name, value)

    def _defaults(self) -> None:
        pass

    def __repr__(self) -> str:
        names = [n for n, v in vars(type(self)).items() if isinstance(v, property)]
        return f"{type(self).__name__}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in names) + ")"


class RigidBody(_ArrayComponent):
    """Six-degree-of-freedom state. World frame X, Y horizontal, Z up; body X fwd, Y left, Z up."""

    __slots__ = ()
    SIZE = L.BODY_SIZE
    position = _vector(L.POS, 3, "m, world")
    velocity = _vector(L.VEL, 3, "m/s, world")
    quaternion = _vector(L.QUAT, 4, "x, y, z, w; body → world")
    angular_velocity = _vector(L.OMEGA, 3, "rad/s, body")
    acceleration = _vector(L.ACC, 3, "m/s², world, last sub-step")
    previous_position = _vector(L.PREV_POS, 3, "m, world, before the last sub-step (render interpolation)")
    previous_quaternion = _vector(L.PREV_QUAT, 4, "x, y, z, w before the last sub-step (render interpolation)")

    def _defaults(self) -> None:
        self.state[L.QUAT + 3] = 1.0
        self.state[L.PREV_QUAT + 3] = 1.0


class Rotors(_ArrayComponent):
    """Four motors: 0 front-right, 1 rear-right, 2 rear-left, 3 front-left."""

    __slots__ = ()
    SIZE = L.ROTORS_SIZE
    speed_rad_s = _vector(L.SPEED, 4, "actual ω")
    setpoint_rad_s = _vector(L.SETPOINT, 4, "commanded ω")
    thrust_command_n = _vector(L.THRUST_CMD, 4, "asked of the mixer")
    thrust_n = _vector(L.THRUST, 4, "produced, from actual ω")
    max_speed_rad_s = _scalar(L.MAX_SPEED, "limit at the present loaded voltage")
    armed = _scalar(L.ARMED, "motors allowed to spin", bool)


class Battery(_ArrayComponent):
    __slots__ = ()
    SIZE = L.BATTERY_SIZE
    energy_j = _scalar(L.ENERGY, "energy left")
    capacity_j = _scalar(L.CAPACITY, "energy at full charge")
    open_circuit_voltage_v = _scalar(L.OCV, "V")
    voltage_v = _scalar(L.VOLTAGE, "V, loaded")
    current_a = _scalar(L.CURRENT, "A")
    power_w = _scalar(L.POWER, "electrical draw in the last sub-step")
    depleted = _scalar(L.DEPLETED, "empty: motors disarmed", bool)


@dataclass(slots=True)
class Airframe:
    """Which vehicle this entity is: its validated parameters (`flight.vehicle.Vehicle`)."""

    vehicle: Any


@dataclass(slots=True)
class Controller:
    """Flight mode, pilot setpoints and the controllers that hold loop state.

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
    loops: Any = None  # flight.control.loops.FlightLoops: the controllers and their state
