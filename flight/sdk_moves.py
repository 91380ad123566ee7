"""The Tello SDK's moves as setpoint generators for the stabilised controller (pure: no esper).

The SDK gives distances in the drone's body frame at the moment the command arrives (x
forward, y left, z up, centimetres) and a speed. A move here never moves the drone: it slides
a *carrot* along the path — a straight segment (`up`, `forward`, `go`…) or the circular arc
through the start and two points (`curve`) — accelerating at MOVE_ACCELERATION_M_S2 up to
the commanded speed and braking to a stop at the end, and asks the stabilised controller to
hover over the carrot while moving with it: target velocity = the carrot's velocity (fed
forward), hovering point and altitude target = the carrot's position. The controller's own
position and altitude loops take out the lag. A move is finished when the carrot has stopped
at the target, the drone is within ARRIVED_M (5 cm) of it and slower than SETTLED_M_S.

`Turn` (`cw`/`ccw`) commands a yaw rate following a braking profile toward the target
heading, holding the position and the altitude. `Flip` is the flip's state machine under the
rate controller (the laboratory Acro law): a short climb, a full turn about the body axis at
FLIP_RATE_RAD_S with a low collective, then back to the stabilised controller.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

ARRIVED_M = 0.05  # a move ends within this distance of its target …
SETTLED_M_S = 0.1  # … once the drone is slower than this
MOVE_ACCELERATION_M_S2 = 1.0  # the carrot's acceleration and braking (the controller follows 3.5 m/s²)
MOVE_TIMEOUT_MARGIN_S = 10.0  # a move not finished this long after its planned duration fails

TURN_RATE_RAD_S = math.radians(90.0)  # cw / ccw: the yaw rate of a turn
TURN_ACCELERATION_RAD_S2 = math.radians(180.0)  # the turn's planned braking
TURN_ARRIVED_RAD = math.radians(2.0)  # a turn ends this close to its heading …
TURN_SETTLED_RAD_S = math.radians(6.0)  # … turning slower than this
TURN_RELEASE_RAD = math.radians(0.5)  # the yaw-rate command is released this close

FLIP_BOOST_S = 0.3  # the climb before a flip, at FLIP_BOOST_COLLECTIVE
FLIP_BOOST_COLLECTIVE = 0.95
FLIP_COLLECTIVE = 0.25  # the collective while turning over
FLIP_RATE_RAD_S = math.radians(720.0)  # the body rate of the turn over
FLIP_RELEASE_RAD = math.radians(330.0)  # the rate command ends here; the rate loop stops the rest
FLIP_MIN_BATTERY = 0.5  # below half a pack the drone refuses to flip (as the Tello does)
FLIP_RECOVERED_TILT_RAD = math.radians(8.0)
FLIP_RECOVERED_M_S = 0.3
FLIP_AXES = {"f": (0.0, 1.0), "b": (0.0, -1.0), "r": (1.0, 0.0), "l": (-1.0, 0.0)}  # lab stick (roll, pitch)

ARC_MIN_RADIUS_M = 0.5  # curve: the SDK's accepted radii
ARC_MAX_RADIUS_M = 10.0


def heading_of(q) -> float:
    """The heading (rad, counter-clockwise from world X) of the quaternion (x, y, z, w)."""
    x, y, z, w = q
    return math.atan2(2.0 * (x * y + w * z), 1.0 - 2.0 * (y * y + z * z))


def wrap(a: float) -> float:
    """Angle in [-π, π)."""
    return (a + math.pi) % (2.0 * math.pi) - math.pi


def body_to_world(yaw_rad: float, v) -> tuple[float, float, float]:
    """A vector given in the heading's frame (x forward, y left, z up) in world axes."""
    c, s = math.cos(yaw_rad), math.sin(yaw_rad)
    return (c * v[0] - s * v[1], s * v[0] + c * v[1], v[2])


def world_to_body(yaw_rad: float, v) -> tuple[float, float, float]:
    c, s = math.cos(yaw_rad), math.sin(yaw_rad)
    return (c * v[0] + s * v[1], -s * v[0] + c * v[1], v[2])


# -- paths --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Segment:
    """The straight path from `start` to `end` (world m)."""

    start: tuple[float, float, float]
    end: tuple[float, float, float]

    @property
    def length(self) -> float:
        return math.dist(self.start, self.end)

    def at(self, s: float):
        """(point, unit tangent) at arc length s."""
        n = self.length
        u = tuple((e - b) / n for b, e in zip(self.start, self.end)) if n > 0.0 else (0.0, 0.0, 0.0)
        return tuple(b + ui * s for b, ui in zip(self.start, u)), u


@dataclass(frozen=True)
class Arc:
    """The circular arc from `start` through `via` to `end` (world m): its centre, radius, the
    orthonormal basis (e1 toward the start, e2 along the motion at the start) and its angle."""

    centre: tuple[float, float, float]
    radius: float
    e1: tuple[float, float, float]
    e2: tuple[float, float, float]
    angle: float  # rad, from the start to the end (through `via`)
    end: tuple[float, float, float]

    @classmethod
    def through(cls, start, via, end) -> "Arc | None":
        """The arc through three points, or None if they are (nearly) on one line."""
        a = [v - s for v, s in zip(via, start)]
        b = [e - s for e, s in zip(end, start)]
        axb = _cross(a, b)
        n2 = _dot(axb, axb)
        if n2 < 1e-12 * max(_dot(a, a) * _dot(b, b), 1e-30):
            return None
        # circumcentre relative to the start
        t1 = [x * _dot(b, b) for x in _cross(axb, a)]
        t2 = [x * _dot(a, a) for x in _cross(b, axb)]
        rel = [(p + q) / (2.0 * n2) for p, q in zip(t1, t2)]
        centre = tuple(s + r for s, r in zip(start, rel))
        radius = math.sqrt(_dot(rel, rel))
        e1 = tuple(-r / radius for r in rel)  # centre → start
        normal = [x / math.sqrt(n2) for x in axb]  # the plane's normal, turning start → via → end
        e2 = tuple(_cross(normal, e1))

        def angle_of(p):
            d = [pi - ci for pi, ci in zip(p, centre)]
            return math.atan2(_dot(d, e2), _dot(d, e1)) % (2.0 * math.pi)

        angle = angle_of(end)
        return cls(centre, radius, e1, e2, angle if angle > 0.0 else 2.0 * math.pi, tuple(float(e) for e in end))

    @property
    def length(self) -> float:
        return self.radius * self.angle

    def at(self, s: float):
        th = s / self.radius
        c, sn = math.cos(th), math.sin(th)
        point = tuple(ci + self.radius * (c * a + sn * b) for ci, a, b in zip(self.centre, self.e1, self.e2))
        tangent = tuple(-sn * a + c * b for a, b in zip(self.e1, self.e2))
        return point, tangent


def _cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


# -- setpoints ------------------------------------------------------------------------------
@dataclass
class Setpoints:
    """What a move asks the stabilised controller for this frame (world frame, SI)."""

    velocity: tuple[float, float, float] = (0.0, 0.0, 0.0)  # fed forward (x, y); z unused (altitude hold)
    hold_xy: tuple[float, float] | None = None  # the hovering point, or None
    altitude: float = 0.0  # the altitude target
    yaw_rate: float = 0.0  # rad/s, counter-clockwise


@dataclass
class Move:
    """Fly along `path` at `speed` (m/s), ending within ARRIVED_M of its end."""

    path: Segment | Arc
    speed: float
    s: float = 0.0  # the carrot's arc length along the path
    v: float = 0.0  # the carrot's speed
    elapsed: float = 0.0

    @classmethod
    def straight(cls, position, yaw_rad: float, offset_body_m, speed_m_s: float) -> "Move":
        """From `position`, `offset_body_m` away in the heading's frame (x fwd, y left, z up)."""
        d = body_to_world(yaw_rad, offset_body_m)
        start = tuple(float(p) for p in position)
        return cls(Segment(start, tuple(p + di for p, di in zip(start, d))), speed_m_s)

    @classmethod
    def curve(cls, position, yaw_rad: float, via_body_m, end_body_m, speed_m_s: float) -> "Move | None":
        """The arc from `position` through `via` to `end` (heading frame offsets); None if the
        three points are on one line or the radius is outside 0.5–10 m."""
        start = tuple(float(p) for p in position)
        via = tuple(p + d for p, d in zip(start, body_to_world(yaw_rad, via_body_m)))
        end = tuple(p + d for p, d in zip(start, body_to_world(yaw_rad, end_body_m)))
        arc = Arc.through(start, via, end)
        if arc is None or not ARC_MIN_RADIUS_M - 1e-9 <= arc.radius <= ARC_MAX_RADIUS_M + 1e-9:
            return None
        return cls(arc, speed_m_s)

    @property
    def target(self) -> tuple[float, float, float]:
        return self.path.at(self.path.length)[0] if isinstance(self.path, Arc) else self.path.end

    @property
    def planned_s(self) -> float:
        """The carrot's travel time: accelerate, cruise, brake (or a triangle when short)."""
        return planned_duration(self.path.length, self.speed, MOVE_ACCELERATION_M_S2)

    def update(self, dt_s: float) -> Setpoints:
        """Advance the carrot by dt and return the setpoints."""
        self.elapsed += dt_s
        length = self.path.length
        left = max(0.0, length - self.s)
        # the speed from which the carrot can still stop at the end
        v = min(self.speed, self.v + MOVE_ACCELERATION_M_S2 * dt_s, math.sqrt(2.0 * MOVE_ACCELERATION_M_S2 * left))
        self.s = min(length, self.s + 0.5 * (self.v + v) * dt_s)
        self.v = v if self.s < length else 0.0
        point, tangent = self.path.at(self.s)
        velocity = tuple(self.v * t for t in tangent)
        return Setpoints(velocity, (point[0], point[1]), point[2])

    def arrived(self, position, velocity) -> bool:
        return (self.s >= self.path.length and math.dist(position, self.target) < ARRIVED_M
                and math.sqrt(sum(float(v) ** 2 for v in velocity)) < SETTLED_M_S)

    def timed_out(self) -> bool:
        return self.elapsed > self.planned_s + MOVE_TIMEOUT_MARGIN_S


def planned_duration(length_m: float, speed_m_s: float, acceleration_m_s2: float) -> float:
    """Time to cover `length_m` from rest to rest at ≤ speed with ± acceleration."""
    ramp = speed_m_s / acceleration_m_s2  # time to reach the speed
    if acceleration_m_s2 * ramp * ramp >= length_m:  # never reaches it: a triangle
        return 2.0 * math.sqrt(length_m / acceleration_m_s2)
    return length_m / speed_m_s + ramp


@dataclass
class Turn:
    """Turn in place by `angle_rad` (counter-clockwise positive) over the point `hold`."""

    start_yaw: float
    angle_rad: float
    hold: tuple[float, float, float]
    turned: float = 0.0  # the heading change so far, unwrapped
    last_yaw: float | None = None
    elapsed: float = 0.0

    def update(self, yaw_rad: float, dt_s: float) -> Setpoints:
        self.elapsed += dt_s
        if self.last_yaw is None:
            self.last_yaw = self.start_yaw
        self.turned += wrap(yaw_rad - self.last_yaw)
        self.last_yaw = yaw_rad
        left = self.angle_rad - self.turned
        rate = 0.0
        if abs(left) > TURN_RELEASE_RAD:
            rate = math.copysign(min(TURN_RATE_RAD_S, math.sqrt(2.0 * TURN_ACCELERATION_RAD_S2 * abs(left))), left)
        return Setpoints((0.0, 0.0, 0.0), (self.hold[0], self.hold[1]), self.hold[2], rate)

    def arrived(self, yaw_rate_rad_s: float) -> bool:
        return abs(self.angle_rad - self.turned) < TURN_ARRIVED_RAD and abs(yaw_rate_rad_s) < TURN_SETTLED_RAD_S

    def timed_out(self) -> bool:
        return self.elapsed > planned_duration(abs(self.angle_rad), TURN_RATE_RAD_S,
                                               TURN_ACCELERATION_RAD_S2) + MOVE_TIMEOUT_MARGIN_S


@dataclass
class Flip:
    """A flip: `direction` one of l r f b. Phases: "boost" (climb), "over" (turn over under
    the rate controller), "recover" (the stabilised controller levels and stops the drone)."""

    direction: str
    altitude: float  # where to recover, m
    hold_xy: tuple[float, float] = (0.0, 0.0)  # over which point to recover, m
    phase: str = "boost"
    elapsed: float = 0.0
    turned: float = 0.0  # rad about the flip axis
    stick: tuple[float, float] = field(default=(0.0, 0.0))

    def __post_init__(self) -> None:
        self.stick = FLIP_AXES[self.direction]

    def update(self, body_rates, dt_s: float) -> tuple[float, tuple[float, float]]:
        """Advance with the body rates (rad/s); returns (collective, lab stick) while the rate
        law flies ("boost", "over"); the stick is in units of FLIP_RATE_RAD_S."""
        self.elapsed += dt_s
        if self.phase == "boost":
            if self.elapsed >= FLIP_BOOST_S:
                self.phase = "over"
            return FLIP_BOOST_COLLECTIVE, (0.0, 0.0)
        if self.phase == "over":
            self.turned += (body_rates[0] * self.stick[0] + body_rates[1] * self.stick[1]) * dt_s
            if self.turned >= FLIP_RELEASE_RAD:
                self.phase = "recover"
            return FLIP_COLLECTIVE, self.stick
        return 0.0, (0.0, 0.0)

    def recovered(self, tilt_rad: float, velocity) -> bool:
        return (self.phase == "recover" and tilt_rad < FLIP_RECOVERED_TILT_RAD
                and math.sqrt(sum(float(v) ** 2 for v in velocity)) < FLIP_RECOVERED_M_S)

    def timed_out(self) -> bool:
        return self.elapsed > MOVE_TIMEOUT_MARGIN_S
