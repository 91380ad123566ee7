"""Ground sensing and swept-envelope queries: what the assists ask of the level.

Pure functions over a `LevelGeometry` (from `app.resource(ActiveLevel).geometry`), the
drone's position, attitude and guard-inclusive envelope size (the vehicle's
`envelope_size_m`):

- `sense_support(...)` sweeps the envelope straight down from a position and returns the
  first surface it would meet: its height, the distance to it, its normal, which solid it
  is and how much of the envelope's footprint it carries (`coverage`) — what take-off
  (find a support, aim 1.5 m above it) and landing (a flat enough surface under the drone,
  raised or not) need. `Support.flat_enough()` is the landing test.
- `sweep_envelope(...)` moves the envelope (at a fixed attitude) along a segment and returns
  the first solid it would hit — the mission's obstacle monitoring, and the level checks'
  "is the route clear".
- `overlapping(...)` says what the envelope at a place reaches into (a start put inside a
  building is refused with it), and `lift_clear(...)` how high it must be lifted to rest clear
  (a level swapped in under a drone lifts it onto what now holds it).

Both use the numpy broad phase over every solid's bounding box, then exact tests on the few
candidates. Heights are world z in metres; normals are unit vectors out of the surface.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from world.geometry import BoxRow, CylinderRow, Envelope, LevelGeometry, envelope

LEVEL_QUATERNION = (0.0, 0.0, 0.0, 1.0)
TELLO_ENVELOPE_M = (0.1752, 0.1697, 0.041)  # the shipped vehicle's envelope: a default for tools


@dataclass(frozen=True)
class Support:
    """The surface under the drone, found by sweeping its envelope downward."""

    height_m: float  # world z of the surface
    distance_m: float  # from the envelope's lowest point down to the surface (≥ 0)
    normal: tuple[float, float, float]  # unit, world, out of the surface
    id: str  # the solid's id; "" for the ground
    kind: str  # "ground", "pad", "platform", "building", "wall", "obstacle", "pavement", "pole", "tree", "canopy"
    coverage: float  # fraction of the envelope's footprint over this surface, 0..1

    def flat_enough(self, max_slope_deg: float = 5.0, min_coverage: float = 0.9) -> bool:
        """Admissible for a landing: the surface is level within `max_slope_deg` and carries at
        least `min_coverage` of the footprint (not balanced on an edge or a pole's top)."""
        return self.normal[2] >= math.cos(math.radians(max_slope_deg)) and self.coverage >= min_coverage


@dataclass(frozen=True)
class SweepHit:
    """The first solid met by the envelope moving along a segment."""

    fraction: float  # along the segment, 0 (start) .. 1 (end)
    distance_m: float  # from the start to where the envelope's centre meets the solid
    point: tuple[float, float, float]  # envelope centre at contact, world m
    normal: tuple[float, float, float]  # unit, world, out of the solid's surface
    id: str  # the solid's id; "" for the ground
    kind: str


def sense_support(geometry: LevelGeometry, position, quaternion=LEVEL_QUATERNION,
                  size_m=TELLO_ENVELOPE_M, max_distance_m: float = math.inf) -> Support | None:
    """Sweep the envelope down from `position` (its centre, m): the first surface met, or
    None over nothing (the lab world, or nothing within `max_distance_m`).

    A surface counts if its top is at or below the envelope's lowest point (1 mm tolerance:
    a resting drone is on its support) and it lies under any part of the footprint.
    """
    env = envelope(quaternion, size_m)
    ez = env.vertical_half_m
    px, py, pz = (float(c) for c in position)
    bottom = pz - ez
    below = bottom + 1e-3
    best: Support | None = None
    if geometry.ground_z_m is not None and geometry.ground_z_m <= below:
        best = Support(geometry.ground_z_m, max(0.0, bottom - geometry.ground_z_m), (0.0, 0.0, 1.0), "", "ground", 1.0)
    r = env.bounding_radius_m
    boxes, cylinders = geometry.candidates((px - r, py - r), (px + r, py + r), below)
    for b in boxes:
        top = b.cz + b.hz
        if top > below or (best is not None and top <= best.height_m):
            continue
        cov = _box_coverage(b, env, px, py)
        if cov > 0.0:
            best = Support(top, max(0.0, bottom - top), (0.0, 0.0, 1.0), b.id, b.kind, cov)
    for c in cylinders:
        top = c.z1
        if top > below or (best is not None and top <= best.height_m):
            continue
        cov = _cylinder_coverage(c, env, px, py)
        if cov > 0.0:
            best = Support(top, max(0.0, bottom - top), (0.0, 0.0, 1.0), c.id, c.kind, cov)
    if best is not None and best.distance_m > max_distance_m:
        return None
    return best


def _box_coverage(b: BoxRow, env: Envelope, px: float, py: float) -> float:
    c, s = b.c, b.s
    ex = env.extent_along(c, s)
    ey = env.extent_along(-s, c)
    dx, dy = px - b.cx, py - b.cy
    lx, ly = c * dx + s * dy, c * dy - s * dx
    ox = min(lx + ex, b.hx) - max(lx - ex, -b.hx)
    oy = min(ly + ey, b.hy) - max(ly - ey, -b.hy)
    if ox <= 0.0 or oy <= 0.0:
        return 0.0
    return min(1.0, (ox * oy) / (4.0 * ex * ey))


def _cylinder_coverage(c: CylinderRow, env: Envelope, px: float, py: float, n: int = 7) -> float:
    """Fraction of the footprint's points (an n × n grid over its world rectangle) over the disc."""
    ex, ey = env.extent_along(1.0, 0.0), env.extent_along(0.0, 1.0)
    inside = 0
    r2 = c.r * c.r
    for i in range(n):
        x = px - ex + (2 * i + 1) * ex / n - c.x
        for j in range(n):
            y = py - ey + (2 * j + 1) * ey / n - c.y
            if x * x + y * y <= r2:
                inside += 1
    return inside / (n * n)


def sweep_envelope(geometry: LevelGeometry, start, end, quaternion=LEVEL_QUATERNION,
                   size_m=TELLO_ENVELOPE_M, clearance_m: float = 0.0,
                   ignore: tuple[str, ...] = ()) -> SweepHit | None:
    """The first solid (or the ground) the envelope meets moving from `start` to `end`.

    Args:
        start, end: the envelope centre's path, world m.
        quaternion: the attitude held along the way (x, y, z, w).
        size_m: envelope full sizes, m.
        clearance_m: extra margin around the envelope, m (a monitor's safety distance).
        ignore: ids of solids not to report (e.g. the pad the drone stands on).
    Returns None when the path is clear. A start already within `clearance_m` of a solid
    hits at fraction 0 if the path goes closer to it (or the envelope is already inside it);
    a path leaving or running along a surface it starts near is clear.
    """
    env = envelope(quaternion, size_m)
    ez = env.vertical_half_m + clearance_m
    x0, y0, z0 = (float(c) for c in start)
    x1, y1, z1 = (float(c) for c in end)
    dx, dy, dz = x1 - x0, y1 - y0, z1 - z0
    length = math.sqrt(dx * dx + dy * dy + dz * dz)
    best_t = math.inf
    best: tuple | None = None
    gz = geometry.ground_z_m
    if gz is not None and "" not in ignore:
        floor = gz + ez
        if z0 <= floor:
            if dz < 0.0 or z0 < floor - clearance_m:  # going down into the margin, or already in the ground
                best_t, best = 0.0, ((0.0, 0.0, 1.0), "", "ground")
        elif z1 < floor:
            best_t, best = (z0 - floor) / (z0 - z1), ((0.0, 0.0, 1.0), "", "ground")
    r = env.bounding_radius_m + clearance_m
    lo = (min(x0, x1) - r, min(y0, y1) - r, min(z0, z1) - r)
    hi = (max(x0, x1) + r, max(y0, y1) + r, max(z0, z1) + r)
    boxes, cylinders = geometry.candidates_in(lo, hi)
    for solids, sweep in ((boxes, _sweep_box), (cylinders, _sweep_cylinder)):
        for solid in solids:
            if solid.id in ignore:
                continue
            hit = sweep(solid, env, clearance_m, ez, (x0, y0, z0), (dx, dy, dz))
            if hit is not None and hit[0] < best_t:
                best_t, best = hit[0], (hit[1], solid.id, solid.kind)
    if best is None:
        return None
    t = max(0.0, min(1.0, best_t))
    return SweepHit(t, t * length, (x0 + t * dx, y0 + t * dy, z0 + t * dz), best[0], best[1], best[2])


TOUCH_TOLERANCE_M = 0.001  # an envelope this close to a surface (resting on it) touches it, is not in it


def overlapping(geometry: LevelGeometry, position, quaternion=LEVEL_QUATERNION,
                size_m=TELLO_ENVELOPE_M) -> SweepHit | None:
    """The ground or a solid the envelope at `position` reaches into (deeper than
    `TOUCH_TOLERANCE_M`: resting on a top or against a wall is not), or None."""
    inner = tuple(s - 2.0 * TOUCH_TOLERANCE_M for s in size_m)
    return sweep_envelope(geometry, position, position, quaternion, size_m=inner)


def lift_clear(geometry: LevelGeometry, position, quaternion=LEVEL_QUATERNION,
               size_m=TELLO_ENVELOPE_M, max_lifts: int = 16) -> float | None:
    """The height (world z of the envelope's centre) the envelope must be lifted to, straight
    up, to rest clear of the ground and every solid at `position`'s x, y: its own z if it is
    already clear, else the top of what holds it (and of what stands on that: a pad on a roof)
    plus its vertical half-extent. None if `max_lifts` tops are not enough."""
    x, y, z = (float(c) for c in position)
    ez = envelope(quaternion, size_m).vertical_half_m
    for _ in range(max_lifts):
        hit = overlapping(geometry, (x, y, z), quaternion, size_m)
        if hit is None:
            return z
        z = max(z + TOUCH_TOLERANCE_M, _top_of(geometry, hit) + ez)
    return None


def _top_of(geometry: LevelGeometry, hit: SweepHit) -> float:
    """World z of the top of the solid `hit` names (the ground's height for the ground)."""
    if hit.kind == "ground":
        return float(geometry.ground_z_m)
    tops = [b.cz + b.hz for b in geometry.boxes if b.id == hit.id and b.kind == hit.kind]
    tops += [c.z1 for c in geometry.cylinders if c.id == hit.id and c.kind == hit.kind]
    return max(tops)


def _sweep_box(b: BoxRow, env: Envelope, clearance: float, ez: float, p0, d):
    c, s = b.c, b.s
    H = (b.hx + env.extent_along(c, s) + clearance, b.hy + env.extent_along(-s, c) + clearance, b.hz + ez)
    ox, oy = p0[0] - b.cx, p0[1] - b.cy
    l0 = (c * ox + s * oy, c * oy - s * ox, p0[2] - b.cz)
    ld = (c * d[0] + s * d[1], c * d[1] - s * d[0], d[2])
    axes = ((c, s, 0.0), (-s, c, 0.0), (0.0, 0.0, 1.0))
    if all(abs(l0[i]) < H[i] for i in range(3)):
        # starts within the margin: a hit if it goes deeper, or is inside the solid itself
        i = min(range(3), key=lambda k: H[k] - abs(l0[k]))
        sign = 1.0 if l0[i] >= 0.0 else -1.0
        if sign * ld[i] < 0.0 or H[i] - abs(l0[i]) > clearance:
            return 0.0, tuple(sign * a for a in axes[i])
        return None
    t_in, t_out, face, sign = -math.inf, math.inf, -1, 0.0
    for i in range(3):
        if ld[i] == 0.0:
            if abs(l0[i]) >= H[i]:
                return None
            continue
        ta, tb = (-H[i] - l0[i]) / ld[i], (H[i] - l0[i]) / ld[i]
        entry = -1.0 if ld[i] > 0.0 else 1.0
        if ta > tb:
            ta, tb = tb, ta
        if ta > t_in:
            t_in, face, sign = ta, i, entry
        t_out = min(t_out, tb)
    if face < 0 or t_in > t_out or t_in > 1.0 or t_in < 0.0:
        return None
    return t_in, tuple(sign * a for a in axes[face])


def _sweep_cylinder(cyl: CylinderRow, env: Envelope, clearance: float, ez: float, p0, d):
    zlo, zhi = cyl.z0 - ez, cyl.z1 + ez
    x0, y0, z0 = p0[0] - cyl.x, p0[1] - cyl.y, p0[2]
    R = cyl.r + max(env.extent_along(1.0, 0.0), env.extent_along(0.0, 1.0),
                    env.extent_along(math.sqrt(0.5), math.sqrt(0.5)), env.extent_along(math.sqrt(0.5), -math.sqrt(0.5))) + clearance
    inside_r = x0 * x0 + y0 * y0 < R * R
    inside_z = zlo < z0 < zhi
    if inside_r and inside_z:
        # starts within the margin: a hit if it goes deeper, or is inside the solid itself
        d0 = math.hypot(x0, y0)
        if zhi - z0 < R - d0:
            if d[2] < 0.0 or zhi - z0 > clearance:
                return 0.0, (0.0, 0.0, 1.0)
            return None
        n = (x0 / d0, y0 / d0, 0.0) if d0 > 0.0 else (1.0, 0.0, 0.0)
        if n[0] * d[0] + n[1] * d[1] < 0.0 or R - d0 > clearance:
            return 0.0, n
        return None
    # radial interval
    a = d[0] * d[0] + d[1] * d[1]
    if a == 0.0:
        if not inside_r:
            return None
        r_in, r_out = -math.inf, math.inf
    else:
        b = x0 * d[0] + y0 * d[1]
        cc = x0 * x0 + y0 * y0 - R * R
        disc = b * b - a * cc
        if disc < 0.0:
            return None
        sq = math.sqrt(disc)
        r_in, r_out = (-b - sq) / a, (-b + sq) / a
    # vertical interval
    if d[2] == 0.0:
        if not inside_z:
            return None
        z_in, z_out = -math.inf, math.inf
    else:
        za, zb = (zlo - z0) / d[2], (zhi - z0) / d[2]
        z_in, z_out = min(za, zb), max(za, zb)
    t_in, t_out = max(r_in, z_in), min(r_out, z_out)
    if t_in > t_out or t_in > 1.0 or t_in < 0.0:
        return None
    if z_in >= r_in:
        return t_in, ((0.0, 0.0, 1.0) if d[2] < 0.0 else (0.0, 0.0, -1.0))
    hx, hy = x0 + t_in * d[0], y0 + t_in * d[1]
    n = math.hypot(hx, hy) or 1.0
    return t_in, (hx / n, hy / n, 0.0)
