"""Where each quantity sits in the flat float64 arrays the compiled flight code reads: one table
per array, and everything else generated from the tables.

The per-tick flight model and controllers are numba-compiled functions (flight/jit.py), and
compiled code wants flat arrays, not Python objects. So the drone's state, its vehicle's
parameters and its controller's loop state are flat float64 arrays, and every quantity in
them is declared once, as a row of the array's table: its name, how many floats it takes,
its SI unit and what it means; for the vehicle's two arrays also where its value comes from —
a vehicle-file entry of the same name, or a named derivation (disc area, the mixer's
allocation inverse, …). From the tables this module generates:

* one module constant per row, the row's offset: `MOTOR_TIME_CONSTANT_UP`, `POSITION`, … (and
  one size per table: `PHYSICS_SIZE`, `BODY_SIZE`, …). Compiled code imports them
  (`from components.layout import MASS`) and numba freezes module-level integers as
  compile-time constants, so `physics[MASS]` costs what a literal index costs;
* the named views of the components (`RigidBody.position`, `Rotors.speed_rad_s`,
  `Controller.target_velocity`), by `Table.add_views` (components/flight.py), and the named
  values of the vehicle (`Vehicle.motor_time_constant_up_s`), by `Table.values`
  (flight/vehicle.py);
* the packing of a vehicle's values into its arrays (`Table.pack`), and what the vehicle
  file must contain (flight/vehicle.py builds its entry list from the `FromFile` rows).

One name per quantity: the row's name (lower case; for a vehicle-file entry, its key) is the
constant in upper case and the attribute with, for tables that say so, its SI unit as a
suffix (`UNIT_SUFFIX`):

    vehicle file [params.motor_time_constant_up] (s)  ↔  MOTOR_TIME_CONSTANT_UP
        ↔  Vehicle.motor_time_constant_up_s  ↔  physics[MOTOR_TIME_CONSTANT_UP] in compiled code

The vehicle's parameters come as two arrays, kept apart: `physics` (what the dynamics and the
battery read: the only vehicle array `flight/dynamics.py` sees) and `gains` (what only the
controllers read: the `[control]` section, the stabilised profile's limits and the values
derived for the controllers). A controller that truly needs the airframe (mass, inertia, kT)
takes `physics` too, and says so in its signature.

Offsets follow from the order of the rows: nothing is numbered by hand
(tests/unit/test_layout.py checks the tables, the packing and the names).
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

# The attribute suffix of each unit (units as the vehicle file writes them). Units without a
# short name (gains, coefficients, ratios) take none: the quantity's name says what it is.
UNIT_SUFFIX: dict[str, str] = {
    "1": "", "flag": "", "1/s": "", "1/s^2": "", "N/(rad/s)^2": "", "N*m*s/rad": "", "N*m*s^2/rad^2": "",
    "kg": "_kg", "m": "_m", "m^2": "_m2", "kg*m^2": "_kgm2", "kg/m^3": "_kg_m3", "s": "_s", "Hz": "_hz",
    "m/s": "_m_s", "m/s^2": "_m_s2", "m/s^3": "_m_s3", "rad": "_rad", "rad/s": "_rad_s", "rad/s^2": "_rad_s2",
    "N": "_n", "N*m": "_nm", "V": "_v", "A": "_a", "Ah": "_ah", "J": "_j", "W": "_w", "ohm": "_ohm",
}


@dataclass(frozen=True, slots=True)
class FromFile:
    """The value is the vehicle-file entry `[section.<row name>]`, written in `unit` there and
    converted to the row's SI unit on load (flight/vehicle.py)."""

    section: str  # "params" | "control"
    unit: str  # as the file writes it: "rpm", "deg", "Wh", or the row's own unit


@dataclass(frozen=True, slots=True)
class Derived:
    """The value is computed when the vehicle is loaded, from the values of the rows above it
    (a mapping row name → SI value: a float, or a tuple for a row of several floats)."""

    how: str  # the derivation, in words
    compute: Callable[[Mapping[str, Any]], float | Sequence[float]]


@dataclass(frozen=True, slots=True)
class Row:
    name: str  # lower case; the constant is name.upper()
    size: int  # floats
    unit: str  # SI (a key of UNIT_SUFFIX); "flag": 1.0 true, 0.0 false
    doc: str
    source: FromFile | Derived | None = None  # vehicle arrays only
    initial: tuple[float, ...] | None = None  # a fresh component's value (default: zeros)
    view: bool = True  # generate the attribute (False: the owner writes its own)

    @property
    def constant(self) -> str:
        return self.name.upper()


@dataclass(frozen=True)
class Table:
    """One flat array: its rows in order, where it lives, and the generated names."""

    name: str  # the size constant is NAME_SIZE
    array: str  # where the array lives, e.g. "RigidBody.state"
    rows: tuple[Row, ...]
    unit_suffix: bool  # attributes carry their unit: speed_rad_s (True) or position (False)
    offsets: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        offsets, at = {}, 0
        for row in self.rows:
            if row.name in offsets:
                raise ValueError(f"{self.name}: {row.name} declared twice")
            offsets[row.name] = at
            at += row.size
        object.__setattr__(self, "offsets", offsets)

    @property
    def size(self) -> int:
        return sum(row.size for row in self.rows)

    @property
    def size_constant(self) -> str:
        return f"{self.name.upper()}_SIZE"

    def row(self, name: str) -> Row:
        return next(r for r in self.rows if r.name == name)

    def name_at(self, offset: int) -> str:
        """The row holding slot `offset`."""
        for row in self.rows:
            if self.offsets[row.name] <= offset < self.offsets[row.name] + row.size:
                return row.name
        raise IndexError(f"{self.name}: no slot {offset}")

    def attribute(self, row: Row) -> str:
        return row.name + (UNIT_SUFFIX[row.unit] if self.unit_suffix else "")

    def fresh(self) -> np.ndarray:
        """A new array with every row at its initial value."""
        array = np.zeros(self.size)
        for row in self.rows:
            if row.initial is not None:
                at = self.offsets[row.name]
                array[at:at + row.size] = row.initial
        return array

    def pack(self, values: Mapping[str, Any]) -> np.ndarray:
        """The array holding `values` (row name → float, or a sequence for a row of several)."""
        array = np.full(self.size, np.nan)
        for row in self.rows:
            at = self.offsets[row.name]
            value = values[row.name]
            if row.size == 1:
                array[at] = value
            elif len(value) == row.size:
                array[at:at + row.size] = value
            else:
                raise ValueError(f"{self.name}.{row.name}: expected {row.size} values, got {len(value)}")
        return array

    def views(self, array: np.ndarray) -> tuple[np.ndarray, ...]:
        """The views of `array` for the rows of several floats, in row order: what an owner of
        writable views keeps (see `add_views`), so a field read costs no new view."""
        return tuple(array[self.offsets[r.name]:self.offsets[r.name] + r.size] for r in self.rows if r.size > 1)

    def values(self, array: np.ndarray) -> dict[str, float | tuple[float, ...]]:
        """Attribute name → the value `array` holds for each row: a float, or a tuple of floats
        for a row of several (how a read-only owner, the Vehicle, exposes its arrays)."""
        return {self.attribute(r): (array.item(self.offsets[r.name]) if r.size == 1 else
                                    tuple(array[self.offsets[r.name]:self.offsets[r.name] + r.size].tolist()))
                for r in self.rows}

    def add_views(self, cls: type) -> None:
        """Give `cls`, whose instances hold this table's array in the attribute named after the
        dot in `array`, one property per row: a view (a row of several floats) or a float (a
        bool for a flag), both writable. The views are created once per instance: the instance
        keeps `table.views(array)` in the attribute `_<array>_views` (the array itself is never
        replaced, only written)."""
        attr = self.array.rsplit(".", 1)[1]
        get_array = operator.attrgetter(attr)
        get_views = operator.attrgetter(f"_{attr}_views")
        vector = 0
        for row in self.rows:
            if row.size > 1:
                vector += 1
            if row.view:
                at = self.offsets[row.name]
                doc = f"{row.unit}: {row.doc}"
                prop = _property(get_array, get_views, vector - 1, at, row.size, row.unit == "flag", doc)
                setattr(cls, self.attribute(row), prop)


def _property(get_array, get_views, index: int, at: int, size: int, flag: bool, doc: str) -> property:
    # the hot fields (the pilot's systems read and write the Controller's every frame): no new
    # view per read, Python floats through .item, small rows written by unpacking (a third of
    # the cost of numpy's slice assignment from a tuple)
    if size > 1:
        def get(self):
            return get_views(self)[index]

        return property(get, _vector_setter(get_array, at, size), doc=doc)

    if flag:
        def get_scalar(self):
            return get_array(self).item(at) != 0.0
    else:
        def get_scalar(self):
            return get_array(self).item(at)

    def put_scalar(self, value):
        get_array(self)[at] = float(value)  # float(): numpy would take None for NaN

    return property(get_scalar, put_scalar, doc=doc)


def _vector_setter(get_array, at: int, size: int):
    """Write a row of several floats from a sequence of exactly that many (else ValueError, as
    numpy gives), or from one number for all (numpy's broadcast). Unpacking is spelt out for the
    small sizes: a loop or a helper call would cost as much again."""
    def broadcast(self, value):
        get_array(self)[at:at + size] = value

    if size == 2:
        def put(self, value):
            array = get_array(self)
            try:
                array[at], array[at + 1] = value
            except TypeError:
                broadcast(self, value)
    elif size == 3:
        def put(self, value):
            array = get_array(self)
            try:
                array[at], array[at + 1], array[at + 2] = value
            except TypeError:
                broadcast(self, value)
    elif size == 4:
        def put(self, value):
            array = get_array(self)
            try:
                array[at], array[at + 1], array[at + 2], array[at + 3] = value
            except TypeError:
                broadcast(self, value)
    else:
        def put(self, value):
            try:
                values = list(value)
            except TypeError:
                broadcast(self, value)
                return
            if len(values) != size:
                raise ValueError(f"expected {size} values, got {len(values)}")
            get_array(self)[at:at + size] = values
    return put


def _params(unit: str) -> FromFile:
    return FromFile("params", unit)


def _control(unit: str) -> FromFile:
    return FromFile("control", unit)


# ---- RigidBody.state ------------------------------------------------------------------------
BODY = Table("body", "RigidBody.state", unit_suffix=False, rows=(
    Row("position", 3, "m", "world"),
    Row("velocity", 3, "m/s", "world"),
    Row("quaternion", 4, "1", "x, y, z, w; body → world", initial=(0.0, 0.0, 0.0, 1.0)),
    Row("angular_velocity", 3, "rad/s", "body"),
    Row("acceleration", 3, "m/s^2", "world, last sub-step (every force, the external wrench's too)"),
    Row("previous_position", 3, "m", "world, before the last sub-step (render interpolation)"),
    Row("previous_quaternion", 4, "1", "x, y, z, w before the last sub-step (render interpolation)",
        initial=(0.0, 0.0, 0.0, 1.0)),
))

# ---- Rotors.state: motors 0 front-right, 1 rear-right, 2 rear-left, 3 front-left -------------
ROTORS = Table("rotors", "Rotors.state", unit_suffix=True, rows=(
    Row("speed", 4, "rad/s", "actual ω"),
    Row("setpoint", 4, "rad/s", "commanded ω"),
    Row("thrust_command", 4, "N", "asked of the mixer"),
    Row("thrust", 4, "N", "produced, from actual ω"),
    Row("max_speed", 1, "rad/s", "limit at the present loaded voltage"),
    Row("armed", 1, "flag", "motors allowed to spin"),
    Row("health", 4, "1", "share of kT ω² ρ/ρ₀ each rotor still gives: 1 intact, impacts lower it until Restart "
        "(flight/damage.py)", initial=(1.0, 1.0, 1.0, 1.0)),
))

# ---- Battery.state ---------------------------------------------------------------------------
BATTERY = Table("battery", "Battery.state", unit_suffix=True, rows=(
    Row("energy", 1, "J", "energy left"),
    Row("capacity", 1, "J", "energy at full charge"),
    Row("open_circuit_voltage", 1, "V", "open circuit"),
    Row("voltage", 1, "V", "loaded"),
    Row("current", 1, "A", "drawn"),
    Row("power", 1, "W", "electrical draw in the last sub-step"),
    Row("depleted", 1, "flag", "empty: motors disarmed"),
))

# ---- ExternalWrench.state: what a physics mod adds (components/flight.py) --------------------
WRENCH = Table("wrench", "ExternalWrench.state", unit_suffix=True, rows=(
    Row("force", 3, "N", "through the centre of mass"),
    Row("torque", 3, "N*m", "about the centre of mass"),
    Row("in_body_frame", 1, "flag", "force and torque in body axes (else world axes)", view=False),
))


# ---- Vehicle.physics: what the dynamics and the battery read ----------------------------------
def _rotor_x(v):
    ax = v["motor_arm_x"]
    return (ax, -ax, -ax, ax)


def _rotor_y(v):
    ay = v["motor_arm_y"]
    return (-ay, -ay, ay, ay)


PHYSICS = Table("physics", "Vehicle.physics", unit_suffix=True, rows=(
    Row("mass", 1, "kg", "total, with guards", _params("kg")),
    Row("gravity", 1, "m/s^2", "", _params("m/s^2")),
    Row("thrust_coefficient", 1, "N/(rad/s)^2", "kT in T = kT ω² ρ/ρ₀", _params("N/(rad/s)^2")),
    Row("reference_air_density", 1, "kg/m^3", "ρ₀, at which kT holds", _params("kg/m^3")),
    Row("reaction_torque_ratio", 1, "m", "reaction torque about body Z per newton of thrust", _params("m")),
    Row("motor_time_constant_up", 1, "s", "first-order motor response, speeding up", _params("s")),
    Row("motor_time_constant_down", 1, "s", "first-order motor response, slowing down", _params("s")),
    Row("max_motor_speed", 1, "rad/s", "at max_motor_speed_voltage", _params("rpm")),
    Row("max_motor_speed_voltage", 1, "V", "the max speed scales with the loaded voltage over this", _params("V")),
    Row("inertia", 3, "kg*m^2", "principal, about body X, Y, Z", _params("kg*m^2")),
    Row("drag_area", 3, "m^2", "Cd·A along body X, Y, Z", _params("m^2")),
    Row("aero_centre_height", 1, "m", "where drag acts, above the centre of mass", _params("m")),
    Row("angular_damping_linear", 1, "N*m*s/rad", "c₁ of −(c₁ + c₂|ω|) ρ/ρ₀ ω", _params("N*m*s/rad")),
    Row("angular_damping_quadratic", 1, "N*m*s^2/rad^2", "c₂", _params("N*m*s^2/rad^2")),
    Row("motor_arm_x", 1, "m", "motor centres' distance along body X", _params("m")),
    Row("motor_arm_y", 1, "m", "motor centres' distance along body Y", _params("m")),
    Row("motor_spin", 4, "1", "+1 counter-clockwise seen from above", _params("1")),
    Row("rotor_x", 4, "m", "motor centres, body X",
        Derived("(+, −, −, +) · motor_arm_x: 0 front-right, 1 rear-right, 2 rear-left, 3 front-left", _rotor_x)),
    Row("rotor_y", 4, "m", "motor centres, body Y", Derived("(−, −, +, +) · motor_arm_y", _rotor_y)),
    Row("prop_diameter", 1, "m", "", _params("m")),
    Row("disc_area", 1, "m^2", "one rotor disc (induced power)",
        Derived("π (prop_diameter / 2)²", lambda v: math.pi * (0.5 * v["prop_diameter"]) ** 2)),
    Row("envelope_size", 3, "m", "collision box with the guards, X, Y, Z", _params("m")),
    Row("crash_impact_speed", 1, "m/s", "a faster normal impact ends the flight (flight/damage.py)", _params("m/s")),
    Row("battery_energy", 1, "J", "at full charge", _params("Wh")),
    Row("battery_capacity", 1, "Ah", "informative: the model integrates energy", _params("Ah")),
    Row("battery_nominal_voltage", 1, "V", "informative", _params("V")),
    Row("ocv_curve", 4, "V", "V_oc = a + b s + c sⁿ over the energy fraction s: a, b, c in V, then n", _params("V")),
    Row("internal_resistance", 1, "ohm", "", _params("ohm")),
    Row("min_loaded_voltage", 1, "V", "the loaded voltage's clamp", _params("V")),
    Row("induced_efficiency", 1, "1", "applied to the ideal induced power", _params("1")),
    Row("profile_power", 1, "W", "per motor at profile_reference_speed, ∝ ω³", _params("W")),
    Row("profile_reference_speed", 1, "rad/s", "", _params("rpm")),
    Row("electronics_power", 1, "W", "constant draw", _params("W")),
))


# ---- Vehicle.gains: what only the controllers read -------------------------------------------
def _mix(v):
    """The mixer's allocation (flight/control/mixer.py), inverted: M with (T₀..T₃) = M · (T, τx, τy, τz)
    for ΣTᵢ = T, Σ yᵢTᵢ = τx, −Σ xᵢTᵢ = τy, −Σ spinᵢ k Tᵢ = τz (k: reaction_torque_ratio)."""
    k = v["reaction_torque_ratio"]
    allocation = np.array([[1.0] * 4, list(v["rotor_y"]), [-x for x in v["rotor_x"]], [-s * k for s in v["motor_spin"]]])
    return np.linalg.inv(allocation).ravel()


GAINS = Table("gains", "Vehicle.gains", unit_suffix=True, rows=(
    # the stabilised profile's limits, from [params]
    Row("max_horizontal_speed", 1, "m/s", "horizontal velocity setpoint limit", _params("m/s")),
    Row("max_vertical_speed", 1, "m/s", "vertical velocity setpoint limit", _params("m/s")),
    Row("command_vertical_speed", 1, "m/s", "what Y / A ask for", _params("m/s")),
    Row("max_tilt", 1, "rad", "stabilised tilt limit", _params("deg")),
    Row("tan_max_tilt", 1, "1", "horizontal over vertical acceleration at the tilt limit",
        Derived("tan(max_tilt)", lambda v: math.tan(v["max_tilt"]))),
    # attitude and rate loops, mixer
    Row("attitude_gain", 1, "1/s", "rate setpoint per radian of tilt error", _control("1/s")),
    Row("yaw_attitude_gain", 1, "1/s", "rate setpoint per radian of heading error", _control("1/s")),
    Row("yaw_weight", 1, "1", "share of the heading error blended into the reduced attitude setpoint",
        Derived("yaw_attitude_gain / attitude_gain, clamped to [0, 1]",
                lambda v: min(1.0, max(0.0, v["yaw_attitude_gain"] / v["attitude_gain"])))),
    Row("rate_p", 3, "1/s", "angular acceleration per rate error, X Y Z", _control("1/s")),
    Row("rate_i", 3, "1/s^2", "rate integrator gains, X Y Z", _control("1/s^2")),
    Row("rate_i_limit", 1, "rad/s^2", "bound of each rate integrator", _control("rad/s^2")),
    Row("rate_i_window", 1, "rad/s", "the rate integrators learn only on smaller rate errors", _control("deg/s")),
    Row("max_rate", 3, "rad/s", "body-rate limit of the attitude loop; Acro full stick", _control("deg/s")),
    Row("mix", 16, "1", "rotor i = mix[4 i .. 4 i + 3] · (T, τx, τy, τz), row-major",
        Derived("the inverse of the mixer's allocation of rotor_x, rotor_y, motor_spin, reaction_torque_ratio",
                _mix)),
    Row("motor_lead_time", 1, "s", "horizon over which a motor speed setpoint is led (0: no lead)", _control("s")),
    # laboratory models
    Row("angle_max_tilt", 1, "rad", "Angle full-stick tilt", _control("deg")),
    Row("max_yaw_rate", 1, "rad/s", "full right stick", _control("deg/s")),
    # stabilised outer loops
    Row("outer_loop_rate", 1, "Hz", "", _control("Hz")),
    Row("inner_loop_rate", 1, "Hz", "", _control("Hz")),
    Row("outer_divider", 1, "1", "inner ticks per outer-loop update",
        Derived("max(1, round(inner_loop_rate / outer_loop_rate))",
                lambda v: float(max(1, round(v["inner_loop_rate"] / v["outer_loop_rate"]))))),
    Row("velocity_gain", 1, "1/s", "horizontal acceleration per velocity error", _control("1/s")),
    Row("velocity_i", 1, "1/s^2", "horizontal integrator gain", _control("1/s^2")),
    Row("velocity_i_limit", 1, "m/s^2", "bound of the horizontal integrator", _control("m/s^2")),
    Row("position_gain", 1, "1/s", "speed setpoint per metre off the hovering point or line", _control("1/s")),
    Row("position_speed_limit", 1, "m/s", "bound of that speed", _control("m/s")),
    Row("hold_capture_speed", 1, "m/s", "the hovering point is taken below this speed", _control("m/s")),
    Row("reference_acceleration", 1, "m/s^2", "the cruise reference's planned acceleration", _control("m/s^2")),
    Row("reference_jerk", 1, "m/s^3", "how fast the reference's acceleration changes", _control("m/s^3")),
    Row("max_jerk", 1, "m/s^3", "bound of the horizontal acceleration setpoint's change", _control("m/s^3")),
    Row("integrator_window", 1, "m/s", "the vertical integrator learns only on smaller errors", _control("m/s")),
    Row("max_yaw_acceleration", 1, "rad/s^2", "the yaw-rate setpoint's slew", _control("deg/s^2")),
    Row("yaw_brake_share", 1, "1", "share of the rotors' largest yaw deceleration a released yaw plans with",
        _control("1")),
    Row("yaw_lock_rate", 1, "rad/s", "the heading is locked once the yaw rate is below this", _control("deg/s")),
    Row("altitude_gain", 1, "1/s", "vertical speed per metre of altitude error, near the target", _control("1/s")),
    Row("vertical_brake_decel", 1, "m/s^2", "deceleration a stop going up plans with", _control("m/s^2")),
    Row("altitude_linear_speed", 1, "m/s", "the altitude profile is linear below this speed", _control("m/s")),
    Row("vertical_brake_thrust_share", 1, "1", "share of the thrust margin a stop going down plans with",
        _control("1")),
    Row("vertical_velocity_gain", 1, "1/s", "vertical acceleration per vertical speed error", _control("1/s")),
    Row("vertical_velocity_i", 1, "1/s^2", "vertical integrator gain", _control("1/s^2")),
    Row("vertical_velocity_i_limit", 1, "m/s^2", "bound of the vertical integrator", _control("m/s^2")),
    Row("thrust_reserve", 1, "1", "share of the thrust kept for attitude torques", _control("1")),
    Row("translation_share", 1, "1", "share of the thrust horizontal acceleration may use",
        Derived("1 − thrust_reserve", lambda v: 1.0 - v["thrust_reserve"])),
    # the pilot's inputs (read in Python by flight/control/manual.py and the input systems)
    Row("stick_dead_zone", 1, "1", "radial, both sticks", _control("1")),
    Row("direction_change", 1, "rad", "a larger left-stick turn chooses a new direction", _control("deg")),
    Row("motor_power_rate", 1, "1/s", "MotorPower change at full trigger", _control("1/s")),
))

# ---- FlightLoops.state: the control laws' loop state (flight/control/) ------------------------
LOOP_STATE = Table("loop_state", "FlightLoops.state", unit_suffix=False, rows=(
    Row("rate_integral", 3, "rad/s^2", "the rate integrators' angular acceleration"),
    Row("rate_sp", 3, "rad/s", "body-rate setpoint, last tick"),
    Row("torque_sp", 3, "N*m", "the rate loop's torque, body, last tick"),
    Row("torque_scale_rp", 1, "1", "the share of the roll/pitch torque the mixer could give, last tick",
        initial=(1.0,)),
    Row("torque_scale_yaw", 1, "1", "the share of the yaw torque the mixer could give, last tick", initial=(1.0,)),
    Row("vel_integral", 2, "m/s^2", "horizontal velocity integrator"),
    Row("vz_integral", 1, "m/s^2", "vertical velocity integrator"),
    Row("heading", 1, "rad", "stabilised and Angle heading setpoint"),
    Row("yaw_rate_sp", 1, "rad/s", "after the yaw acceleration limit"),
    Row("last_acc", 2, "m/s^2", "horizontal acceleration setpoint at the last outer update"),
    Row("last_acc_set", 1, "flag", "last_acc holds a value"),
    Row("countdown", 1, "1", "inner ticks until the next outer update"),
    Row("acc_sp", 3, "m/s^2", "wanted acceleration with g added along Z: thrust per mass wanted, world"),
    Row("q_sp", 4, "1", "attitude setpoint, x, y, z, w", initial=(0.0, 0.0, 0.0, 1.0)),
    Row("vz_sp", 1, "m/s", "vertical speed setpoint, last outer update"),
    Row("vel_ref", 2, "m/s", "world: the cruise reference, slewing toward the horizontal setpoint"),
    Row("vel_ref_set", 1, "flag", "vel_ref holds a value (else: start it from the present velocity)"),
    Row("line_pos", 2, "m", "world: where the cruise reference is on the travel line"),
    Row("line_dir", 2, "1", "unit vector of the line held"),
    Row("line_set", 1, "flag", "a line is held"),
    Row("acc_ref", 2, "m/s^2", "world: the cruise reference's acceleration"),
    Row("yaw_stopping", 1, "flag", "a released yaw brakes"),
    Row("yaw_stop_at", 1, "rad", "the heading the braking is planned to end at"),
    Row("yaw_stop_dir", 1, "1", "±1, the way the drone was turning"),
    Row("yaw_brake", 1, "rad/s^2", "the deceleration the yaw stop plans with"),
))

# ---- Collider.results: what the contacts found for a drone this tick (world/collision.py) -------
CONTACTS = Table("contacts", "Collider.results", unit_suffix=False, rows=(
    Row("contact", 1, "flag", "touching something of the level after the tick", view=False),
    Row("normal", 3, "1", "world: of the most upward contact (the support if resting); (0, 0, 1) without contact",
        initial=(0.0, 0.0, 1.0), view=False),
    Row("impact_speed", 1, "m/s", "the fastest normal approach met this tick (0: none)", view=False),
    Row("resting", 1, "flag", "pressed on (or sitting on) an upward surface without bouncing", view=False),
    Row("support_z", 1, "m", "world: the top of the surface under the envelope; nan over nothing",
        initial=(math.nan,), view=False),
    Row("support", 1, "1", "the solid under the drone: its number in the level's solids, GROUND (-1) or "
        "NOTHING (-2)", initial=(-2.0,), view=False),
    Row("contact_solid", 1, "1", "the solid touched (the most upward): its number, GROUND or NOTHING",
        initial=(-2.0,), view=False),
    Row("bottom_z", 1, "m", "world: the envelope's lowest point", view=False),
    Row("events", 1, "1", "bit flags: 1 a level impact, 2 resting began, 4 a drone-drone impact (this tick)",
        view=False),
    Row("drone_impact_speed", 1, "m/s", "the fastest normal approach of another drone this tick", view=False),
    Row("other_row", 1, "1", "the FleetStore row of the drone met (touching, at any speed); -1: none",
        initial=(-1.0,), view=False),
    Row("drone_normal", 3, "1", "unit, world: out of that drone's envelope towards this one; 0 without one",
        view=False),
))

# ---- Controller.targets: the pilot's (or an assist's) setpoints -------------------------------
TARGETS = Table("targets", "Controller.targets", unit_suffix=False, rows=(
    Row("motor_power", 1, "1", "MotorPower in [0, 1]: the persistent propulsion / cruise setting; "
        "the motors are armed while it is > 0"),
    Row("target_velocity", 3, "m/s", "world (ManualTargetVelocity); z is flown while hold_altitude is off"),
    Row("target_altitude", 1, "m", "world (ManualTargetAltitude)"),
    Row("hold_altitude", 1, "flag", "hold target_altitude (off while Y / A command a vertical speed)",
        initial=(1.0,)),
    Row("target_yaw_rate", 1, "rad/s", "counter-clockwise seen from above"),
    Row("hold_position_set", 1, "flag", "hover over hold_position (off while travelling)", view=False),
    Row("hold_position", 2, "m", "world x, y: the hovering point", view=False),
    Row("hold_line", 1, "flag", "keep to the line of travel (the manual cruise; set by the CONTROL stage)"),
    Row("law", 1, "1", "the control law flying it, LAW_STABILISED / LAW_ANGLE / LAW_ACRO (set by the CONTROL "
        "stage from the mode)", view=False),
))

# ---- Controller.lab: the laboratory models' inputs (Angle, Acro) ------------------------------
LAB = Table("lab", "Controller.lab", unit_suffix=False, rows=(
    Row("collective", 1, "1", "direct collective: fraction of four rotors' thrust at max_motor_speed"),
    Row("lab_stick", 2, "1", "roll, pitch stick in [-1, 1]"),
    Row("lab_yaw_stick", 1, "1", "yaw stick in [-1, 1], right = clockwise"),
))

TABLES: tuple[Table, ...] = (BODY, ROTORS, BATTERY, WRENCH, PHYSICS, GAINS, LOOP_STATE, TARGETS, LAB, CONTACTS)
VEHICLE_TABLES: tuple[Table, ...] = (PHYSICS, GAINS)

# ---- which controller flies (the control tick's `law` argument) -------------------------------
LAW_STABILISED = 0  # MANUAL STABILISED and the assists
LAW_ANGLE = 1
LAW_ACRO = 2


def _generate_constants() -> list[str]:
    names = []
    for table in TABLES:
        for row in table.rows:
            names.append(row.constant)
            globals()[row.constant] = table.offsets[row.name]
        names.append(table.size_constant)
        globals()[table.size_constant] = table.size
    if len(set(names)) != len(names):
        raise ValueError(f"a constant is declared twice: {sorted(n for n in names if names.count(n) > 1)}")
    return names


CONSTANTS: tuple[str, ...] = tuple(_generate_constants())
