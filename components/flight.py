"""The drone's physical state, the outside forces on it, and its controller's state.

RigidBody, Rotors, Battery and ExternalWrench keep their numbers in one flat float64 array
each (`state`), and the Controller its setpoints in two (`targets`, `lab`), because the
compiled sub-step (flight/dynamics.py, flight/control/tick.py) reads arrays; every named field
below is a view into those arrays or a property over one slot, so the rest of the game reads
and writes `body.position`, `rotors.speed_rad_s` or `ctrl.target_altitude` as plain data. The
fields are generated from the arrays' tables in components/layout.py, where each quantity is
declared once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from components.layout import (
    BATTERY, BODY, HOLD_POSITION, HOLD_POSITION_SET, IN_BODY_FRAME, LAB, ROTORS, TARGETS, WRENCH, Table,
)
from components.modes import Mode


class _ArrayComponent:
    """A component whose fields are views into one array, `state`, laid out by TABLE. The array
    is the component's for life: it is written in place, never replaced (its views are kept)."""

    __slots__ = ("state", "_state_views")
    TABLE: Table

    def __init__(self, state: np.ndarray | None = None, **fields: Any) -> None:
        """`state`: the array to live in (a drone's row of the FleetStore, components/fleet.py),
        reset to the table's initial values; None: an array of its own."""
        self.state = _own(self.TABLE, state)
        self._state_views = self.TABLE.views(self.state)
        _set_fields(self, fields)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in _fields(type(self))) + ")"


def _own(table: Table, array: np.ndarray | None) -> np.ndarray:
    """A fresh array for `table`, or `array` (a view into a FleetStore row) set to fresh values."""
    if array is None:
        return table.fresh()
    if array.shape != (table.size,) or array.dtype != np.float64 or not array.flags.c_contiguous:
        raise ValueError(f"{table.name}: expected a contiguous float64 array of {table.size}, got {array.shape} "
                         f"{array.dtype}")
    array[:] = table.fresh()
    return array


def _set_fields(component: Any, fields: dict[str, Any]) -> None:
    for name, value in fields.items():
        if not isinstance(getattr(type(component), name, None), property):
            raise TypeError(f"{type(component).__name__} has no field {name!r}")
        setattr(component, name, value)


def _fields(kind: type) -> list[str]:
    return [n for n, v in vars(kind).items() if isinstance(v, property)]


class RigidBody(_ArrayComponent):
    """Six-degree-of-freedom state. World frame X, Y horizontal, Z up; body X fwd, Y left, Z up.

    Fields: position, velocity, quaternion, angular_velocity, acceleration, previous_position,
    previous_quaternion (components/layout.py BODY)."""

    __slots__ = ()
    TABLE = BODY


class Rotors(_ArrayComponent):
    """Four motors: 0 front-right, 1 rear-right, 2 rear-left, 3 front-left.

    Fields: speed_rad_s, setpoint_rad_s, thrust_command_n, thrust_n, max_speed_rad_s, armed
    (components/layout.py ROTORS)."""

    __slots__ = ()
    TABLE = ROTORS


class Battery(_ArrayComponent):
    """Fields: energy_j, capacity_j, open_circuit_voltage_v, voltage_v, current_a, power_w,
    depleted (components/layout.py BATTERY)."""

    __slots__ = ()
    TABLE = BATTERY


class ExternalWrench(_ArrayComponent):
    """A force and a torque from outside the airframe — a tether, a magnet, a downdraft — for a
    physics mod to add to a drone: `esper.add_component(entity, ExternalWrench())`.

    The DYNAMICS stage applies it at every sub-step, inside the compiled integration
    (flight/dynamics.py): the force, through the centre of mass, joins thrust, drag and gravity
    in the linear acceleration (so `RigidBody.acceleration` includes it); the torque joins the
    rotors', drag's and damping's in the angular acceleration. An entity without the component
    is integrated exactly as before, at the same cost.

    Fields: `force_n` (3, N), `torque_nm` (3, N·m) and `frame`: "world" (the default: world
    axes, Z up) or "body" (body axes, turning with the drone), for both.

    When to write it: the value persists until changed — the dynamics read it each sub-step and
    never clear it, so a constant pull is written once, and a force for one tick must be set
    back to zero (or the component removed). A force that depends on the state (a spring, a
    drag) is written every tick in a fixed stage *before* DYNAMICS: a mod's system in
    Stage.CONTROL (a mod's systems run after the game's own in a stage), so this tick's
    sub-step uses the state it was computed from, as every other force does. Written in
    DYNAMICS or later, it acts from the next tick on.
    """

    __slots__ = ()
    TABLE = WRENCH

    @property
    def frame(self) -> str:
        """"world" or "body": the axes force_n and torque_nm are given in."""
        return "body" if self.state[IN_BODY_FRAME] > 0.0 else "world"

    @frame.setter
    def frame(self, value: str) -> None:
        if value not in ("world", "body"):
            raise ValueError(f"ExternalWrench.frame: expected 'world' or 'body', got {value!r}")
        self.state[IN_BODY_FRAME] = 1.0 if value == "body" else 0.0


for _kind in (RigidBody, Rotors, Battery, ExternalWrench):
    _kind.TABLE.add_views(_kind)


@dataclass(slots=True)
class Airframe:
    """Which vehicle this entity is: its validated parameters (`flight.vehicle.Vehicle`)."""

    vehicle: Any


class Controller:
    """Flight mode, pilot setpoints and the controllers that hold loop state.

    `mode` is a `components.modes.Mode`: MANUAL (MANUAL STABILISED), ANGLE, ACRO, or an
    assist's (TAKEOFF, LANDING, MISSION) while it flies. The setpoints are views into the two
    arrays the compiled control tick reads (components/layout.py TARGETS, LAB), so what the
    pilot's systems and the assists write is what the controllers fly, with no copy:

    * `motor_power` — MotorPower in [0, 1]: the persistent propulsion / cruise setting;
    * `target_velocity` (m/s, world; ManualTargetVelocity), `target_altitude` (m, world;
      ManualTargetAltitude), `hold_altitude` (False while Y / A command the vertical speed
      target_velocity z), `hold_position` (x, y m, world: the hovering point once stopped;
      None while travelling), `target_yaw_rate` (rad/s);
    * Angle and Acro: `collective` (the direct collective thrust fraction in [0, 1]),
      `lab_stick` (roll, pitch in [-1, 1]), `lab_yaw_stick` (in [-1, 1], right = clockwise).
    """

    __slots__ = ("mode", "loops", "targets", "lab", "_targets_views", "_lab_views", "_hold_position")

    def __init__(self, mode: Mode = Mode.MANUAL, loops: Any = None, targets: np.ndarray | None = None,
                 lab: np.ndarray | None = None, **setpoints: Any) -> None:
        self.mode = mode
        self.loops = loops  # flight.control.loops.FlightLoops: the controllers and their state
        self.targets = _own(TARGETS, targets)  # both arrays are the Controller's for life: written in place
        self.lab = _own(LAB, lab)  # (views into the drone's FleetStore row when given)
        self._targets_views = TARGETS.views(self.targets)
        self._lab_views = LAB.views(self.lab)
        self._hold_position = self.targets[HOLD_POSITION:HOLD_POSITION + 2]
        _set_fields(self, setpoints)

    @property
    def hold_position(self) -> np.ndarray | None:
        """x, y m, world: the hovering point (a view), or None while travelling."""
        if self.targets.item(HOLD_POSITION_SET) != 0.0:
            return self._hold_position
        return None

    @hold_position.setter
    def hold_position(self, value) -> None:
        if value is None:
            self.targets[HOLD_POSITION_SET] = 0.0
        else:
            self._hold_position[0], self._hold_position[1] = value
            self.targets[HOLD_POSITION_SET] = 1.0

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in _fields(Controller))
        return f"Controller(mode={self.mode!r}, {fields})"


TARGETS.add_views(Controller)
LAB.add_views(Controller)
