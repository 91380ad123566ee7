"""One telemetry record: the drone's state in SI units, world frame, Z up (docs/api.md#telemetry).

Field names are a contract: scripts, tests, `donify fly --telemetry` and plots rely on them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, is_dataclass

from flight.assists import MissionRecord
from systems.course import CourseRecord


@dataclass(frozen=True)
class Telemetry:
    time: float  # s of simulated time since the Simulation started (Restart does not rewind it)
    mode: str  # a components.modes.Mode ("manual", "angle", "acro", "takeoff", "landing", "mission") or a mod's
    armed: bool
    motor_power: float  # MotorPower in [0, 1]
    position: tuple[float, float, float]  # m, world
    velocity: tuple[float, float, float]  # m/s, world
    quaternion: tuple[float, float, float, float]  # x, y, z, w (pyrr order), body → world
    roll_deg: float
    pitch_deg: float
    yaw_deg: float
    angular_velocity: tuple[float, float, float]  # rad/s, body
    rpm: tuple[float, float, float, float]  # motors 0 FR, 1 RR, 2 RL, 3 FL
    thrust: tuple[float, float, float, float]  # N, produced
    target_velocity: tuple[float, float, float]  # ManualTargetVelocity, m/s, world
    target_altitude: float  # ManualTargetAltitude, m, world
    height_above_ground: float | None  # m, to the surface detected under the drone; None over nothing
    contact: bool
    battery_fraction: float  # energy fraction s in [0, 1]
    battery_energy_wh: float
    battery_voltage: float  # V, loaded
    power_w: float
    damage: float
    trail_points: int
    mission: MissionRecord = field(default_factory=MissionRecord)  # status, waypoint index, …
    landing_refused: str = ""  # why the last landing (B) was refused; "" if it was not
    crashed: bool = False  # an impact or the damage ended the flight: motors stopped until Restart
    course: CourseRecord = field(default_factory=CourseRecord)  # course_id, status, gate, gates, time_s, splits

    def as_dict(self) -> dict:
        """JSON-ready: tuples become lists, non-finite numbers become None."""
        return {name: _jsonable(getattr(self, name)) for name in FIELD_NAMES}


def _jsonable(value):
    kind = type(value)
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is tuple or kind is list:
        return [v if type(v) is float and math.isfinite(v) else _jsonable(v) for v in value]
    if value is None or isinstance(value, (bool, int, str)):  # a Mode is a str
        return value
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if is_dataclass(value):  # a record (MissionRecord): its fields, without asdict's deep copies
        return {f.name: _jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, float):  # a float subclass (numpy.float64)
        return float(value) if math.isfinite(value) else None
    return value


FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Telemetry))  # the contract, in order
