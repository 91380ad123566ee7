"""Vehicle parameters: the table of docs/model.md#parameters as data, loaded from a TOML file and validated.

A vehicle file (`assets/vehicles/tello.toml`) holds one entry per parameter with its value,
unit, accepted bounds, kind (manufacturer, estimate, …) and description. `load_vehicle`
checks the entries with pydantic, checks each against the unit and shape the model expects
and against the entry's own bounds, then converts to SI in a frozen `Vehicle`
(rpm → rad/s, degrees → radians, Wh → J). Every problem becomes one located line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from engine.datafile import DataFileError, TomlSource, describe, pydantic_errors, read_toml
from flight import layout as L

ASSETS = Path(__file__).resolve().parent.parent / "assets"
DEFAULT_VEHICLE = ASSETS / "vehicles" / "tello.toml"

RPM_TO_RAD_S = 2.0 * math.pi / 60.0

Kind = Literal[
    "manufacturer", "manufacturer limit", "reconstructed estimate", "estimate",
    "simulator choice", "physical reference", "tuning",
]


class Entry(BaseModel):
    """One parameter as written in a vehicle file."""

    model_config = ConfigDict(extra="forbid", strict=False)
    value: float | list[float]
    unit: str
    min: float
    max: float
    kind: Kind
    description: str
    source: str = ""

    @field_validator("value")
    @classmethod
    def _finite(cls, v: float | list[float]) -> float | list[float]:
        values = v if isinstance(v, list) else [v]
        if not all(math.isfinite(x) for x in values):
            raise ValueError("finite numbers")
        return v


class VehicleFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    format_version: Literal[1]
    params: dict[str, Entry]
    control: dict[str, Entry]


# What the model expects of each entry: (section, unit, number of values; 0 = a scalar)
SPEC: dict[str, tuple[str, str, int]] = {
    "mass": ("params", "kg", 0),
    "prop_diameter": ("params", "m", 0),
    "motor_arm_x": ("params", "m", 0),
    "motor_arm_y": ("params", "m", 0),
    "motor_spin": ("params", "1", 4),
    "inertia": ("params", "kg*m^2", 3),
    "envelope_size": ("params", "m", 3),
    "thrust_coefficient": ("params", "N/(rad/s)^2", 0),
    "reaction_torque_ratio": ("params", "m", 0),
    "max_motor_speed": ("params", "rpm", 0),
    "max_motor_speed_voltage": ("params", "V", 0),
    "motor_time_constant_up": ("params", "s", 0),
    "motor_time_constant_down": ("params", "s", 0),
    "drag_area": ("params", "m^2", 3),
    "aero_centre_height": ("params", "m", 0),
    "angular_damping_linear": ("params", "N*m*s/rad", 0),
    "angular_damping_quadratic": ("params", "N*m*s^2/rad^2", 0),
    "battery_energy": ("params", "Wh", 0),
    "battery_capacity": ("params", "Ah", 0),
    "battery_nominal_voltage": ("params", "V", 0),
    "ocv_curve": ("params", "V", 4),
    "internal_resistance": ("params", "ohm", 0),
    "min_loaded_voltage": ("params", "V", 0),
    "induced_efficiency": ("params", "1", 0),
    "profile_power": ("params", "W", 0),
    "profile_reference_speed": ("params", "rpm", 0),
    "electronics_power": ("params", "W", 0),
    "gravity": ("params", "m/s^2", 0),
    "reference_air_density": ("params", "kg/m^3", 0),
    "max_horizontal_speed": ("params", "m/s", 0),
    "max_vertical_speed": ("params", "m/s", 0),
    "command_vertical_speed": ("params", "m/s", 0),
    "max_tilt": ("params", "deg", 0),
    "attitude_gain": ("control", "1/s", 0),
    "yaw_attitude_gain": ("control", "1/s", 0),
    "rate_p": ("control", "1/s", 3),
    "rate_i": ("control", "1/s^2", 3),
    "rate_i_limit": ("control", "rad/s^2", 0),
    "rate_i_window": ("control", "deg/s", 0),
    "max_rate": ("control", "deg/s", 3),
    "angle_max_tilt": ("control", "deg", 0),
    "max_yaw_rate": ("control", "deg/s", 0),
    "outer_loop_rate": ("control", "Hz", 0),
    "inner_loop_rate": ("control", "Hz", 0),
    "velocity_gain": ("control", "1/s", 0),
    "velocity_i": ("control", "1/s^2", 0),
    "velocity_i_limit": ("control", "m/s^2", 0),
    "position_gain": ("control", "1/s", 0),
    "position_speed_limit": ("control", "m/s", 0),
    "hold_capture_speed": ("control", "m/s", 0),
    "reference_acceleration": ("control", "m/s^2", 0),
    "reference_jerk": ("control", "m/s^3", 0),
    "motor_lead_time": ("control", "s", 0),
    "max_jerk": ("control", "m/s^3", 0),
    "integrator_window": ("control", "m/s", 0),
    "max_yaw_acceleration": ("control", "deg/s^2", 0),
    "yaw_brake_share": ("control", "1", 0),
    "yaw_lock_rate": ("control", "deg/s", 0),
    "altitude_gain": ("control", "1/s", 0),
    "vertical_brake_decel": ("control", "m/s^2", 0),
    "vertical_brake_thrust_share": ("control", "1", 0),
    "altitude_linear_speed": ("control", "m/s", 0),
    "vertical_velocity_gain": ("control", "1/s", 0),
    "vertical_velocity_i": ("control", "1/s^2", 0),
    "vertical_velocity_i_limit": ("control", "m/s^2", 0),
    "thrust_reserve": ("control", "1", 0),
    "stick_dead_zone": ("control", "1", 0),
    "direction_change": ("control", "deg", 0),
    "motor_power_rate": ("control", "1/s", 0),
}

# Entries a mod's controller needs can be registered here before loading, so its vehicle
# files are validated the same way.
EXTRA_SPEC: dict[str, tuple[str, str, int]] = {}


@dataclass(frozen=True, slots=True)
class Rotor:
    x_m: float
    y_m: float
    spin: float  # +1 counter-clockwise seen from above


@dataclass(frozen=True, slots=True)
class Vehicle:
    """The flight model's parameters in SI units (radians, rad/s, joules)."""

    name: str
    mass_kg: float
    prop_diameter_m: float
    rotors: tuple[Rotor, Rotor, Rotor, Rotor]
    inertia_kgm2: tuple[float, float, float]
    envelope_size_m: tuple[float, float, float]
    thrust_coefficient: float  # N/(rad/s)²
    reaction_torque_ratio_m: float
    max_motor_speed_rad_s: float  # at max_motor_speed_voltage_v
    max_motor_speed_voltage_v: float
    motor_tau_up_s: float
    motor_tau_down_s: float
    drag_area_m2: tuple[float, float, float]
    aero_centre_height_m: float
    angular_damping_linear: float  # N·m·s/rad
    angular_damping_quadratic: float  # N·m·s²/rad²
    battery_energy_j: float
    battery_capacity_ah: float
    battery_nominal_voltage_v: float
    ocv_curve: tuple[float, float, float, float]  # a + b s + c s^n: V, V, V, exponent
    internal_resistance_ohm: float
    min_loaded_voltage_v: float
    induced_efficiency: float
    profile_power_w: float
    profile_reference_speed_rad_s: float
    electronics_power_w: float
    gravity_m_s2: float
    reference_air_density_kg_m3: float
    max_horizontal_speed_m_s: float
    max_vertical_speed_m_s: float
    command_vertical_speed_m_s: float
    max_tilt_rad: float
    control: dict  # controller entries, SI: {name: float | tuple}
    source: str = ""
    packed: np.ndarray = field(default=None, compare=False, repr=False)  # flat SI array for compiled code (flight/layout.py)

    def __post_init__(self) -> None:
        object.__setattr__(self, "packed", pack(self))

    @property
    def disc_area_m2(self) -> float:
        return math.pi * (0.5 * self.prop_diameter_m) ** 2

    @property
    def weight_n(self) -> float:
        return self.mass_kg * self.gravity_m_s2

    @property
    def thrust_margin_m_s2(self) -> float:
        """Upward acceleration four rotors at max_motor_speed give beyond gravity, sea level."""
        return 4.0 * self.thrust_coefficient * self.max_motor_speed_rad_s ** 2 / self.mass_kg - self.gravity_m_s2

    def hover_motor_speed_rad_s(self, density_kg_m3: float | None = None) -> float:
        """ω at which four rotors carry the weight: √(m g / (4 kT ρ/ρ₀))."""
        ratio = 1.0 if density_kg_m3 is None else density_kg_m3 / self.reference_air_density_kg_m3
        return math.sqrt(self.weight_n / (4.0 * self.thrust_coefficient * ratio))


def pack(v: Vehicle) -> np.ndarray:
    """The parameters as one flat float64 array, laid out as flight/layout.py declares."""
    from flight.control.mixer import allocation_inverse

    c = v.control
    p = np.zeros(L.PACKED_SIZE)
    p[L.MASS] = v.mass_kg
    p[L.GRAVITY] = v.gravity_m_s2
    p[L.KT] = v.thrust_coefficient
    p[L.RHO0] = v.reference_air_density_kg_m3
    p[L.REACTION] = v.reaction_torque_ratio_m
    p[L.TAU_UP] = v.motor_tau_up_s
    p[L.TAU_DOWN] = v.motor_tau_down_s
    p[L.INERTIA:L.INERTIA + 3] = v.inertia_kgm2
    p[L.CDA:L.CDA + 3] = v.drag_area_m2
    p[L.AERO_H] = v.aero_centre_height_m
    p[L.DAMP_LIN] = v.angular_damping_linear
    p[L.DAMP_QUAD] = v.angular_damping_quadratic
    p[L.ROTOR_X:L.ROTOR_X + 4] = [r.x_m for r in v.rotors]
    p[L.ROTOR_Y:L.ROTOR_Y + 4] = [r.y_m for r in v.rotors]
    p[L.ROTOR_SPIN:L.ROTOR_SPIN + 4] = [r.spin for r in v.rotors]
    p[L.DISC_AREA] = v.disc_area_m2
    p[L.OCV_A], p[L.OCV_B], p[L.OCV_C], p[L.OCV_N] = v.ocv_curve
    p[L.R_INTERNAL] = v.internal_resistance_ohm
    p[L.V_MIN] = v.min_loaded_voltage_v
    p[L.ETA_INDUCED] = v.induced_efficiency
    p[L.PROFILE_W] = v.profile_power_w
    p[L.PROFILE_SPEED] = v.profile_reference_speed_rad_s
    p[L.ELECTRONICS_W] = v.electronics_power_w
    p[L.MAX_SPEED_REF] = v.max_motor_speed_rad_s
    p[L.V_REF] = v.max_motor_speed_voltage_v
    p[L.ATT_GAIN] = c["attitude_gain"]
    p[L.YAW_WEIGHT] = min(1.0, max(0.0, c["yaw_attitude_gain"] / c["attitude_gain"]))
    p[L.RATE_P:L.RATE_P + 3] = c["rate_p"]
    p[L.RATE_I:L.RATE_I + 3] = c["rate_i"]
    p[L.RATE_I_LIMIT] = c["rate_i_limit"]
    p[L.MAX_RATE:L.MAX_RATE + 3] = c["max_rate"]
    p[L.MIX:L.MIX + 16] = allocation_inverse(v).ravel()
    p[L.K_POS] = c["position_gain"]
    p[L.POS_SPEED_LIMIT] = c["position_speed_limit"]
    p[L.K_VEL] = c["velocity_gain"]
    p[L.KI_VEL] = c["velocity_i"]
    p[L.VEL_I_LIMIT] = c["velocity_i_limit"]
    p[L.K_VZ] = c["vertical_velocity_gain"]
    p[L.KI_VZ] = c["vertical_velocity_i"]
    p[L.VZ_I_LIMIT] = c["vertical_velocity_i_limit"]
    p[L.K_ALT] = c["altitude_gain"]
    p[L.BRAKE_DECEL] = c["vertical_brake_decel"]
    p[L.I_WINDOW] = c["integrator_window"]
    p[L.MAX_JERK] = c["max_jerk"]
    p[L.MAX_YAW_ACC] = c["max_yaw_acceleration"]
    p[L.TRANSLATION_SHARE] = 1.0 - c["thrust_reserve"]
    p[L.TAN_MAX_TILT] = math.tan(v.max_tilt_rad)
    p[L.MAX_H_SPEED] = v.max_horizontal_speed_m_s
    p[L.MAX_V_SPEED] = v.max_vertical_speed_m_s
    p[L.OUTER_DIVIDER] = max(1, round(c["inner_loop_rate"] / c["outer_loop_rate"]))
    p[L.MAX_YAW_RATE] = c["max_yaw_rate"]
    p[L.ANGLE_MAX_TILT] = c["angle_max_tilt"]
    p[L.BATTERY_J] = v.battery_energy_j
    p[L.REF_ACC] = c["reference_acceleration"]
    p[L.REF_JERK] = c["reference_jerk"]
    p[L.MOTOR_LEAD] = c["motor_lead_time"]
    p[L.RATE_I_WINDOW] = c["rate_i_window"]
    p[L.YAW_BRAKE_SHARE] = c["yaw_brake_share"]
    p[L.YAW_LOCK_RATE] = c["yaw_lock_rate"]
    p[L.V_BRAKE_SHARE] = c["vertical_brake_thrust_share"]
    p[L.ALT_LINEAR_SPEED] = c["altitude_linear_speed"]
    return p


def _convert(unit: str, value: float) -> float:
    if unit == "rpm":
        return value * RPM_TO_RAD_S
    if unit in ("deg", "deg/s", "deg/s^2"):
        return math.radians(value)
    if unit == "Wh":
        return value * 3600.0
    return value


def load_vehicle(path: str | Path = DEFAULT_VEHICLE) -> Vehicle:
    """Load and validate a vehicle file. Raises `DataFileError` with one line per problem."""
    source = read_toml(path)
    try:
        parsed = VehicleFile.model_validate(source.data)
    except ValidationError as exc:
        raise DataFileError(pydantic_errors(source, exc.errors())) from None
    return vehicle_from_file(source, parsed)


def _check_entries(source: TomlSource, parsed: VehicleFile) -> tuple[list[str], dict[str, Entry]]:
    errors: list[str] = []
    entries: dict[str, Entry] = {}
    spec = {**SPEC, **EXTRA_SPEC}
    for key, (section, unit, length) in spec.items():
        table = getattr(parsed, section)
        where = (section, key)
        if key not in table:
            errors.append(f"{source.locate((section,))}: {section}.{key}: expected an entry [{section}.{key}] in {unit}, got nothing (missing)")
            continue
        entry = table[key]
        if entry.unit != unit:
            errors.append(f"{source.locate((*where, 'unit'))}: {section}.{key}.unit: expected {unit!r}, got {entry.unit!r}")
        values = entry.value if isinstance(entry.value, list) else [entry.value]
        if length == 0 and isinstance(entry.value, list):
            errors.append(f"{source.locate((*where, 'value'))}: {section}.{key}.value: expected a number, got {describe(entry.value)}")
        elif length and (not isinstance(entry.value, list) or len(values) != length):
            errors.append(f"{source.locate((*where, 'value'))}: {section}.{key}.value: expected a list of {length} numbers, got {describe(entry.value)}")
        if entry.min > entry.max:
            errors.append(f"{source.locate((*where, 'min'))}: {section}.{key}: expected min ≤ max, got min {entry.min} > max {entry.max}")
        for v in values:
            if not entry.min <= v <= entry.max:
                errors.append(f"{source.locate((*where, 'value'))}: {section}.{key}.value: expected {entry.min} ≤ value ≤ {entry.max} {unit}, got {v}")
                break
        entries[key] = entry
    for section in ("params", "control"):
        for key in getattr(parsed, section):
            if key not in spec or spec[key][0] != section:
                errors.append(f"{source.locate((section, key))}: {section}.{key}: expected one of the known {section} entries, got an unknown entry (check its spelling)")
    return errors, entries


def vehicle_from_file(source: TomlSource, parsed: VehicleFile) -> Vehicle:
    errors, entries = _check_entries(source, parsed)
    if errors:
        raise DataFileError(errors)
    spec = {**SPEC, **EXTRA_SPEC}

    def si(key: str):
        entry = entries[key]
        unit = spec[key][1]
        if isinstance(entry.value, list):
            return tuple(_convert(unit, float(v)) for v in entry.value)
        return _convert(unit, float(entry.value))

    p = {k: si(k) for k in SPEC if SPEC[k][0] == "params"}
    control = {k: si(k) for k, s in spec.items() if s[0] == "control"}
    ax, ay = p["motor_arm_x"], p["motor_arm_y"]
    spin = p["motor_spin"]
    positions = ((ax, -ay), (-ax, -ay), (-ax, ay), (ax, ay))  # 0 FR, 1 RR, 2 RL, 3 FL
    rotors = tuple(Rotor(x, y, s) for (x, y), s in zip(positions, spin))
    extra_errors = []
    if sorted(spin) != [-1.0, -1.0, 1.0, 1.0] or spin[0] != spin[2]:
        extra_errors.append(f"{source.locate(('params', 'motor_spin', 'value'))}: params.motor_spin.value: expected diagonal pairs spinning alike, e.g. [1, -1, 1, -1], got {list(spin)}")
    if extra_errors:
        raise DataFileError(extra_errors)
    return Vehicle(
        name=parsed.name,
        mass_kg=p["mass"],
        prop_diameter_m=p["prop_diameter"],
        rotors=rotors,  # type: ignore[arg-type]
        inertia_kgm2=p["inertia"],
        envelope_size_m=p["envelope_size"],
        thrust_coefficient=p["thrust_coefficient"],
        reaction_torque_ratio_m=p["reaction_torque_ratio"],
        max_motor_speed_rad_s=p["max_motor_speed"],
        max_motor_speed_voltage_v=p["max_motor_speed_voltage"],
        motor_tau_up_s=p["motor_time_constant_up"],
        motor_tau_down_s=p["motor_time_constant_down"],
        drag_area_m2=p["drag_area"],
        aero_centre_height_m=p["aero_centre_height"],
        angular_damping_linear=p["angular_damping_linear"],
        angular_damping_quadratic=p["angular_damping_quadratic"],
        battery_energy_j=p["battery_energy"],
        battery_capacity_ah=p["battery_capacity"],
        battery_nominal_voltage_v=p["battery_nominal_voltage"],
        ocv_curve=p["ocv_curve"],
        internal_resistance_ohm=p["internal_resistance"],
        min_loaded_voltage_v=p["min_loaded_voltage"],
        induced_efficiency=p["induced_efficiency"],
        profile_power_w=p["profile_power"],
        profile_reference_speed_rad_s=p["profile_reference_speed"],
        electronics_power_w=p["electronics_power"],
        gravity_m_s2=p["gravity"],
        reference_air_density_kg_m3=p["reference_air_density"],
        max_horizontal_speed_m_s=p["max_horizontal_speed"],
        max_vertical_speed_m_s=p["max_vertical_speed"],
        command_vertical_speed_m_s=p["command_vertical_speed"],
        max_tilt_rad=p["max_tilt"],
        control=control,
        source=str(source.path),
    )


_cache: dict[Path, Vehicle] = {}


def default_vehicle() -> Vehicle:
    """The shipped Tello, loaded once per process (the file is read-only game data)."""
    path = DEFAULT_VEHICLE
    if path not in _cache:
        _cache[path] = load_vehicle(path)
    return _cache[path]
