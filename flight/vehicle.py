"""Vehicle parameters: the table of docs/model.md#parameters as data, loaded from a TOML file and validated.

A vehicle file (`assets/vehicles/tello.toml`) holds one entry per parameter with its value,
unit, accepted bounds, kind (manufacturer, estimate, …) and description. `load_vehicle`
checks the entries with pydantic, checks each against the unit and shape the model expects
and against the entry's own bounds, then converts to SI in a read-only `Vehicle`
(rpm → rad/s, degrees → radians, Wh → J). Every problem becomes one located line.

Which entries a file must hold, in which unit and shape, is not written here: it is read off
the vehicle arrays' tables in components/layout.py (`PHYSICS`, `GAINS`), whose `FromFile`
rows each name an entry; their `Derived` rows are computed here on load. A `Vehicle` holds
the two packed arrays (`physics`, `gains`) and reads every quantity back by name with its SI
unit as a suffix (`vehicle.motor_time_constant_up_s`), so adding a parameter takes one row in
the table, one entry in the vehicle file and its use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from components.layout import GAINS, PHYSICS, VEHICLE_TABLES, Derived, FromFile
from engine.datafile import DataFileError, TomlSource, describe, pydantic_errors, read_toml

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


# A file unit → (the SI unit it converts to, the factor). Units not listed are SI already.
TO_SI: dict[str, tuple[str, float]] = {
    "rpm": ("rad/s", RPM_TO_RAD_S),
    "deg": ("rad", math.pi / 180.0),
    "deg/s": ("rad/s", math.pi / 180.0),
    "deg/s^2": ("rad/s^2", math.pi / 180.0),
    "Wh": ("J", 3600.0),
}


def _spec() -> dict[str, tuple[str, str, int]]:
    spec = {}
    for table in VEHICLE_TABLES:
        for row in table.rows:
            if isinstance(row.source, FromFile):
                si, _ = TO_SI.get(row.source.unit, (row.source.unit, 1.0))
                if si != row.unit:
                    raise ValueError(f"{table.name}.{row.name}: {row.source.unit} does not convert to {row.unit}")
                spec[row.name] = (row.source.section, row.source.unit, 0 if row.size == 1 else row.size)
    return spec


# What the model expects of each entry: (section, unit in the file, number of values; 0 = a
# scalar), from the tables of components/layout.py
SPEC: dict[str, tuple[str, str, int]] = _spec()

# Entries a mod's controller needs can be registered here before loading, so its vehicle
# files are validated the same way (control entries reach `Vehicle.control`).
EXTRA_SPEC: dict[str, tuple[str, str, int]] = {}


@dataclass(frozen=True, slots=True)
class Rotor:
    x_m: float
    y_m: float
    spin: float  # +1 counter-clockwise seen from above


class Vehicle:
    """The flight model's parameters in SI units (radians, rad/s, joules), read-only.

    `physics` and `gains` are the packed arrays the compiled code reads (components/layout.py;
    never written); every row of their tables is also an attribute, named after it with its
    SI unit (`mass_kg`, `motor_time_constant_up_s`, `max_rate_rad_s`: a float, or a tuple for
    a row of several values), read from the arrays once, when the vehicle is made. `control`
    maps each `[control]` entry (a mod's too) to its SI value.
    """

    def __init__(self, name: str, values: dict[str, Any], control: dict[str, Any], source: str = "") -> None:
        physics, gains = PHYSICS.pack(values), GAINS.pack(values)
        fields = {"name": name, "source": source, "physics": physics, "gains": gains, "control": control,
                  **PHYSICS.values(physics), **GAINS.values(gains)}
        for attribute, value in fields.items():
            object.__setattr__(self, attribute, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Vehicle is read-only (its {name!r} too)")

    def __repr__(self) -> str:
        return f"Vehicle({self.name!r}, source={self.source!r})"

    @property
    def rotors(self) -> tuple[Rotor, Rotor, Rotor, Rotor]:
        """Motors 0 front-right, 1 rear-right, 2 rear-left, 3 front-left."""
        return tuple(Rotor(x, y, s) for x, y, s in zip(self.rotor_x_m, self.rotor_y_m, self.motor_spin))

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


def derive(values: dict[str, Any]) -> dict[str, Any]:
    """The SI values of the file's entries completed with the tables' derived rows, computed in
    table order (a derivation reads only rows above it)."""
    out = dict(values)
    for table in VEHICLE_TABLES:
        for row in table.rows:
            if isinstance(row.source, Derived):
                value = row.source.compute(out)
                out[row.name] = float(value) if row.size == 1 else tuple(float(x) for x in value)
    return out


def _convert(unit: str, value: float) -> float:
    if unit in TO_SI:
        return value * TO_SI[unit][1]
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

    values = {k: si(k) for k in SPEC}
    control = {k: si(k) for k, s in spec.items() if s[0] == "control"}
    spin = values["motor_spin"]
    if sorted(spin) != [-1.0, -1.0, 1.0, 1.0] or spin[0] != spin[2]:
        raise DataFileError([f"{source.locate(('params', 'motor_spin', 'value'))}: params.motor_spin.value: expected diagonal pairs spinning alike, e.g. [1, -1, 1, -1], got {list(spin)}"])
    return Vehicle(parsed.name, derive(values), control, source=str(source.path))


_cache: dict[Path, Vehicle] = {}


def default_vehicle() -> Vehicle:
    """The shipped Tello, loaded once per process (the file is read-only game data)."""
    path = DEFAULT_VEHICLE
    if path not in _cache:
        _cache[path] = load_vehicle(path)
    return _cache[path]
