"""The assists (docs/model.md#assists): take-off, landing and the mission, as setpoint generators.

An assist never moves the drone: it only writes the Controller's setpoints (target
velocity, target altitude, hovering point, MotorPower) that the stabilised controller flies,
exactly as the pilot's inputs do. Starting one keeps the present state; finishing hands
back to MANUAL STABILISED through `ManualFlight.resume`, which continues the present motion
without a setpoint jump. Sensing (the support under the drone, obstacles ahead) is done by
the ASSIST system with world/sensing.py and handed in: this module is pure.

* Take-off: aims about 1.5 m above the support found under the drone; the altitude target
  rises at a gentle climb rate (a "carrot"), the horizontal position is held; once the drone
  has settled there, MANUAL STABILISED takes over holding that low height.
* Landing: refused over nothing, or over a surface that is not level within 5° or does not
  carry 90 % of the footprint (an edge); otherwise holds the horizontal position and
  descends at ≤ 0.7 m/s, slowing near the surface it measured (raised or not); only a real
  contact on an admissible surface ends it, and cuts the motors (MotorPower 0).
* Mission: climbs to the transit altitude (18 m, world frame), flies the waypoints in order,
  slowing into each, then descends onto the arrival pad (the landing logic); contact with
  the pad validates the arrival. An obstacle ahead interrupts it: hover, with the reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from components.flight import Controller, RigidBody

TAKEOFF_HEIGHT_M = 1.5  # above the support, centre of mass
TAKEOFF_CLIMB_M_S = 1.0  # how fast the altitude target rises
TAKEOFF_MOTOR_POWER = 0.2  # MotorPower set when a take-off arms from 0 (cruise 1.6 m/s afterwards)
SETTLED_M = 0.1  # |altitude error| that ends a take-off …
SETTLED_M_S = 0.15  # … with |vertical speed| below this

LANDING_MAX_SPEED_M_S = 0.7  # docs/model.md#assists: descent commanded at most this fast
LANDING_MIN_SPEED_M_S = 0.25  # the slowest, just above the surface
LANDING_SLOWDOWN_GAIN = 0.6  # 1/s: descent speed per metre of height while slowing down
LANDING_MAX_SLOPE_DEG = 5.0  # steeper surfaces are refused
LANDING_MIN_COVERAGE = 0.9  # share of the footprint the surface must carry

MISSION_SPEED_M_S = 6.0  # transit speed between waypoints
MISSION_DECEL_M_S2 = 2.0  # planned slowing into a waypoint
WAYPOINT_RADIUS_M = 1.5  # a waypoint is passed within this horizontal distance
TRANSIT_TOLERANCE_M = 0.5  # climb until this close to the transit altitude before leaving
LOOKAHEAD_MARGIN_M = 3.0  # obstacle monitoring looks this far beyond the braking distance
OBSTACLE_CLEARANCE_M = 0.5  # margin around the envelope for obstacle monitoring


def landing_refusal(support) -> str | None:
    """Why a landing cannot start over `support` (a world.sensing.Support or None), or None."""
    if support is None:
        return "no surface under the drone"
    slope = math.degrees(math.acos(max(-1.0, min(1.0, support.normal[2]))))
    if slope > LANDING_MAX_SLOPE_DEG:
        return f"surface sloped {slope:.0f}° (at most {LANDING_MAX_SLOPE_DEG:.0f}°)"
    if support.coverage < LANDING_MIN_COVERAGE:
        return f"surface edge: only {support.coverage:.0%} of the drone over it"
    return None


def landing_speed(distance_m: float) -> float:
    """Commanded descent speed (m/s, positive down) at `distance_m` above the surface."""
    return min(LANDING_MAX_SPEED_M_S, max(LANDING_MIN_SPEED_M_S, LANDING_SLOWDOWN_GAIN * distance_m))


@dataclass
class TakeOff:
    """Climb to about 1.5 m above the support; then hand back to manual."""

    target_altitude_m: float
    carrot_m: float  # the altitude target now, rising toward target_altitude_m
    hold_xy: tuple[float, float]

    @classmethod
    def start(cls, ctrl: Controller, body: RigidBody, support_height_m: float) -> "TakeOff":
        if ctrl.motor_power <= 0.0:
            ctrl.motor_power = TAKEOFF_MOTOR_POWER  # arm: the stabilised controller flies from here
        z = float(body.position[2])
        return cls(support_height_m + TAKEOFF_HEIGHT_M, z, (float(body.position[0]), float(body.position[1])))

    def update(self, ctrl: Controller, body: RigidBody, dt_s: float) -> bool:
        """Write the setpoints; True once the drone has settled at the take-off height."""
        self.carrot_m = min(self.target_altitude_m, self.carrot_m + TAKEOFF_CLIMB_M_S * dt_s)
        ctrl.target_velocity[:] = (0.0, 0.0, 0.0)
        ctrl.hold_position = list(self.hold_xy)
        ctrl.hold_altitude = True
        ctrl.target_altitude = self.carrot_m
        ctrl.target_yaw_rate = 0.0
        return (self.carrot_m >= self.target_altitude_m
                and abs(body.position[2] - self.target_altitude_m) < SETTLED_M
                and abs(body.velocity[2]) < SETTLED_M_S)


@dataclass
class Landing:
    """Hold the horizontal position and descend onto the measured surface."""

    hold_xy: tuple[float, float]
    surface_height_m: float

    @classmethod
    def start(cls, body: RigidBody, support, hold_xy=None) -> "Landing":
        xy = hold_xy if hold_xy is not None else (float(body.position[0]), float(body.position[1]))
        return cls(tuple(xy), support.height_m)

    def update(self, ctrl: Controller, body: RigidBody, support, half_height_m: float) -> None:
        """Write the setpoints. `support` is the surface measured now (it follows the drone)."""
        if support is not None:
            self.surface_height_m = support.height_m
        distance = max(0.0, float(body.position[2]) - half_height_m - self.surface_height_m)
        ctrl.target_velocity[:] = (0.0, 0.0, -landing_speed(distance))
        ctrl.hold_position = list(self.hold_xy)
        ctrl.hold_altitude = False
        ctrl.target_altitude = self.surface_height_m + half_height_m
        ctrl.target_yaw_rate = 0.0

    @staticmethod
    def touched_down(contact: bool, contact_normal) -> bool:
        """A real, admissible contact: touching a surface level within the landing slope."""
        return contact and contact_normal[2] >= math.cos(math.radians(LANDING_MAX_SLOPE_DEG))


@dataclass(frozen=True)
class MissionRecord:
    """Where the mission is, as telemetry's `mission` reports it (and the HUD shows it)."""

    status: str = "idle"  # idle | climbing | transit | descending | arrived | interrupted | refused
    waypoint_index: int = -1  # index in the route (the last is above the arrival pad); -1 before the start
    waypoints: int = 0  # points in the route
    reason: str = ""  # why it was interrupted or refused
    next_waypoint: tuple[float, float, float] | None = None  # m, world: the point flown to, None when not flying


@dataclass
class MissionState:
    """Where the mission is, as the mission flight updates it."""

    status: str = "idle"  # see MissionRecord
    waypoint_index: int = -1
    reason: str = ""
    route: list = field(default_factory=list)  # [(x, y, z)] world m, transit altitude

    def record(self) -> MissionRecord:
        flying = self.status in ("climbing", "transit", "descending") and 0 <= self.waypoint_index < len(self.route)
        return MissionRecord(self.status, self.waypoint_index, len(self.route), self.reason,
                             tuple(self.route[self.waypoint_index]) if flying else None)


class MissionFlight:
    """Fly the route: climb, transit waypoint to waypoint, descend onto the arrival pad."""

    def __init__(self, route, arrival_pad_id: str, state: MissionState, body: RigidBody) -> None:
        self.route = [tuple(float(c) for c in p) for p in route]
        self.arrival_pad_id = arrival_pad_id
        self.state = state
        self.climb_xy = (float(body.position[0]), float(body.position[1]))
        state.route = self.route
        state.status = "climbing"
        state.waypoint_index = 0
        state.reason = ""

    @property
    def transit_altitude_m(self) -> float:
        return self.route[0][2]

    def lookahead_m(self, body: RigidBody) -> float:
        """How far ahead obstacle monitoring looks: the braking distance plus a margin."""
        v = math.hypot(body.velocity[0], body.velocity[1])
        return v * v / (2.0 * MISSION_DECEL_M_S2) + LOOKAHEAD_MARGIN_M

    def update(self, ctrl: Controller, body: RigidBody) -> None:
        """Write the setpoints for the climb and the transit; on reaching the point above the
        arrival pad the status becomes "descending" (the caller then lands)."""
        s = self.state
        x, y, z = (float(c) for c in body.position)
        ctrl.target_yaw_rate = 0.0
        ctrl.hold_altitude = True
        ctrl.target_altitude = self.transit_altitude_m
        ctrl.target_velocity[:] = (0.0, 0.0, 0.0)
        if s.status == "climbing":
            ctrl.hold_position = list(self.climb_xy)
            if abs(z - self.transit_altitude_m) < TRANSIT_TOLERANCE_M:
                s.status = "transit"
            return
        if s.status != "transit":
            return
        last = len(self.route) - 1
        wx, wy, _ = self.route[s.waypoint_index]
        d = math.hypot(wx - x, wy - y)
        if s.waypoint_index < last and d < WAYPOINT_RADIUS_M:
            s.waypoint_index += 1
            wx, wy, _ = self.route[s.waypoint_index]
            d = math.hypot(wx - x, wy - y)
        if s.waypoint_index == last and d < MISSION_SPEED_M_S ** 2 / (2.0 * MISSION_DECEL_M_S2) + 1.0:
            # the last point is above the pad: slow into it and hold it before descending
            speed = min(MISSION_SPEED_M_S, math.sqrt(2.0 * MISSION_DECEL_M_S2 * d))
            if d < 0.3 and math.hypot(body.velocity[0], body.velocity[1]) < 0.3:
                s.status = "descending"
                ctrl.hold_position = [wx, wy]
                return
            if d < 1.0:
                ctrl.hold_position = [wx, wy]
                return
        else:
            speed = MISSION_SPEED_M_S
        ctrl.hold_position = None
        ctrl.target_velocity[:] = ((wx - x) / d * speed, (wy - y) / d * speed, 0.0)
