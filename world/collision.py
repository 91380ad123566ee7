"""Contacts between the drone's envelope and the level: resting support, friction, impacts.

Once per fixed tick (after the dynamics) `ContactSolver.step` takes the segment the centre
of mass travelled during the tick, from `previous` to `position`, and meets it with every
solid near the drone (`world.geometry`):

- **Swept test.** Each solid, grown by the envelope's extent along the solid's axes, is
  intersected with the whole segment (slab test for boxes, circle/plane test for
  cylinders), so a fast drone meets a thin pole or a wall even if both ends of the segment
  are clear of it: no tunnelling at any speed. The face crossed first gives the normal.
- **Position.** The centre of mass is put back on that face (on the entry face if the
  segment went through): penetration is removed exactly, nothing sinks.
- **Velocity.** The normal velocity is reversed with the level's restitution when the
  impact is faster than `rest_speed_m_s`, and cancelled below it — so a resting drone does
  not jitter. Coulomb friction removes tangential speed up to `friction` × the normal speed
  change (the normal impulse per unit mass).
- **Damage** grows with the impact speed above `safe_impact_m_s` (kept until Restart).
- **Settling.** The solids are upright and their tops flat; resting contact with a support
  levels the envelope over `settle_time_s` rather than balancing it on a corner — contact
  torques are not modelled.

Broad phase: numpy over all solids' bounding boxes, only when the drone leaves the column
(±`margin_m` horizontally, everything below, `margin_m` above) whose candidates are cached,
so a 1 000-box level costs about what an empty one does. The narrow phase runs on plain
floats. There is no altitude floor anywhere in the dynamics: this is the only support.

`step` runs these in order: the ground (`_meet_ground`), the broad phase (`_nearby_solids`),
the swept test and the push back out of boxes and cylinders (`_meet_boxes`,
`_meet_cylinders`), each contact's velocity answer (`_touch` → `respond`), the support under
the footprint (`_sense_support`), and settling (`settle`). It runs for every drone at every
tick, so its parts work on locals and plain floats, and a part is called only when it has
something to do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from world.geometry import BoxRow, CylinderRow, LevelGeometry

TOUCH_M = 1e-4  # closer than this to a surface counts as touching it
SUPPORT_TOLERANCE_M = 1e-3  # a top this close above the envelope's bottom still supports it
_UP = (0.0, 0.0, 1.0)
_NO_SOLIDS = ((), ())  # no candidate boxes, no candidate cylinders


@dataclass(frozen=True)
class ContactParams:
    """How contacts answer, in SI units. Restitution and friction come from the level."""

    rest_speed_m_s: float = 0.3  # slower normal impacts do not bounce
    safe_impact_m_s: float = 2.0  # slower impacts do no damage (a firm landing is ~0.7 m/s)
    destroy_impact_m_s: float = 15.0  # an impact this fast alone brings damage to 1
    settle_time_s: float = 0.05  # time constant of levelling on a support
    spin_friction_time_s: float = 0.1  # time constant of the yaw-rate decay on a support
    support_normal_z: float = 0.7  # a contact normal this close to up is a support (< 45.6°)


def impact_damage(speed_m_s: float, params: ContactParams) -> float:
    """Damage (fraction of a destroyed airframe, 0..1) of one impact at `speed_m_s`.

    Grows with the kinetic energy above the safe speed: (v² − v_safe²)/(v_destroy² − v_safe²).
    """
    safe, destroy = params.safe_impact_m_s, params.destroy_impact_m_s
    if speed_m_s <= safe:
        return 0.0
    return min(1.0, (speed_m_s * speed_m_s - safe * safe) / (destroy * destroy - safe * safe))


class StepResult(NamedTuple):
    """What one tick of contact found (`ContactSolver.result()`)."""

    contact: bool  # touching something after the tick
    normal: tuple[float, float, float]  # of the most upward contact (the support if resting)
    impact_speed_m_s: float  # the fastest normal approach met this tick (0: none)
    resting: bool  # pressed on (or sitting on) an upward surface without bouncing
    support_z_m: float | None  # top of the surface under the envelope, None over nothing
    support_id: str | None  # the solid under the drone ("" for the ground)
    contact_id: str | None  # the solid touched ("" for the ground), None: no contact
    bottom_z_m: float  # the envelope's lowest point


def respond(v: list[float], nx: float, ny: float, nz: float, restitution: float, friction: float,
            rest_speed_m_s: float) -> float:
    """Velocity response to a contact of normal n (unit, out of the surface), in place.

    An approach faster than `rest_speed_m_s` bounces (the normal velocity is reversed and
    scaled by `restitution`); a slower one stops, so a resting drone does not jitter. Then
    Coulomb friction takes up to `friction` × that normal speed change (the normal impulse
    per unit mass) off the tangential velocity. Returns the normal approach speed met (0 if
    the drone was already leaving: then nothing changes).
    """
    vn = v[0] * nx + v[1] * ny + v[2] * nz
    if vn >= 0.0:
        return 0.0
    speed = -vn
    dvn = speed * (1.0 + restitution) if speed > rest_speed_m_s else speed
    v[0] += nx * dvn
    v[1] += ny * dvn
    v[2] += nz * dvn
    vn = v[0] * nx + v[1] * ny + v[2] * nz
    tx, ty, tz = v[0] - vn * nx, v[1] - vn * ny, v[2] - vn * nz
    vt = math.sqrt(tx * tx + ty * ty + tz * tz)
    if vt > 0.0:
        k = min(vt, friction * dvn) / vt
        v[0] -= tx * k
        v[1] -= ty * k
        v[2] -= tz * k
    return speed


class ContactSolver:
    """Resolves the drone's contacts with a level's geometry, tick by tick (pure code).

    After each `step` the solver's attributes say what it found: `contact`, `normal`,
    `impact_speed_m_s`, `resting`, `support_z_m`, `support_id`, `contact_id`, `bottom_z_m`
    (see `StepResult`; `result()` packs them).

    Args:
        geometry: the level's solids (`LevelGeometry.empty()` for the lab world).
        params: contact constants.
        margin_m: half width of the cached broad-phase column, metres.
    """

    def __init__(self, geometry: LevelGeometry, params: ContactParams | None = None, margin_m: float = 2.0) -> None:
        self.params = params or ContactParams()
        self.margin_m = margin_m
        self.broad_phase_queries = 0  # how often the numpy broad phase ran (bench, tests)
        self._size = None
        self._half = (0.0, 0.0, 0.0)
        self._radius = 0.0
        self.contact = False
        self.normal = _UP
        self.impact_speed_m_s = 0.0
        self.resting = False
        self.support_z_m: float | None = None
        self.support_id: str | None = None
        self.contact_id: str | None = None
        self.bottom_z_m = 0.0
        self._best_nz = -2.0  # z of `normal` (below any unit normal's: no contact yet)
        self._pressed = False  # a support-like contact met while not rising
        self.set_geometry(geometry)

    def set_geometry(self, geometry: LevelGeometry) -> None:
        """Fly against new geometry from the next tick on (hot reload)."""
        self.geometry = geometry
        self.has_solids = bool(geometry.boxes or geometry.cylinders)
        self._column: tuple[float, float, float] | None = None  # centre x, y and top z of the cache
        # the cached candidates: each box with its bounding box grown by the envelope's radius
        # (lo x, y, z, hi x, y, z), and the cylinders
        self._candidates: tuple[list[tuple[BoxRow, float, float, float, float, float, float]], list[CylinderRow]] = ([], [])

    def result(self) -> StepResult:
        return StepResult(self.contact, self.normal, self.impact_speed_m_s, self.resting, self.support_z_m,
                          self.support_id, self.contact_id, self.bottom_z_m)

    # -- broad phase -----------------------------------------------------------------------
    def _refresh(self, p0, p1) -> None:
        """Cache the solids near the column around p1 (the drone left the previous one)."""
        m = self.margin_m
        grow = m + self._radius + TOUCH_M
        x, y, z = p1
        self._column = (x, y, z + m)
        g = self.geometry
        bi, ci = g.candidate_indices((x - grow, y - grow), (x + grow, y + grow), z + grow)
        # each candidate box with its bounding box grown by the envelope's radius, as floats
        r = self._radius + 2.0 * TOUCH_M
        lo, hi = (g.box_lo[bi] - r).tolist(), (g.box_hi[bi] + r).tolist()
        self._candidates = ([(g.boxes[i], *l, *h) for i, l, h in zip(bi.tolist(), lo, hi)],
                            [g.cylinders[i] for i in ci.tolist()])
        self.broad_phase_queries += 1

    # -- one tick --------------------------------------------------------------------------
    def step(self, position: list[float], previous, velocity: list[float], quaternion,
             angular_velocity, size_m, dt: float) -> None:
        """Resolve this tick's contacts in place (position, velocity, angular velocity).

        In order: the ground; the solids near the tick's segment (broad phase), boxes then
        cylinders, each met by the swept envelope (narrow phase), which pushes the centre of
        mass out and answers with a bounce and friction; the support under the footprint, from
        the corrected position; and settling, if the drone ends the tick resting.

        Args:
            position: centre of mass after the dynamics tick, m, world (corrected in place).
            previous: centre of mass before the tick, m, world.
            velocity: m/s, world (changed in place).
            quaternion: attitude (x, y, z, w), body → world.
            angular_velocity: rad/s, body (changed in place while settling on a support), or
                None to leave settling to the caller (`settle`, when `resting`).
            size_m: envelope full sizes (body X, Y, Z), m.
            dt: tick length, s.
        """
        if size_m is not self._size and size_m != self._size:
            self._set_size(size_m)
        hx, hy, hz = self._half
        qx, qy, qz, qw = quaternion
        # the envelope's half height, m (centre of mass to its lowest point): the world z of the
        # body axes (third row of the rotation matrix), scaled by the half sizes
        ez = abs(2.0 * (qx * qz - qw * qy)) * hx + abs(2.0 * (qy * qz + qw * qx)) * hy + abs(1.0 - 2.0 * (qx * qx + qy * qy)) * hz
        # what this tick found, so far nothing (`_meet_ground` and `_touch` fill it in)
        self.contact = False
        self.normal = _UP
        self.contact_id = None
        self.impact_speed_m_s = 0.0
        self._best_nz = -2.0
        self._pressed = False

        gz = self.geometry.ground_z_m
        if gz is not None:
            pen = gz + ez - position[2]  # how far the envelope's bottom is below the ground, m
            if pen > -TOUCH_M:
                self._meet_ground(position, velocity, pen)
        boxes, cylinders = self._nearby_solids(previous, position) if self.has_solids else _NO_SOLIDS
        horizontal = None
        if boxes or cylinders:
            # the world x and y of the body axes (the first two rows of the rotation matrix),
            # scaled by the half sizes: what the envelope's horizontal extent is made of
            xx, yy, zz = qx * qx, qy * qy, qz * qz
            horizontal = ((1.0 - 2.0 * (yy + zz)) * hx, 2.0 * (qx * qy + qw * qz) * hx,
                          2.0 * (qx * qy - qw * qz) * hy, (1.0 - 2.0 * (xx + zz)) * hy,
                          2.0 * (qx * qz + qw * qy) * hz, 2.0 * (qy * qz - qw * qx) * hz)
            if boxes:
                self._meet_boxes(boxes, previous, position, velocity, ez, horizontal)
            if cylinders:
                self._meet_cylinders(cylinders, previous, position, velocity, ez, horizontal)
        self._sense_support(position, gz, ez, boxes, cylinders, horizontal)

        params = self.params
        self.resting = resting = (self.contact and self._pressed and self._best_nz >= params.support_normal_z
                                  and self.impact_speed_m_s <= params.rest_speed_m_s)
        if resting and angular_velocity is not None:
            self.settle(quaternion, angular_velocity, dt)

    def _set_size(self, size_m) -> None:
        """A new envelope size (m, full body X, Y, Z): its half sizes and bounding radius."""
        self._size = tuple(size_m)
        self._half = (0.5 * size_m[0], 0.5 * size_m[1], 0.5 * size_m[2])
        self._radius = math.sqrt(sum(h * h for h in self._half))

    def _meet_ground(self, p: list[float], v: list[float], pen: float) -> None:
        """Touching the ground (the envelope's bottom `pen` m below it, or less than `TOUCH_M`
        above): the ground is a half-space, so nothing passes it, whatever the speed.

        The centre of mass is lifted back until the envelope's bottom is on it. A downward
        velocity bounces with the level's restitution (above `rest_speed_m_s`) or stops, and
        friction takes up to `friction` × that normal speed change off the horizontal
        velocity: `respond`, written out for a normal straight up.
        """
        self.contact, self.contact_id, self._best_nz = True, "", 1.0
        if pen > 0.0:
            p[2] += pen
        vz = v[2]
        if vz <= 0.0:
            self._pressed = True
            g = self.geometry
            speed = -vz
            v[2] = g.restitution * speed if speed > self.params.rest_speed_m_s else 0.0
            dvn = speed + v[2]
            vt = math.sqrt(v[0] * v[0] + v[1] * v[1])
            if vt > 0.0:
                k = min(vt, g.friction * dvn) / vt
                v[0] -= v[0] * k
                v[1] -= v[1] * k
            self.impact_speed_m_s = speed

    def _nearby_solids(self, previous, p) -> tuple[list, list[CylinderRow]]:
        """The broad phase: the solids cached for the column the drone is in.

        The column is ±`margin_m` around where the cache was made, horizontally, and reaches
        from below everything to `margin_m` above. Only when the tick's segment leaves it does
        numpy look over every solid again (`_refresh`): a level of 1 000 boxes costs about
        what an empty one does.
        """
        col = self._column
        if col is None:
            self._refresh(previous, p)
        else:
            m = self.margin_m
            x, y, top = col
            if not (-m <= p[0] - x <= m and -m <= p[1] - y <= m and p[2] <= top
                    and -m <= previous[0] - x <= m and -m <= previous[1] - y <= m and previous[2] <= top):
                self._refresh(previous, p)
        return self._candidates

    def _meet_boxes(self, boxes, previous, p: list[float], v: list[float], ez: float, horizontal) -> None:
        """The narrow phase against the candidate boxes, in turn: each, grown by the envelope,
        is met by the segment `previous` → `p` (`_box_face`); the end point is pushed out onto
        the face met, so no penetration is left, and the contact is answered (`_touch`).

        Cheap rejections first (most candidates are clear): the segment's two ends beyond the
        same side of the box's grown bounding box, then of its top, bottom or a side face.
        """
        r00, r10, r01, r11, r02, r12 = horizontal
        # the segment's ends as plain locals (indexing the lists in the loop costs more); the
        # end follows p as faces push it out
        px0, py0, pz0 = previous[0], previous[1], previous[2]
        px1, py1, pz1 = p[0], p[1], p[2]
        for b, lox, loy, loz, hix, hiy, hiz in boxes:
            # both ends outside the same side of the box's grown bounding box: clear
            if ((px0 < lox and px1 < lox) or (px0 > hix and px1 > hix) or (py0 < loy and py1 < loy)
                    or (py0 > hiy and py1 > hiy) or (pz0 < loz and pz1 < loz) or (pz0 > hiz and pz1 > hiz)):
                continue
            cx, cy, cz, bx, by, bz, c, s_, bid, _ = b
            # both ends in the box's frame (turned by its yaw, from its centre)
            dx, dy = px0 - cx, py0 - cy
            x0, y0, z0 = c * dx + s_ * dy, c * dy - s_ * dx, pz0 - cz
            dx, dy = px1 - cx, py1 - cy
            x1, y1, z1 = c * dx + s_ * dy, c * dy - s_ * dx, pz1 - cz
            Hz = bz + ez
            Tz = Hz + TOUCH_M
            if (z0 >= Tz and z1 >= Tz) or (z0 <= -Tz and z1 <= -Tz):
                continue  # both ends above, or both below: clear
            # grown half sizes along the box's axes
            Hx = bx + abs(c * r00 + s_ * r10) + abs(c * r01 + s_ * r11) + abs(c * r02 + s_ * r12)
            Hy = by + abs(c * r10 - s_ * r00) + abs(c * r11 - s_ * r01) + abs(c * r12 - s_ * r02)
            Tx, Ty = Hx + TOUCH_M, Hy + TOUCH_M
            if (x0 >= Tx and x1 >= Tx) or (x0 <= -Tx and x1 <= -Tx) or (y0 >= Ty and y1 >= Ty) or (y0 <= -Ty and y1 <= -Ty):
                continue  # both ends beyond the same side face: clear
            face = _box_face(x0, y0, z0, x1, y1, z1, Hx, Hy, Hz)
            if face is None:
                continue
            axis, sign, corr = face
            # the face's normal, back in world axes
            if axis == 2:
                nx, ny, nz = 0.0, 0.0, sign
            elif axis == 0:
                nx, ny, nz = sign * c, sign * s_, 0.0
            else:
                nx, ny, nz = -sign * s_, sign * c, 0.0
            if corr > 0.0:  # out onto the face
                p[0] += nx * corr
                p[1] += ny * corr
                p[2] += nz * corr
                px1, py1, pz1 = p[0], p[1], p[2]
            self._touch(v, nx, ny, nz, bid)

    def _meet_cylinders(self, cylinders, previous, p: list[float], v: list[float], ez: float, horizontal) -> None:
        """The narrow phase against the candidate cylinders, in turn: each, grown by the
        envelope, is met by the segment `previous` → `p` (`_cylinder_contact`, which also puts
        the end point back on the surface met), and the contact is answered (`_touch`)."""
        for cyl in cylinders:
            hit = _cylinder_contact(cyl, horizontal, ez, previous, p)
            if hit is None:
                continue
            nx, ny, nz, p[0], p[1], p[2] = hit
            self._touch(v, nx, ny, nz, cyl.id)

    def _touch(self, v: list[float], nx: float, ny: float, nz: float, solid_id: str) -> None:
        """A contact of normal n with the solid `solid_id`: note it, then answer it (`respond`).

        The most upward contact of the tick gives `normal` and `contact_id`; a support-like
        normal (`support_normal_z`) met while not rising counts towards resting; the fastest
        approach is the tick's impact speed.
        """
        params = self.params
        self.contact = True
        if nz > self._best_nz:
            self.normal, self._best_nz, self.contact_id = (nx, ny, nz), nz, solid_id
        if nz >= params.support_normal_z and v[2] <= 0.0:
            self._pressed = True
        g = self.geometry
        speed = respond(v, nx, ny, nz, g.restitution, g.friction, params.rest_speed_m_s)
        if speed > self.impact_speed_m_s:
            self.impact_speed_m_s = speed

    def _sense_support(self, p, gz: float | None, ez: float, boxes, cylinders, horizontal) -> None:
        """Ground sensing: the highest top under the envelope's footprint at or below its
        bottom (`SUPPORT_TOLERANCE_M` above counts: a resting drone is on its support) — the
        ground if nothing higher. Sets `support_z_m`, `support_id` and `bottom_z_m`."""
        bottom = p[2] - ez
        support, support_id = (gz, "") if gz is not None else (None, None)
        if boxes or cylinders:
            r00, r10, r01, r11, r02, r12 = horizontal
            below = bottom + SUPPORT_TOLERANCE_M
            px, py = p[0], p[1]
            for b, lox, loy, _, hix, hiy, hiz in boxes:
                if px < lox or px > hix or py < loy or py > hiy:
                    continue  # not under the footprint
                top = b.cz + b.hz
                if top > below or (support is not None and top <= support):
                    continue
                cx, cy, _, bx, by, _, c, s_, bid, _ = b
                dx, dy = px - cx, py - cy
                if (abs(c * dx + s_ * dy) < bx + abs(c * r00 + s_ * r10) + abs(c * r01 + s_ * r11) + abs(c * r02 + s_ * r12)
                        and abs(c * dy - s_ * dx) < by + abs(c * r10 - s_ * r00) + abs(c * r11 - s_ * r01) + abs(c * r12 - s_ * r02)):
                    support, support_id = top, bid
            for cyl in cylinders:
                top = cyl.z1
                if top > below or (support is not None and top <= support):
                    continue
                dx, dy = px - cyl.x, py - cyl.y
                d = math.sqrt(dx * dx + dy * dy)
                if d < cyl.r or (d > 0.0 and d < cyl.r + _extent(horizontal, dx / d, dy / d)):
                    support, support_id = top, cyl.id
        self.support_z_m, self.support_id, self.bottom_z_m = support, support_id, bottom

    def settle(self, quaternion, angular_velocity, dt: float) -> None:
        """Resting on a support: turn towards level, let friction stop the spin (in place)."""
        w_body = angular_velocity
        if w_body[0] != 0.0 or w_body[1] != 0.0 or w_body[2] != 0.0 or abs(quaternion[0]) > 1e-9 or abs(quaternion[1]) > 1e-9:
            _settle(quaternion, w_body, self.params, dt)


def _extent(horizontal, ux: float, uy: float) -> float:
    """Half the envelope's extent along the horizontal unit direction (ux, uy)."""
    r00, r10, r01, r11, r02, r12 = horizontal
    return abs(ux * r00 + uy * r10) + abs(ux * r01 + uy * r11) + abs(ux * r02 + uy * r12)


def _box_face(x0: float, y0: float, z0: float, x1: float, y1: float, z1: float,
              Hx: float, Hy: float, Hz: float) -> tuple[int, float, float] | None:
    """The face of a grown box (half sizes H, box frame) met by the segment l0 → l1.

    Returns (axis, sign, correction): the face's axis (0 x, 1 y, 2 z), its side (±1) and how
    far to move the end point out along the face's normal (0: only touching) — or None.

    A tick that starts on the surface or inside the grown box (resting, sliding, landing, or
    the box grown by a change of attitude) keeps to the face the start is nearest: the end is
    put back on that face's side, never moved across the box to another one.
    """
    ox0, oy0, oz0 = abs(x0) - Hx, abs(y0) - Hy, abs(z0) - Hz
    if ox0 <= 0.0 and oy0 <= 0.0 and oz0 <= 0.0:
        if max(abs(x1) - Hx, abs(y1) - Hy, abs(z1) - Hz) >= TOUCH_M:
            return None  # left the box: clear
        if ox0 >= oy0 and ox0 >= oz0:
            sign = 1.0 if x0 >= 0.0 else -1.0
            return 0, sign, max(0.0, Hx - sign * x1)
        if oy0 >= oz0:
            sign = 1.0 if y0 >= 0.0 else -1.0
            return 1, sign, max(0.0, Hy - sign * y1)
        sign = 1.0 if z0 >= 0.0 else -1.0
        return 2, sign, max(0.0, Hz - sign * z1)
    # the start is outside: slab test for the entry face (its entry time is ≥ 0)
    t_in, t_out, axis, sign, a1_in, h_in = -math.inf, math.inf, -1, 0.0, 0.0, 0.0
    crossing = True
    for k, (a0, a1, h) in enumerate(((x0, x1, Hx), (y0, y1, Hy), (z0, z1, Hz))):
        d = a1 - a0
        if d != 0.0:
            inv = 1.0 / d
            ta, tb = (-h - a0) * inv, (h - a0) * inv
            if d < 0.0:
                ta, tb = tb, ta
            if ta > t_in:
                t_in, axis, sign, a1_in, h_in = ta, k, (-1.0 if d > 0.0 else 1.0), a1, h
            if tb < t_out:
                t_out = tb
        elif a0 >= h or a0 <= -h:
            crossing = False  # parallel to this slab and outside it
            break
    if crossing and axis >= 0 and t_in <= t_out and t_in <= 1.0 and t_out >= 0.0:
        return axis, sign, max(0.0, h_in - sign * a1_in)
    # no crossing: touching if the end point is within TOUCH of the box
    ox, oy, oz = abs(x1) - Hx, abs(y1) - Hy, abs(z1) - Hz
    if max(ox, oy, oz) >= TOUCH_M:
        return None
    if ox >= oy and ox >= oz:
        return 0, (1.0 if x1 > 0.0 else -1.0), 0.0
    if oy >= oz:
        return 1, (1.0 if y1 > 0.0 else -1.0), 0.0
    return 2, (1.0 if z1 > 0.0 else -1.0), 0.0


def _max_extent(horizontal) -> float:
    """The largest half extent of the envelope over all horizontal directions (its footprint's
    circumradius): max over the corners of |±a ± b ± c| of the scaled axes."""
    r00, r10, r01, r11, r02, r12 = horizontal
    best = 0.0
    for s1, s2 in ((1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)):
        x, y = r00 + s1 * r01 + s2 * r02, r10 + s1 * r11 + s2 * r12
        best = max(best, x * x + y * y)
    return math.sqrt(best)


_SIDE_SAMPLES = 24  # samples of the segment within the outer circle when looking for the side entry


def _cylinder_contact(cyl: CylinderRow, horizontal, ez: float, p0, p1):
    """Meet the segment p0 → p1 with a vertical cylinder grown by the envelope.

    The grown cylinder is, in each horizontal direction u from its axis, r + the envelope's
    extent along u (a tilted or turned drone is wider one way than another); vertically it is
    grown by the envelope's half height `ez`.

    Returns (nx, ny, nz, x, y, z): the normal and the corrected end point; None when clear.
    """
    cx, cy, r, zb, zt, _, _ = cyl
    zlo, zhi = zb - ez, zt + ez
    z0, z1 = p0[2], p1[2]
    if (z0 >= zhi + TOUCH_M and z1 >= zhi + TOUCH_M) or (z0 <= zlo - TOUCH_M and z1 <= zlo - TOUCH_M):
        return None
    x0, y0 = p0[0] - cx, p0[1] - cy
    x1, y1 = p1[0] - cx, p1[1] - cy
    dx, dy = x1 - x0, y1 - y0
    dd = dx * dx + dy * dy
    # quick rejection against the widest the grown cylinder can be
    r_max = r + _max_extent(horizontal)
    t = 0.0 if dd == 0.0 else min(1.0, max(0.0, -(x0 * dx + y0 * dy) / dd))
    if math.hypot(x0 + t * dx, y0 + t * dy) >= r_max + TOUCH_M:
        return None
    d0, d1 = math.hypot(x0, y0), math.hypot(x1, y1)
    R0 = _grown_radius(r, horizontal, x0, y0, d0)
    R1 = _grown_radius(r, horizontal, x1, y1, d1)
    end_inside = d1 < R1 and zlo < z1 < zhi

    if d0 <= R0 and zlo <= z0 <= zhi:
        # started on the surface or inside: keep to the face the start is nearest
        if not end_inside:
            return _touching(x1, y1, d1, R1, z1, zlo, zhi, p1)
        top, bottom, side = zhi - z0, z0 - zlo, R0 - d0
        if top <= bottom and top <= side:
            return 0.0, 0.0, 1.0, p1[0], p1[1], zhi
        if bottom <= side:
            return 0.0, 0.0, -1.0, p1[0], p1[1], zlo
        nx, ny = (x1 / d1, y1 / d1) if d1 > 1e-9 else ((x0 / d0, y0 / d0) if d0 > 1e-9 else (1.0, 0.0))
        R = r + _extent(horizontal, nx, ny)
        return nx, ny, 0.0, cx + nx * R, cy + ny * R, z1

    # started outside: the earliest entry through the top, the bottom or the side
    best_t, hit = math.inf, None
    if z0 >= zhi and z1 < zhi:
        s = (z0 - zhi) / (z0 - z1)
        hx, hy = x0 + s * dx, y0 + s * dy
        dh = math.hypot(hx, hy)
        if dh < _grown_radius(r, horizontal, hx, hy, dh):
            best_t, hit = s, (0.0, 0.0, 1.0, p1[0], p1[1], zhi)
    elif z0 <= zlo and z1 > zlo:
        s = (zlo - z0) / (z1 - z0)
        hx, hy = x0 + s * dx, y0 + s * dy
        dh = math.hypot(hx, hy)
        if dh < _grown_radius(r, horizontal, hx, hy, dh):
            best_t, hit = s, (0.0, 0.0, -1.0, p1[0], p1[1], zlo)
    te = _side_entry(r, horizontal, r_max, x0, y0, z0, dx, dy, z1 - z0, dd, zlo, zhi)
    if te is not None and te < best_t:
        ex, ey = x0 + te * dx, y0 + te * dy
        n = math.hypot(ex, ey) or 1.0
        nx, ny = ex / n, ey / n
        R = r + _extent(horizontal, nx, ny)
        hit = nx, ny, 0.0, cx + nx * R, cy + ny * R, z1
    if hit is not None:
        return hit
    return _touching(x1, y1, d1, R1, z1, zlo, zhi, p1)


def _grown_radius(r: float, horizontal, x: float, y: float, d: float) -> float:
    """The grown cylinder's radius in the direction of (x, y) from its axis (d = its length)."""
    if d <= 1e-12:
        return r + _max_extent(horizontal)
    return r + _extent(horizontal, x / d, y / d)


def _touching(x1, y1, d1, R1, z1, zlo, zhi, p1):
    """A resting touch of the side (no correction), or None."""
    if d1 < R1 + TOUCH_M and d1 > 1e-9 and zlo < z1 < zhi:
        return x1 / d1, y1 / d1, 0.0, p1[0], p1[1], z1
    return None


def _side_entry(r, horizontal, r_max, x0, y0, z0, dx, dy, dz, dd, zlo, zhi) -> float | None:
    """First time t in [0, 1] at which the segment is inside the grown cylinder's side, or None.

    The grown radius depends on the direction, so the entry is found on the part of the
    segment inside the widest circle: sampled, then refined by bisection.
    """
    if dd == 0.0:
        return None
    b = x0 * dx + y0 * dy
    c = x0 * x0 + y0 * y0 - r_max * r_max
    disc = b * b - dd * c
    if disc <= 0.0:
        return None
    root = math.sqrt(disc)
    ta, tb = max(0.0, (-b - root) / dd), min(1.0, (-b + root) / dd)
    if ta > tb:
        return None

    def inside(t: float) -> bool:
        z = z0 + t * dz
        if not zlo < z < zhi:
            return False
        x, y = x0 + t * dx, y0 + t * dy
        d = math.hypot(x, y)
        return d < _grown_radius(r, horizontal, x, y, d)

    previous = ta
    if inside(ta):
        return ta
    for i in range(1, _SIDE_SAMPLES + 1):
        t = ta + (tb - ta) * i / _SIDE_SAMPLES
        if inside(t):
            lo, hi = previous, t
            for _ in range(30):
                mid = 0.5 * (lo + hi)
                if inside(mid):
                    hi = mid
                else:
                    lo = mid
            return hi
        previous = t
    return None


def _settle(q, w_body: list[float], params: ContactParams, dt: float) -> None:
    """On a support: turn the body towards level and let friction stop its spin (in place)."""
    x, y, z, w = q
    # body → world rotation matrix
    r00, r01, r02 = 1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)
    r10, r11, r12 = 2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)
    r20, r21, r22 = 2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)
    bx, by, bz = w_body
    wz = r20 * bx + r21 * by + r22 * bz  # world yaw rate
    k = 1.0 / params.settle_time_s
    # body up is the third column (r02, r12, r22); up × ẑ turns it towards ẑ
    wx_w, wy_w = r12 * k, -r02 * k
    wz_w = wz * max(0.0, 1.0 - dt / params.spin_friction_time_s)
    w_body[0] = r00 * wx_w + r10 * wy_w + r20 * wz_w
    w_body[1] = r01 * wx_w + r11 * wy_w + r21 * wz_w
    w_body[2] = r02 * wx_w + r12 * wy_w + r22 * wz_w
