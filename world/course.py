"""Courses: the gates' geometry and their passage — pure, no esper, no pyglet.

A gate (`world.level.CourseGate` in a level file) is a flat opening centred on `centre`:

- `normal`: the direction of passage, `heading_deg` counter-clockwise from +X, raised by
  `tilt_deg` (+ nose up): (cos t cos h, cos t sin h, sin t);
- `across`: the opening's horizontal axis, (−sin h, cos h, 0) — the tilt turns the opening
  about it;
- `up`: the opening's other axis, normal × across = (−sin t cos h, −sin t sin h, cos t).

A point of the gate's plane is inside a rectangle when |across offset| ≤ width/2 and
|up offset| ≤ height/2, inside a ring when its distance to the centre is ≤ radius (edges
included).

**Passage.** Between two ticks the centre of mass moves along the segment p0 → p1. It passes
the gate when the segment goes from the back of the plane (signed distance d0 < 0) to the
plane or its front (d1 ≥ 0) and the point where it meets the plane is inside the opening.
The segment is exact whatever the speed (no sampling: at 96 m/s a 1/240 s tick is a 0.4 m
segment, still one crossing), and the half-open rule (d0 < 0 ≤ d1) counts a segment split at
the plane once, never twice. Going through backwards (d0 > 0 ≥ d1… ) is no passage.
`gate_crossed` returns the fraction of the segment at which it crossed, for a timing to the
sub-tick.

A crossing of the plane outside the opening but within `MISS_MARGIN_M` of it is a **miss**
(`plane_crossing` tells both apart); farther away the plane is not the gate's concern.

`CompiledCourse.of(course)` is a level's course ready to run: its gates, how it starts and
ends, the medal rule (`medal`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple, Sequence

from world.level import Course, CourseGate, Level

#: A crossing of a gate's plane this close outside its opening (m) is a miss of that gate.
MISS_MARGIN_M = 3.0

#: Medals against par: at most par · factor (docs/model.md#courses).
MEDALS = (("gold", 1.0), ("silver", 1.25), ("bronze", 1.5))

Vec = tuple[float, float, float]


class Crossing(NamedTuple):
    """Where a tick's segment crossed a gate's plane forwards."""

    fraction: float  # 0..1 along the segment
    across_m: float  # offset along the opening's horizontal axis
    up_m: float  # offset along its other axis
    inside: bool  # within the opening (edges included)
    outside_by_m: float  # distance outside the opening's edge (0 inside)


@dataclass(frozen=True)
class Gate:
    """A gate's geometry (see the module docstring)."""

    centre: Vec
    normal: Vec
    across: Vec
    up: Vec
    width_m: float = 0.0  # rectangle (0 for a ring)
    height_m: float = 0.0
    radius_m: float = 0.0  # ring (0 for a rectangle)

    @classmethod
    def of(cls, gate: CourseGate) -> "Gate":
        return cls.make(gate.position, gate.heading_deg, gate.tilt_deg, size=gate.size, radius=gate.radius)

    @classmethod
    def make(cls, centre: Sequence[float], heading_deg: float, tilt_deg: float = 0.0, *,
             size: Sequence[float] | None = None, radius: float | None = None) -> "Gate":
        h, t = math.radians(heading_deg), math.radians(tilt_deg)
        ch, sh, ct, st = math.cos(h), math.sin(h), math.cos(t), math.sin(t)
        width, height = (float(size[0]), float(size[1])) if size is not None else (0.0, 0.0)
        return cls(centre=(float(centre[0]), float(centre[1]), float(centre[2])),
                   normal=(ct * ch, ct * sh, st), across=(-sh, ch, 0.0), up=(-st * ch, -st * sh, ct),
                   width_m=width, height_m=height, radius_m=float(radius) if radius is not None else 0.0)

    @property
    def is_ring(self) -> bool:
        return self.radius_m > 0.0

    @property
    def half_extent_m(self) -> float:
        """Distance from the centre to the farthest point of the opening."""
        return self.radius_m if self.is_ring else 0.5 * math.hypot(self.width_m, self.height_m)

    def signed_distance(self, p: Sequence[float]) -> float:
        """Distance of `p` in front of the plane (+ the side the passage goes to)."""
        c, n = self.centre, self.normal
        return (p[0] - c[0]) * n[0] + (p[1] - c[1]) * n[1] + (p[2] - c[2]) * n[2]

    def local(self, p: Sequence[float]) -> tuple[float, float]:
        """(across, up) offsets of `p` from the centre, in the plane's axes."""
        c, a, u = self.centre, self.across, self.up
        d = (p[0] - c[0], p[1] - c[1], p[2] - c[2])
        return (d[0] * a[0] + d[1] * a[1] + d[2] * a[2], d[0] * u[0] + d[1] * u[1] + d[2] * u[2])

    def outside_by(self, across_m: float, up_m: float) -> float:
        """How far (m) the plane point (across, up) lies outside the opening; 0 inside or on its edge."""
        if self.is_ring:
            return max(0.0, math.hypot(across_m, up_m) - self.radius_m)
        dx = max(0.0, abs(across_m) - 0.5 * self.width_m)
        dy = max(0.0, abs(up_m) - 0.5 * self.height_m)
        return math.hypot(dx, dy)

    def contains(self, across_m: float, up_m: float) -> bool:
        if self.is_ring:
            return across_m * across_m + up_m * up_m <= self.radius_m * self.radius_m
        return abs(across_m) <= 0.5 * self.width_m and abs(up_m) <= 0.5 * self.height_m

    def corners(self, segments: int = 24) -> list[Vec]:
        """The opening's outline in world coordinates (4 corners, or `segments` points of a ring)."""
        if self.is_ring:
            pts = [(self.radius_m * math.cos(2 * math.pi * k / segments), self.radius_m * math.sin(2 * math.pi * k / segments))
                   for k in range(segments)]
        else:
            w, h = 0.5 * self.width_m, 0.5 * self.height_m
            pts = [(-w, -h), (w, -h), (w, h), (-w, h)]
        c, a, u = self.centre, self.across, self.up
        return [(c[0] + x * a[0] + y * u[0], c[1] + x * a[1] + y * u[1], c[2] + x * a[2] + y * u[2]) for x, y in pts]


def plane_crossing(gate: Gate, p0: Sequence[float], p1: Sequence[float]) -> Crossing | None:
    """Where the segment p0 → p1 crosses the gate's plane forwards (d0 < 0 ≤ d1), inside the
    opening or not; None if it does not cross it forwards."""
    d0 = gate.signed_distance(p0)
    if not d0 < 0.0:
        return None
    d1 = gate.signed_distance(p1)
    if not d1 >= 0.0:
        return None
    f = d0 / (d0 - d1)  # d0 < 0 ≤ d1: the denominator is < 0, f in (0, 1]
    f = min(1.0, max(0.0, f))
    q = (p0[0] + f * (p1[0] - p0[0]), p0[1] + f * (p1[1] - p0[1]), p0[2] + f * (p1[2] - p0[2]))
    across, up = gate.local(q)
    inside = gate.contains(across, up)
    return Crossing(f, across, up, inside, 0.0 if inside else gate.outside_by(across, up))


def gate_crossed(gate: Gate, p0: Sequence[float], p1: Sequence[float]) -> float | None:
    """The fraction of the tick's segment p0 → p1 at which the centre of mass crossed the
    gate's plane inside its opening in the course's direction; None otherwise."""
    crossing = plane_crossing(gate, p0, p1)
    return crossing.fraction if crossing is not None and crossing.inside else None


def gate_missed(gate: Gate, p0: Sequence[float], p1: Sequence[float]) -> bool:
    """Whether the segment crossed the gate's plane forwards just outside its opening
    (within `MISS_MARGIN_M`)."""
    crossing = plane_crossing(gate, p0, p1)
    return crossing is not None and not crossing.inside and crossing.outside_by_m <= MISS_MARGIN_M


def medal(time_s: float, par_s: float) -> str:
    """"gold" at most par, "silver" at most 1.25 par, "bronze" at most 1.5 par, else "none"."""
    for name, factor in MEDALS:
        if time_s <= par_s * factor:
            return name
    return "none"


def end_pad(end: str) -> str | None:
    """"pad:<id>" → the pad id; "gate" → None."""
    return end[4:] if end.startswith("pad:") else None


@dataclass(frozen=True)
class CompiledCourse:
    """A level's course, ready to run."""

    id: str
    name: str
    par_s: float
    laps: int
    gates: tuple[Gate, ...]
    start_pad: str | None  # None: the timer starts at gate 0
    finish_pad: str | None  # None: the course ends at the last gate of the last lap

    @classmethod
    def of(cls, course: Course) -> "CompiledCourse":
        return cls(id=course.id, name=course.name, par_s=float(course.par_s), laps=int(course.laps),
                   gates=tuple(Gate.of(g) for g in course.gates), start_pad=end_pad(course.start),
                   finish_pad=end_pad(course.finish))

    @property
    def passages(self) -> int:
        """Gates to pass in all: gates × laps."""
        return len(self.gates) * self.laps

    def gate(self, index: int) -> Gate:
        """The gate of passage `index` (0 … passages − 1, counting through the laps)."""
        return self.gates[index % len(self.gates)]


def find_course(level: Level | None, course_id: str) -> Course | None:
    if level is None:
        return None
    return next((c for c in level.courses if c.id == course_id), None)
