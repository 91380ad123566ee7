"""Contacts between the drones' envelopes and the level, and between drones: resting support,
friction, impacts.

Once per fixed tick (after the dynamics) `resolve_level_contacts` takes, for every drone, the
segment its centre of mass travelled during the tick, from its previous position to its
position, and meets it with every solid near it (`world.geometry`):

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
- **Damage** grows with the impact speed above `safe_impact_m_s` (`impact_damage`; the
  caller keeps it until Restart).
- **Settling.** The solids are upright and their tops flat; resting contact with a support
  levels the envelope over `settle_time_s` rather than balancing it on a corner — contact
  torques are not modelled.

The per-drone steps, in order, each a function of this module: the ground (`_meet_ground`),
the broad phase (`_nearby_solids`: the cells of the level's grid the tick's path covers —
one query per drone, in the same compiled call as everything else, so a level of 1 000
boxes costs about what an empty one does), the swept test and the push back out of boxes
and cylinders (`_meet_box` with `_box_face`, `_cylinder_contact`), each contact's velocity
answer (`respond`), the support under the footprint (`_sense_support`), and settling
(`_settle`). There is no altitude floor anywhere in the dynamics: this is the only support.

**Many drones, one call.** The drones' numbers are rows of one 2-D float64 array, the *fleet
block*: in each row the BODY table (components/layout.py) starts at a column the caller
names, the envelope's full sizes (body X, Y, Z, m) at another, the mass at another, and the
results (`CONTACT`, `NORMAL`, …, `CONTACT_WIDTH` columns, below) at another. One compiled
call per tick resolves every drone listed in `rows` against the level
(`resolve_level_contacts`), then a second one every pair of them (`resolve_drone_contacts`:
the drones of one block meet each other). Both return how many rows have `EVENTS` ≠ 0, so
the caller looks only at those. The level comes as one array (`pack_geometry`, once per
geometry) and the constants as another (`ContactParams.packed()`): numba's dispatch costs
per argument, every tick. Solid numbers are boxes 0..B−1 then cylinders
(`LevelGeometry.solid_ids` names them); −1 is the ground (`GROUND`) and −2 nothing
(`NOTHING`).

**Drone against drone.** Each pair's guard envelopes are met on their relative motion over
the tick (both segments, previous → position): the second drone's envelope grown by the
first's, and the first's relative segment through it — the swept test above, so nothing
passes through another drone at any closing speed. Each envelope is bounded by its
world-axis-aligned box (per world axis the sum of the |components| of its three half-axis
vectors): exact when level, slightly conservative when tilted or turned. At contact both are
put back to touching, the lighter moving more (inverse masses); they exchange a normal
impulse with `drone_restitution` (0.3: the two guards' thin plastic hoops flex, and unlike a
wall each gives some of it back — a little livelier than the 0.2 of a drone against a
building, far below the ~0.6 of solid plastic) and Coulomb friction (`drone_friction`, dry
plastic on plastic), equal and opposite, so momentum is conserved. A drone resting on a
support (`RESTING`) is not pushed or sped towards it: the support takes the push, so a drone
landing on a grounded one stays on its top (held by that flat top; friction takes its
sideways speed at μ g, and it slides off the edge only if that speed carries it there). A
push can leave a drone that was not resting slightly inside a solid: the next tick's level
contacts put it back out. The downwash of one drone on another is not modelled.

`ContactSolver` is the one-drone wrapper (a one-row block) the tools and tests use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from components.layout import (
    ANGULAR_VELOCITY, BODY_SIZE, BOTTOM_Z, CONTACT, CONTACT_SOLID, CONTACTS_SIZE, DRONE_IMPACT_SPEED, DRONE_NORMAL, EVENTS,
    IMPACT_SPEED, NORMAL, OTHER_ROW, POSITION, PREVIOUS_POSITION, QUATERNION, RESTING, SUPPORT, SUPPORT_Z, VELOCITY,
)
from flight.jit import njit
from world.geometry import LevelGeometry

TOUCH_M = 1e-4  # closer than this to a surface counts as touching it
SUPPORT_TOLERANCE_M = 1e-3  # a top this close above the envelope's bottom still supports it
BROAD_MARGIN_M = 0.5  # the broad phase's query reaches this far beyond the envelope's path
_UP = (0.0, 0.0, 1.0)
_SIDE_SAMPLES = 24  # samples of the segment within the outer circle when looking for the side entry

# -- the result columns, from the caller's out_col: components/layout.py CONTACTS (Collider.results)
CONTACT_WIDTH = CONTACTS_SIZE

GROUND = -1  # the solid number of the ground
NOTHING = -2  # no solid
IMPACT_EVENT = 1  # a level impact faster than rest_speed_m_s this tick
TOUCHDOWN_EVENT = 2  # resting began this tick (the RESTING column was 0 before it)
DRONE_IMPACT_EVENT = 4  # a drone-drone impact faster than rest_speed_m_s this tick

# -- the packed geometry (`pack_geometry`): header slots, then the sections in this order ---------
GEO_GROUND_Z = 0  # m; nan: no ground
GEO_RESTITUTION = 1
GEO_FRICTION = 2
GEO_BOXES = 3  # B, the number of boxes (solids 0 .. B-1)
GEO_CYLINDERS = 4  # C, the number of cylinders (solids B .. B+C-1)
GEO_CELL = 5  # the grid's cell side, m
GEO_X0 = 6  # the grid's west edge, m
GEO_Y0 = 7  # the grid's south edge, m
GEO_NX = 8  # cells along x
GEO_NY = 9  # cells along y
GEO_HEADER = 10
BOX_WIDTH = 8  # cx, cy, cz, hx, hy, hz, cos yaw, sin yaw
CYLINDER_WIDTH = 5  # x, y, r, z0, z1
AABB_WIDTH = 6  # lo x, y, z, hi x, y, z

# -- the parameter array (`ContactParams.packed()`) --------------------------------------------
P_REST_SPEED = 0
P_SETTLE_TIME = 1
P_SPIN_FRICTION_TIME = 2
P_SUPPORT_NORMAL_Z = 3
P_DRONE_RESTITUTION = 4
P_DRONE_FRICTION = 5
PARAMS_SIZE = 6


@dataclass(frozen=True)
class ContactParams:
    """How contacts answer, in SI units. Restitution and friction against the level come from
    the level; between drones from here."""

    rest_speed_m_s: float = 0.3  # slower normal impacts do not bounce
    safe_impact_m_s: float = 2.0  # slower impacts do no damage (a firm landing is ~0.7 m/s)
    destroy_impact_m_s: float = 15.0  # an impact this fast alone brings damage to 1
    settle_time_s: float = 0.05  # time constant of levelling on a support
    spin_friction_time_s: float = 0.1  # time constant of the yaw-rate decay on a support
    support_normal_z: float = 0.7  # a contact normal this close to up is a support (< 45.6°)
    drone_restitution: float = 0.3  # guard against guard (see the module's docstring)
    drone_friction: float = 0.3  # guard against guard: dry plastic on plastic

    def packed(self) -> np.ndarray:
        """The float64 array the compiled contacts read (`P_*` slots)."""
        array = np.empty(PARAMS_SIZE)
        array[P_REST_SPEED] = self.rest_speed_m_s
        array[P_SETTLE_TIME] = self.settle_time_s
        array[P_SPIN_FRICTION_TIME] = self.spin_friction_time_s
        array[P_SUPPORT_NORMAL_Z] = self.support_normal_z
        array[P_DRONE_RESTITUTION] = self.drone_restitution
        array[P_DRONE_FRICTION] = self.drone_friction
        return array


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


def pack_geometry(geometry: LevelGeometry) -> np.ndarray:
    """The level's geometry as ONE read-only float64 array, what the compiled contacts read
    (numba's dispatch costs per argument, every tick): the header (`GEO_*` slots), the boxes
    (`BOX_WIDTH` floats each: centre, half sizes, cos and sin of the yaw), the cylinders
    (`CYLINDER_WIDTH`: axis x, y, radius, bottom and top z), every solid's world bounding box
    (`AABB_WIDTH`), the grid's cell starts and its solid numbers (`LevelGeometry.grid_*`).
    Pack once per geometry (at load, at a hot reload), not per tick."""
    g = geometry
    b, c = len(g.boxes), len(g.cylinders)
    nx, ny = g.grid_shape
    box_at, cylinder_at, aabb_at, start_at, index_at = geo_sections(b, c, nx * ny)
    packed = np.empty(index_at + len(g.grid_solids))
    packed[:GEO_HEADER] = (math.nan if g.ground_z_m is None else g.ground_z_m, g.restitution, g.friction, b, c,
                           g.grid_cell_m, g.grid_origin[0], g.grid_origin[1], nx, ny)
    packed[box_at:cylinder_at] = g.box_array[:, :BOX_WIDTH].ravel()
    packed[cylinder_at:aabb_at] = g.cylinder_array[:, :CYLINDER_WIDTH].ravel()
    packed[aabb_at:start_at] = np.hstack([np.vstack([g.box_lo, g.cyl_lo]), np.vstack([g.box_hi, g.cyl_hi])]).ravel()
    packed[start_at:index_at] = g.grid_start
    packed[index_at:] = g.grid_solids
    packed.flags.writeable = False
    return packed


@njit
def geo_sections(boxes, cylinders, cells):
    """Where the sections of a packed geometry start: boxes, cylinders, bounding boxes, cell
    starts (`cells` + 1 of them), solid numbers."""
    box_at = GEO_HEADER
    cylinder_at = box_at + BOX_WIDTH * boxes
    aabb_at = cylinder_at + CYLINDER_WIDTH * cylinders
    start_at = aabb_at + AABB_WIDTH * (boxes + cylinders)
    return box_at, cylinder_at, aabb_at, start_at, start_at + cells + 1


# == compiled: the level ========================================================================
@njit
def resolve_level_contacts(block, rows, body_col, size_col, out_col, geometry, params, dt):
    """Resolve this tick's level contacts of the drones `rows` of `block`, in place.

    Args:
        block: the fleet block, float64 (drones × columns), C-contiguous.
        rows: int64 row numbers of the drones to resolve.
        body_col: the column where each row's BODY table starts: its position, velocity
            (corrected in place on contact), quaternion, angular velocity (settled in place
            while resting) and previous position (the tick's start).
        size_col: the column of the envelope's full sizes (body X, Y, Z), m.
        out_col: the column of the results (`CONTACT` … `CONTACT_WIDTH`); the drone-drone
            columns are cleared (`resolve_drone_contacts` fills them next).
        geometry: `pack_geometry(level geometry)`.
        params: `ContactParams.packed()`.
        dt: tick length, s.
    Returns:
        how many rows have EVENTS ≠ 0.
    """
    boxes, cylinders = int(geometry[GEO_BOXES]), int(geometry[GEO_CYLINDERS])
    sections = geo_sections(boxes, cylinders, int(geometry[GEO_NX]) * int(geometry[GEO_NY]))
    candidates = np.empty(max(boxes + cylinders, 1), np.int64)
    flagged = 0
    for k in range(rows.shape[0]):
        if _resolve_row(block, rows[k], body_col, size_col, out_col, geometry, sections, params, dt, candidates) != 0:
            flagged += 1
    return flagged


@njit
def _resolve_row(block, r, bc, sc, oc, geo, sections, params, dt, candidates):
    """One drone's tick against the level (see `resolve_level_contacts`); returns its EVENTS."""
    px, py, pz = block[r, bc + POSITION], block[r, bc + POSITION + 1], block[r, bc + POSITION + 2]
    vx, vy, vz = block[r, bc + VELOCITY], block[r, bc + VELOCITY + 1], block[r, bc + VELOCITY + 2]
    qx, qy, qz, qw = (block[r, bc + QUATERNION], block[r, bc + QUATERNION + 1], block[r, bc + QUATERNION + 2],
                      block[r, bc + QUATERNION + 3])
    ax, ay, az = (block[r, bc + PREVIOUS_POSITION], block[r, bc + PREVIOUS_POSITION + 1],
                  block[r, bc + PREVIOUS_POSITION + 2])
    hx, hy, hz = 0.5 * block[r, sc], 0.5 * block[r, sc + 1], 0.5 * block[r, sc + 2]
    rest_speed = params[P_REST_SPEED]
    # the envelope's half height, m (centre of mass to its lowest point): the world z of the
    # body axes (third row of the rotation matrix), scaled by the half sizes
    ez = (abs(2.0 * (qx * qz - qw * qy)) * hx + abs(2.0 * (qy * qz + qw * qx)) * hy
          + abs(1.0 - 2.0 * (qx * qx + qy * qy)) * hz)
    # what this tick found, so far nothing
    contact = False
    nx, ny, nz = 0.0, 0.0, 1.0
    best_nz = -2.0  # z of the normal (below any unit normal's: no contact yet)
    contact_solid = NOTHING
    impact = 0.0
    pressed = False  # a support-like contact met while not rising

    gz = geo[GEO_GROUND_Z]
    ground = not math.isnan(gz)
    if ground:
        pen = gz + ez - pz  # how far the envelope's bottom is below the ground, m
        if pen > -TOUCH_M:
            pz, vx, vy, vz, pressed, impact = _meet_ground(pz, vx, vy, vz, pen, geo[GEO_RESTITUTION],
                                                           geo[GEO_FRICTION], rest_speed)
            contact, contact_solid, best_nz = True, GROUND, 1.0
    # the boxes' bounding boxes are grown by the envelope's bounding radius (and twice TOUCH)
    grown = math.sqrt(hx * hx + hy * hy + hz * hz) + 2.0 * TOUCH_M
    boxes = int(geo[GEO_BOXES])
    count = 0
    r00 = r10 = r01 = r11 = r02 = r12 = 0.0
    if boxes + int(geo[GEO_CYLINDERS]) > 0:
        grow = grown + BROAD_MARGIN_M
        count = _nearby_solids(geo, sections, min(ax, px) - grow, min(ay, py) - grow, max(ax, px) + grow,
                               max(ay, py) + grow, max(az, pz) + grow, candidates)
    if count > 0:
        # the world x and y of the body axes (the first two rows of the rotation matrix),
        # scaled by the half sizes: what the envelope's horizontal extent is made of
        xx, yy, zz = qx * qx, qy * qy, qz * qz
        r00, r10 = (1.0 - 2.0 * (yy + zz)) * hx, 2.0 * (qx * qy + qw * qz) * hx
        r01, r11 = 2.0 * (qx * qy - qw * qz) * hy, (1.0 - 2.0 * (xx + zz)) * hy
        r02, r12 = 2.0 * (qx * qz + qw * qy) * hz, 2.0 * (qy * qz - qw * qx) * hz
        horizontal = (r00, r10, r01, r11, r02, r12)
        restitution, friction = geo[GEO_RESTITUTION], geo[GEO_FRICTION]
        support_nz = params[P_SUPPORT_NORMAL_Z]
        for k in range(count):
            s = candidates[k]
            if s < boxes:
                hit, mx, my, mz, px, py, pz = _meet_box(geo, sections, s, grown, horizontal, ez, ax, ay, az, px, py, pz)
            else:
                hit, mx, my, mz, px, py, pz = _cylinder_contact(geo, sections, s - boxes, horizontal, ez, ax, ay, az,
                                                                px, py, pz)
            if hit:  # note the contact, then answer it: the most upward gives the normal
                contact = True
                if mz > best_nz:
                    nx, ny, nz, best_nz, contact_solid = mx, my, mz, mz, s
                if mz >= support_nz and vz <= 0.0:
                    pressed = True
                vx, vy, vz, speed = respond(vx, vy, vz, mx, my, mz, restitution, friction, rest_speed)
                if speed > impact:
                    impact = speed
    support_z, support, bottom = _sense_support(geo, sections, candidates, count, px, py, pz, ez, grown, ground, gz,
                                                (r00, r10, r01, r11, r02, r12))
    resting = contact and pressed and best_nz >= params[P_SUPPORT_NORMAL_Z] and impact <= rest_speed
    if resting:
        wx, wy, wz = (block[r, bc + ANGULAR_VELOCITY], block[r, bc + ANGULAR_VELOCITY + 1],
                      block[r, bc + ANGULAR_VELOCITY + 2])
        if wx != 0.0 or wy != 0.0 or wz != 0.0 or abs(qx) > 1e-9 or abs(qy) > 1e-9:
            wx, wy, wz = _settle(qx, qy, qz, qw, wx, wy, wz, params[P_SETTLE_TIME], params[P_SPIN_FRICTION_TIME], dt)
            block[r, bc + ANGULAR_VELOCITY] = wx
            block[r, bc + ANGULAR_VELOCITY + 1] = wy
            block[r, bc + ANGULAR_VELOCITY + 2] = wz
    if contact:  # only a contact moves or slows the body
        block[r, bc + POSITION] = px
        block[r, bc + POSITION + 1] = py
        block[r, bc + POSITION + 2] = pz
        block[r, bc + VELOCITY] = vx
        block[r, bc + VELOCITY + 1] = vy
        block[r, bc + VELOCITY + 2] = vz
    events = 0
    if impact > rest_speed:
        events |= IMPACT_EVENT
    if resting and block[r, oc + RESTING] == 0.0:
        events |= TOUCHDOWN_EVENT
    block[r, oc + CONTACT] = 1.0 if contact else 0.0
    block[r, oc + NORMAL] = nx
    block[r, oc + NORMAL + 1] = ny
    block[r, oc + NORMAL + 2] = nz
    block[r, oc + IMPACT_SPEED] = impact
    block[r, oc + RESTING] = 1.0 if resting else 0.0
    block[r, oc + SUPPORT_Z] = support_z
    block[r, oc + SUPPORT] = support
    block[r, oc + CONTACT_SOLID] = contact_solid
    block[r, oc + BOTTOM_Z] = bottom
    block[r, oc + EVENTS] = events
    block[r, oc + DRONE_IMPACT_SPEED] = 0.0
    block[r, oc + OTHER_ROW] = -1.0
    block[r, oc + DRONE_NORMAL] = 0.0
    block[r, oc + DRONE_NORMAL + 1] = 0.0
    block[r, oc + DRONE_NORMAL + 2] = 0.0
    return events


@njit
def _meet_ground(pz, vx, vy, vz, pen, restitution, friction, rest_speed):
    """Touching the ground (the envelope's bottom `pen` m below it, or less than `TOUCH_M`
    above): the ground is a half-space, so nothing passes it, whatever the speed.

    The centre of mass is lifted back until the envelope's bottom is on it. A downward
    velocity bounces with the level's restitution (above `rest_speed`) or stops, and friction
    takes up to `friction` × that normal speed change off the horizontal velocity: `respond`,
    written out for a normal straight up. Returns z, the velocity, pressed, the impact speed.
    """
    if pen > 0.0:
        pz += pen
    pressed = False
    impact = 0.0
    if vz <= 0.0:
        pressed = True
        speed = -vz
        vz = restitution * speed if speed > rest_speed else 0.0
        dvn = speed + vz
        vt = math.sqrt(vx * vx + vy * vy)
        if vt > 0.0:
            k = min(vt, friction * dvn) / vt
            vx -= vx * k
            vy -= vy * k
        impact = speed
    return pz, vx, vy, vz, pressed, impact


@njit
def _cell_range(lo, hi, origin, cell, cells):
    """The first and last cell (clamped to the grid) a span [lo, hi] of one axis covers."""
    first = min(max(math.floor((lo - origin) / cell), 0.0), cells - 1.0)
    last = min(max(math.floor((hi - origin) / cell), 0.0), cells - 1.0)
    return int(first), int(last)


@njit
def _nearby_solids(geo, sections, lox, loy, hix, hiy, top, out):
    """The broad phase: the solids whose bounding box meets [lox, hix] × [loy, hiy] × (−∞, top],
    found through the cells of the level's grid that rectangle covers. Writes their numbers
    into `out`, ascending (boxes, then cylinders, in the level's order), returns how many.

    A solid spanning several cells is looked at in one only: the first the query and the solid
    share, so nothing is counted twice.
    """
    nx, ny, cell, x0, y0 = int(geo[GEO_NX]), int(geo[GEO_NY]), geo[GEO_CELL], geo[GEO_X0], geo[GEO_Y0]
    if not (lox <= hix and loy <= hiy):  # (a nan position meets nothing)
        return 0
    if hix < x0 or hiy < y0 or lox > x0 + nx * cell or loy > y0 + ny * cell:
        return 0
    _, _, aabb_at, start_at, index_at = sections
    cx0, cx1 = _cell_range(lox, hix, x0, cell, nx)
    cy0, cy1 = _cell_range(loy, hiy, y0, cell, ny)
    count = 0
    for iy in range(cy0, cy1 + 1):
        for ix in range(cx0, cx1 + 1):
            c = iy * nx + ix
            for e in range(int(geo[start_at + c]), int(geo[start_at + c + 1])):
                s = int(geo[index_at + e])
                a = aabb_at + AABB_WIDTH * s
                slox, sloy, sloz, shix, shiy = geo[a], geo[a + 1], geo[a + 2], geo[a + 3], geo[a + 4]
                if slox > hix or shix < lox or sloy > hiy or shiy < loy or sloz > top:
                    continue
                sx0, _ = _cell_range(slox, shix, x0, cell, nx)
                sy0, _ = _cell_range(sloy, shiy, y0, cell, ny)
                if max(sx0, cx0) != ix or max(sy0, cy0) != iy:
                    continue  # met in another cell of the query
                # insert in order (a handful of candidates: insertion is the cheapest sort)
                j = count
                while j > 0 and out[j - 1] > s:
                    out[j] = out[j - 1]
                    j -= 1
                out[j] = s
                count += 1
    return count


@njit
def _meet_box(geo, sections, s, grown, horizontal, ez, ax, ay, az, px, py, pz):
    """The narrow phase against box `s`, grown by the envelope: met by the segment a → p
    (`_box_face`); the end point is pushed out onto the face met, so no penetration is left.
    Returns (hit, the face's normal, the end point).

    Cheap rejections first (most candidates are clear): the segment's two ends beyond the
    same side of the box's grown bounding box, then of its top, bottom or a side face.
    """
    box_at, _, aabb_at, _, _ = sections
    a = aabb_at + AABB_WIDTH * s
    lox, loy, loz = geo[a] - grown, geo[a + 1] - grown, geo[a + 2] - grown
    hix, hiy, hiz = geo[a + 3] + grown, geo[a + 4] + grown, geo[a + 5] + grown
    if ((ax < lox and px < lox) or (ax > hix and px > hix) or (ay < loy and py < loy)
            or (ay > hiy and py > hiy) or (az < loz and pz < loz) or (az > hiz and pz > hiz)):
        return False, 0.0, 0.0, 0.0, px, py, pz
    b = box_at + BOX_WIDTH * s
    cx, cy, cz, bx, by, bz, c, s_ = geo[b], geo[b + 1], geo[b + 2], geo[b + 3], geo[b + 4], geo[b + 5], geo[b + 6], geo[b + 7]
    # both ends in the box's frame (turned by its yaw, from its centre)
    dx, dy = ax - cx, ay - cy
    x0, y0, z0 = c * dx + s_ * dy, c * dy - s_ * dx, az - cz
    dx, dy = px - cx, py - cy
    x1, y1, z1 = c * dx + s_ * dy, c * dy - s_ * dx, pz - cz
    Hz = bz + ez
    Tz = Hz + TOUCH_M
    if (z0 >= Tz and z1 >= Tz) or (z0 <= -Tz and z1 <= -Tz):
        return False, 0.0, 0.0, 0.0, px, py, pz  # both ends above, or both below: clear
    r00, r10, r01, r11, r02, r12 = horizontal
    # grown half sizes along the box's axes
    Hx = bx + abs(c * r00 + s_ * r10) + abs(c * r01 + s_ * r11) + abs(c * r02 + s_ * r12)
    Hy = by + abs(c * r10 - s_ * r00) + abs(c * r11 - s_ * r01) + abs(c * r12 - s_ * r02)
    Tx, Ty = Hx + TOUCH_M, Hy + TOUCH_M
    if (x0 >= Tx and x1 >= Tx) or (x0 <= -Tx and x1 <= -Tx) or (y0 >= Ty and y1 >= Ty) or (y0 <= -Ty and y1 <= -Ty):
        return False, 0.0, 0.0, 0.0, px, py, pz  # both ends beyond the same side face: clear
    found, axis, sign, corr = _box_face(x0, y0, z0, x1, y1, z1, Hx, Hy, Hz)
    if not found:
        return False, 0.0, 0.0, 0.0, px, py, pz
    # the face's normal, back in world axes
    if axis == 2:
        nx, ny, nz = 0.0, 0.0, sign
    elif axis == 0:
        nx, ny, nz = sign * c, sign * s_, 0.0
    else:
        nx, ny, nz = -sign * s_, sign * c, 0.0
    if corr > 0.0:  # out onto the face
        px += nx * corr
        py += ny * corr
        pz += nz * corr
    return True, nx, ny, nz, px, py, pz


@njit
def _box_face(x0, y0, z0, x1, y1, z1, Hx, Hy, Hz):
    """The face of a grown box (half sizes H, box frame) met by the segment l0 → l1.

    Returns (found, axis, sign, correction): the face's axis (0 x, 1 y, 2 z), its side (±1)
    and how far to move the end point out along the face's normal (0: only touching).

    A tick that starts on the surface or inside the grown box (resting, sliding, landing, or
    the box grown by a change of attitude) keeps to the face the start is nearest: the end is
    put back on that face's side, never moved across the box to another one.
    """
    ox0, oy0, oz0 = abs(x0) - Hx, abs(y0) - Hy, abs(z0) - Hz
    if ox0 <= 0.0 and oy0 <= 0.0 and oz0 <= 0.0:
        if max(abs(x1) - Hx, abs(y1) - Hy, abs(z1) - Hz) >= TOUCH_M:
            return False, -1, 0.0, 0.0  # left the box: clear
        if ox0 >= oy0 and ox0 >= oz0:
            sign = 1.0 if x0 >= 0.0 else -1.0
            return True, 0, sign, max(0.0, Hx - sign * x1)
        if oy0 >= oz0:
            sign = 1.0 if y0 >= 0.0 else -1.0
            return True, 1, sign, max(0.0, Hy - sign * y1)
        sign = 1.0 if z0 >= 0.0 else -1.0
        return True, 2, sign, max(0.0, Hz - sign * z1)
    # the start is outside: slab test for the entry face (its entry time is ≥ 0)
    t_in, t_out, axis, sign, a1_in, h_in = -math.inf, math.inf, -1, 0.0, 0.0, 0.0
    crossing, t_in, t_out, axis, sign, a1_in, h_in = _slab(0, x0, x1, Hx, t_in, t_out, axis, sign, a1_in, h_in)
    if crossing:
        crossing, t_in, t_out, axis, sign, a1_in, h_in = _slab(1, y0, y1, Hy, t_in, t_out, axis, sign, a1_in, h_in)
    if crossing:
        crossing, t_in, t_out, axis, sign, a1_in, h_in = _slab(2, z0, z1, Hz, t_in, t_out, axis, sign, a1_in, h_in)
    if crossing and axis >= 0 and t_in <= t_out and t_in <= 1.0 and t_out >= 0.0:
        return True, axis, sign, max(0.0, h_in - sign * a1_in)
    # no crossing: touching if the end point is within TOUCH of the box
    ox, oy, oz = abs(x1) - Hx, abs(y1) - Hy, abs(z1) - Hz
    if max(ox, oy, oz) >= TOUCH_M:
        return False, -1, 0.0, 0.0
    if ox >= oy and ox >= oz:
        return True, 0, (1.0 if x1 > 0.0 else -1.0), 0.0
    if oy >= oz:
        return True, 1, (1.0 if y1 > 0.0 else -1.0), 0.0
    return True, 2, (1.0 if z1 > 0.0 else -1.0), 0.0


@njit
def _slab(k, a0, a1, h, t_in, t_out, axis, sign, a1_in, h_in):
    """One axis of the slab test: the segment a0 → a1 against [−h, h]. Returns whether it can
    still cross, and the entry (time, axis, side, end coordinate, half size) and exit so far."""
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
        return False, t_in, t_out, axis, sign, a1_in, h_in  # parallel to this slab and outside it
    return True, t_in, t_out, axis, sign, a1_in, h_in


@njit
def _extent(horizontal, ux, uy):
    """Half the envelope's extent along the horizontal unit direction (ux, uy)."""
    r00, r10, r01, r11, r02, r12 = horizontal
    return abs(ux * r00 + uy * r10) + abs(ux * r01 + uy * r11) + abs(ux * r02 + uy * r12)


@njit
def _max_extent(horizontal):
    """The largest half extent of the envelope over all horizontal directions (its footprint's
    circumradius): max over the corners of |±a ± b ± c| of the scaled axes."""
    r00, r10, r01, r11, r02, r12 = horizontal
    best = 0.0
    for corner in range(4):
        s1 = 1.0 if corner < 2 else -1.0
        s2 = 1.0 if corner % 2 == 0 else -1.0
        x, y = r00 + s1 * r01 + s2 * r02, r10 + s1 * r11 + s2 * r12
        best = max(best, x * x + y * y)
    return math.sqrt(best)


@njit
def _cylinder_contact(geo, sections, i, horizontal, ez, ax, ay, az, px, py, pz):
    """Meet the segment a → p with vertical cylinder `i`, grown by the envelope.

    The grown cylinder is, in each horizontal direction u from its axis, r + the envelope's
    extent along u (a tilted or turned drone is wider one way than another); vertically it is
    grown by the envelope's half height `ez`.

    Returns (hit, nx, ny, nz, x, y, z): the normal and the corrected end point.
    """
    at = sections[1] + CYLINDER_WIDTH * i
    cx, cy, r, zb, zt = geo[at], geo[at + 1], geo[at + 2], geo[at + 3], geo[at + 4]
    zlo, zhi = zb - ez, zt + ez
    z0, z1 = az, pz
    if (z0 >= zhi + TOUCH_M and z1 >= zhi + TOUCH_M) or (z0 <= zlo - TOUCH_M and z1 <= zlo - TOUCH_M):
        return False, 0.0, 0.0, 0.0, px, py, pz
    x0, y0 = ax - cx, ay - cy
    x1, y1 = px - cx, py - cy
    dx, dy = x1 - x0, y1 - y0
    dd = dx * dx + dy * dy
    # quick rejection against the widest the grown cylinder can be
    r_max = r + _max_extent(horizontal)
    t = 0.0 if dd == 0.0 else min(1.0, max(0.0, -(x0 * dx + y0 * dy) / dd))
    if math.hypot(x0 + t * dx, y0 + t * dy) >= r_max + TOUCH_M:
        return False, 0.0, 0.0, 0.0, px, py, pz
    d0, d1 = math.hypot(x0, y0), math.hypot(x1, y1)
    R0 = _grown_radius(r, horizontal, x0, y0, d0)
    R1 = _grown_radius(r, horizontal, x1, y1, d1)
    end_inside = d1 < R1 and zlo < z1 < zhi

    if d0 <= R0 and zlo <= z0 <= zhi:
        # started on the surface or inside: keep to the face the start is nearest
        if not end_inside:
            return _touching(x1, y1, d1, R1, z1, zlo, zhi, px, py, pz)
        top, bottom, side = zhi - z0, z0 - zlo, R0 - d0
        if top <= bottom and top <= side:
            return True, 0.0, 0.0, 1.0, px, py, zhi
        if bottom <= side:
            return True, 0.0, 0.0, -1.0, px, py, zlo
        if d1 > 1e-9:
            nx, ny = x1 / d1, y1 / d1
        elif d0 > 1e-9:
            nx, ny = x0 / d0, y0 / d0
        else:
            nx, ny = 1.0, 0.0
        R = r + _extent(horizontal, nx, ny)
        return True, nx, ny, 0.0, cx + nx * R, cy + ny * R, z1

    # started outside: the earliest entry through the top, the bottom or the side
    best_t = math.inf
    hit, hnx, hny, hnz, hx_, hy_, hz_ = False, 0.0, 0.0, 0.0, px, py, pz
    if z0 >= zhi and z1 < zhi:
        s = (z0 - zhi) / (z0 - z1)
        ex, ey = x0 + s * dx, y0 + s * dy
        dh = math.hypot(ex, ey)
        if dh < _grown_radius(r, horizontal, ex, ey, dh):
            best_t, hit, hnx, hny, hnz, hx_, hy_, hz_ = s, True, 0.0, 0.0, 1.0, px, py, zhi
    elif z0 <= zlo and z1 > zlo:
        s = (zlo - z0) / (z1 - z0)
        ex, ey = x0 + s * dx, y0 + s * dy
        dh = math.hypot(ex, ey)
        if dh < _grown_radius(r, horizontal, ex, ey, dh):
            best_t, hit, hnx, hny, hnz, hx_, hy_, hz_ = s, True, 0.0, 0.0, -1.0, px, py, zlo
    te = _side_entry(r, horizontal, r_max, x0, y0, z0, dx, dy, z1 - z0, dd, zlo, zhi)
    if te < best_t:  # (inf: no side entry)
        ex, ey = x0 + te * dx, y0 + te * dy
        n = math.hypot(ex, ey)
        if n == 0.0:
            n = 1.0
        nx, ny = ex / n, ey / n
        R = r + _extent(horizontal, nx, ny)
        hit, hnx, hny, hnz, hx_, hy_, hz_ = True, nx, ny, 0.0, cx + nx * R, cy + ny * R, z1
    if hit:
        return True, hnx, hny, hnz, hx_, hy_, hz_
    return _touching(x1, y1, d1, R1, z1, zlo, zhi, px, py, pz)


@njit
def _grown_radius(r, horizontal, x, y, d):
    """The grown cylinder's radius in the direction of (x, y) from its axis (d = its length)."""
    if d <= 1e-12:
        return r + _max_extent(horizontal)
    return r + _extent(horizontal, x / d, y / d)


@njit
def _touching(x1, y1, d1, R1, z1, zlo, zhi, px, py, pz):
    """A resting touch of the side (no correction), or no hit."""
    if d1 < R1 + TOUCH_M and d1 > 1e-9 and zlo < z1 < zhi:
        return True, x1 / d1, y1 / d1, 0.0, px, py, pz
    return False, 0.0, 0.0, 0.0, px, py, pz


@njit
def _inside_side(t, r, horizontal, x0, y0, z0, dx, dy, dz, zlo, zhi):
    """Whether the segment's point at time t is inside the grown cylinder (axis at the origin)."""
    z = z0 + t * dz
    if not zlo < z < zhi:
        return False
    x, y = x0 + t * dx, y0 + t * dy
    d = math.hypot(x, y)
    return d < _grown_radius(r, horizontal, x, y, d)


@njit
def _side_entry(r, horizontal, r_max, x0, y0, z0, dx, dy, dz, dd, zlo, zhi):
    """First time t in [0, 1] at which the segment is inside the grown cylinder's side (inf:
    never).

    The grown radius depends on the direction, so the entry is found on the part of the
    segment inside the widest circle: sampled, then refined by bisection.
    """
    if dd == 0.0:
        return math.inf
    b = x0 * dx + y0 * dy
    c = x0 * x0 + y0 * y0 - r_max * r_max
    disc = b * b - dd * c
    if disc <= 0.0:
        return math.inf
    root = math.sqrt(disc)
    ta, tb = max(0.0, (-b - root) / dd), min(1.0, (-b + root) / dd)
    if ta > tb:
        return math.inf
    previous = ta
    if _inside_side(ta, r, horizontal, x0, y0, z0, dx, dy, dz, zlo, zhi):
        return ta
    for i in range(1, _SIDE_SAMPLES + 1):
        t = ta + (tb - ta) * i / _SIDE_SAMPLES
        if _inside_side(t, r, horizontal, x0, y0, z0, dx, dy, dz, zlo, zhi):
            lo, hi = previous, t
            for _ in range(30):
                mid = 0.5 * (lo + hi)
                if _inside_side(mid, r, horizontal, x0, y0, z0, dx, dy, dz, zlo, zhi):
                    hi = mid
                else:
                    lo = mid
            return hi
        previous = t
    return math.inf


@njit
def respond(vx, vy, vz, nx, ny, nz, restitution, friction, rest_speed):
    """Velocity response to a contact of normal n (unit, out of the surface).

    An approach faster than `rest_speed` bounces (the normal velocity is reversed and scaled
    by `restitution`); a slower one stops, so a resting drone does not jitter. Then Coulomb
    friction takes up to `friction` × that normal speed change (the normal impulse per unit
    mass) off the tangential velocity. Returns the new velocity and the normal approach speed
    met (0 if the drone was already leaving: then nothing changes).
    """
    vn = vx * nx + vy * ny + vz * nz
    if vn >= 0.0:
        return vx, vy, vz, 0.0
    speed = -vn
    dvn = speed * (1.0 + restitution) if speed > rest_speed else speed
    vx += nx * dvn
    vy += ny * dvn
    vz += nz * dvn
    vn = vx * nx + vy * ny + vz * nz
    tx, ty, tz = vx - vn * nx, vy - vn * ny, vz - vn * nz
    vt = math.sqrt(tx * tx + ty * ty + tz * tz)
    if vt > 0.0:
        k = min(vt, friction * dvn) / vt
        vx -= tx * k
        vy -= ty * k
        vz -= tz * k
    return vx, vy, vz, speed


@njit
def _sense_support(geo, sections, candidates, count, px, py, pz, ez, grown, ground, gz, horizontal):
    """Ground sensing: the highest top under the envelope's footprint at or below its bottom
    (`SUPPORT_TOLERANCE_M` above counts: a resting drone is on its support) — the ground if
    nothing higher. Returns (its top z or nan, its solid number, GROUND or NOTHING, the
    envelope's bottom z)."""
    bottom = pz - ez
    support, support_solid = (gz, GROUND) if ground else (math.nan, NOTHING)
    if count == 0:
        return support, support_solid, bottom
    boxes = int(geo[GEO_BOXES])
    box_at, cylinder_at, aabb_at, _, _ = sections
    r00, r10, r01, r11, r02, r12 = horizontal
    below = bottom + SUPPORT_TOLERANCE_M
    found = support_solid != NOTHING
    for k in range(count):  # the boxes first, then the cylinders: ascending numbers
        s = candidates[k]
        if s < boxes:
            a = aabb_at + AABB_WIDTH * s
            if px < geo[a] - grown or px > geo[a + 3] + grown or py < geo[a + 1] - grown or py > geo[a + 4] + grown:
                continue  # not under the footprint
            b = box_at + BOX_WIDTH * s
            top = geo[b + 2] + geo[b + 5]
            if top > below or (found and top <= support):
                continue
            cx, cy, bx, by, c, s_ = geo[b], geo[b + 1], geo[b + 3], geo[b + 4], geo[b + 6], geo[b + 7]
            dx, dy = px - cx, py - cy
            if (abs(c * dx + s_ * dy) < bx + abs(c * r00 + s_ * r10) + abs(c * r01 + s_ * r11) + abs(c * r02 + s_ * r12)
                    and abs(c * dy - s_ * dx) < by + abs(c * r10 - s_ * r00) + abs(c * r11 - s_ * r01) + abs(c * r12 - s_ * r02)):
                support, support_solid, found = top, s, True
        else:
            at = cylinder_at + CYLINDER_WIDTH * (s - boxes)
            top = geo[at + 4]
            if top > below or (found and top <= support):
                continue
            dx, dy, r = px - geo[at], py - geo[at + 1], geo[at + 2]
            d = math.sqrt(dx * dx + dy * dy)
            if d < r or (d > 0.0 and d < r + _extent(horizontal, dx / d, dy / d)):
                support, support_solid, found = top, s, True
    return support, support_solid, bottom


@njit
def _settle(qx, qy, qz, qw, bx, by, bz, settle_time, spin_friction_time, dt):
    """On a support: turn the body towards level and let friction stop its spin. Takes and
    returns the body angular velocity."""
    x, y, z, w = qx, qy, qz, qw
    # body → world rotation matrix
    r00, r01, r02 = 1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)
    r10, r11, r12 = 2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)
    r20, r21, r22 = 2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)
    wz = r20 * bx + r21 * by + r22 * bz  # world yaw rate
    k = 1.0 / settle_time
    # body up is the third column (r02, r12, r22); up × ẑ turns it towards ẑ
    wx_w, wy_w = r12 * k, -r02 * k
    wz_w = wz * max(0.0, 1.0 - dt / spin_friction_time)
    return (r00 * wx_w + r10 * wy_w + r20 * wz_w, r01 * wx_w + r11 * wy_w + r21 * wz_w,
            r02 * wx_w + r12 * wy_w + r22 * wz_w)


# == compiled: drone against drone ===============================================================
@njit
def resolve_drone_contacts(block, rows, body_col, size_col, mass_col, out_col, params, dt):
    """Resolve this tick's contacts between every pair of the drones `rows`, in place.

    Call it after `resolve_level_contacts`, in the same tick (it reads the RESTING column).
    Each drone's guard envelope is bounded by its world-axis-aligned box (slightly
    conservative when tilted, see the module's docstring); each pair is met on its relative
    motion over the tick, so there is no tunnelling at any closing speed. Pairs are found by
    sweep and prune along x over the tick's swept boxes, then met in that order.

    Args:
        block, rows, body_col, size_col, out_col, params, dt: as `resolve_level_contacts`.
        mass_col: the column of each drone's mass, kg.
    Returns:
        how many rows have EVENTS ≠ 0 (the level's bits included).
    Fills DRONE_IMPACT_SPEED, OTHER_ROW, DRONE_NORMAL and EVENTS bit DRONE_IMPACT_EVENT
    (cleared first: the columns always say this tick's contacts).
    """
    n = rows.shape[0]
    oc = out_col
    for k in range(n):
        r = rows[k]
        block[r, oc + DRONE_IMPACT_SPEED] = 0.0
        block[r, oc + OTHER_ROW] = -1.0
        block[r, oc + DRONE_NORMAL] = 0.0
        block[r, oc + DRONE_NORMAL + 1] = 0.0
        block[r, oc + DRONE_NORMAL + 2] = 0.0
        block[r, oc + EVENTS] = float(int(block[r, oc + EVENTS]) & ~DRONE_IMPACT_EVENT)
    if n > 1:
        extent = np.empty((n, 3))  # each envelope's world half extents
        swept = np.empty((n, 6))  # each tick's swept box: lo x, y, z, hi x, y, z
        valid = np.empty(n, np.bool_)  # finite numbers and a mass: a broken drone meets no one
        for k in range(n):
            r = rows[k]
            ex, ey, ez = _world_half_extents(block, r, body_col, size_col)
            extent[k, 0], extent[k, 1], extent[k, 2] = ex, ey, ez
            for i in range(3):
                e = extent[k, i]
                a, p = block[r, body_col + PREVIOUS_POSITION + i], block[r, body_col + POSITION + i]
                swept[k, i] = min(a, p) - e - TOUCH_M
                swept[k, 3 + i] = max(a, p) + e + TOUCH_M
            valid[k] = _sound(block, r, body_col, mass_col) and math.isfinite(ex + ey + ez)
            if not valid[k]:
                swept[k, 0] = np.inf  # sorted last
        order = np.argsort(swept[:, 0], kind="mergesort")
        for a in range(n):
            i = order[a]
            if not valid[i]:
                break  # the rest are broken too
            for b in range(a + 1, n):
                j = order[b]
                if swept[j, 0] > swept[i, 3]:
                    break  # this one and all the next start east of i's box
                if not valid[j] or (swept[j, 1] > swept[i, 4] or swept[j, 4] < swept[i, 1] or swept[j, 2] > swept[i, 5]
                        or swept[j, 5] < swept[i, 2]):
                    continue
                _meet_drones(block, rows[i], rows[j], body_col, mass_col, oc, params,
                             extent[i, 0] + extent[j, 0], extent[i, 1] + extent[j, 1], extent[i, 2] + extent[j, 2])
    flagged = 0
    for k in range(n):
        if block[rows[k], oc + EVENTS] != 0.0:
            flagged += 1
    return flagged


@njit
def _sound(block, r, bc, mc):
    """Whether drone r's position, previous position and velocity are finite and its mass
    positive: a broken drone (a nan from elsewhere) must not spread to the others."""
    total = 0.0
    for i in range(3):
        total += block[r, bc + POSITION + i] + block[r, bc + PREVIOUS_POSITION + i] + block[r, bc + VELOCITY + i]
    return math.isfinite(total) and block[r, mc] > 0.0


@njit
def _world_half_extents(block, r, bc, sc):
    """Half the envelope's extent along each world axis: per axis, the sum of the |components|
    of its three half-axis vectors (the body axes scaled by the half sizes)."""
    x, y, z, w = (block[r, bc + QUATERNION], block[r, bc + QUATERNION + 1], block[r, bc + QUATERNION + 2],
                  block[r, bc + QUATERNION + 3])
    hx, hy, hz = 0.5 * block[r, sc], 0.5 * block[r, sc + 1], 0.5 * block[r, sc + 2]
    r00, r01, r02 = 1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)
    r10, r11, r12 = 2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)
    r20, r21, r22 = 2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)
    return (abs(r00) * hx + abs(r01) * hy + abs(r02) * hz, abs(r10) * hx + abs(r11) * hy + abs(r12) * hz,
            abs(r20) * hx + abs(r21) * hy + abs(r22) * hz)


@njit
def _meet_drones(block, ri, rj, bc, mc, oc, params, Hx, Hy, Hz):
    """The pair (ri, rj): drone i's segment relative to drone j's, against j's envelope box
    grown by i's (half sizes H). At contact: both back to touching, split by inverse mass; a
    normal impulse with restitution and Coulomb friction, equal and opposite."""
    P, V = bc + POSITION, bc + VELOCITY
    A = bc + PREVIOUS_POSITION
    x0 = block[ri, A] - block[rj, A]
    y0 = block[ri, A + 1] - block[rj, A + 1]
    z0 = block[ri, A + 2] - block[rj, A + 2]
    x1 = block[ri, P] - block[rj, P]
    y1 = block[ri, P + 1] - block[rj, P + 1]
    z1 = block[ri, P + 2] - block[rj, P + 2]
    found, axis, sign, corr = _box_face(x0, y0, z0, x1, y1, z1, Hx, Hy, Hz)
    if not found:
        return
    # the normal is `sign` along world axis `axis`: out of j's envelope, towards i.
    # A drone resting on a support is not pushed towards it: the support takes that.
    up = sign if axis == 2 else 0.0
    wi = 1.0 / block[ri, mc]
    wj = 1.0 / block[rj, mc]
    if block[ri, oc + RESTING] != 0.0 and up < 0.0:
        wi = 0.0
    if block[rj, oc + RESTING] != 0.0 and up > 0.0:
        wj = 0.0
    w = wi + wj
    if w == 0.0:
        return
    if corr > 0.0:  # back to touching
        ci, cj = corr * wi / w, corr * wj / w
        block[ri, P + axis] += sign * ci
        block[rj, P + axis] -= sign * cj
    # the relative velocity's normal part: approaching if negative
    vn = block[ri, V + axis] - block[rj, V + axis]
    vn *= sign
    speed = 0.0
    if vn < 0.0:
        speed = -vn
        rest = params[P_REST_SPEED]
        dvn = speed * (1.0 + params[P_DRONE_RESTITUTION]) if speed > rest else speed
        impulse = dvn / w  # N·s: the relative normal speed change over the pair's inverse masses
        block[ri, V + axis] += sign * impulse * wi
        block[rj, V + axis] -= sign * impulse * wj
        # Coulomb friction on the relative tangential velocity, up to friction × dvn
        tx = block[ri, V] - block[rj, V]
        ty = block[ri, V + 1] - block[rj, V + 1]
        tz = block[ri, V + 2] - block[rj, V + 2]
        if axis == 0:
            tx = 0.0
        elif axis == 1:
            ty = 0.0
        else:
            tz = 0.0
        vt = math.sqrt(tx * tx + ty * ty + tz * tz)
        if vt > 0.0:
            k = min(vt, params[P_DRONE_FRICTION] * dvn) / vt / w  # N·s per m/s of slip
            block[ri, V] -= tx * k * wi
            block[ri, V + 1] -= ty * k * wi
            block[ri, V + 2] -= tz * k * wi
            block[rj, V] += tx * k * wj
            block[rj, V + 1] += ty * k * wj
            block[rj, V + 2] += tz * k * wj
        if speed > params[P_REST_SPEED]:
            block[ri, oc + EVENTS] = float(int(block[ri, oc + EVENTS]) | DRONE_IMPACT_EVENT)
            block[rj, oc + EVENTS] = float(int(block[rj, oc + EVENTS]) | DRONE_IMPACT_EVENT)
    _note_drone(block, ri, rj, oc, speed, axis, sign)
    _note_drone(block, rj, ri, oc, speed, axis, -sign)


@njit
def _note_drone(block, r, other, oc, speed, axis, sign):
    """Drone r met drone `other` (normal `sign` along world axis `axis`, out of `other`): the
    columns keep the fastest approach of the tick (the first met, if none approached)."""
    if block[r, oc + OTHER_ROW] < 0.0 or speed > block[r, oc + DRONE_IMPACT_SPEED]:
        block[r, oc + DRONE_IMPACT_SPEED] = speed
        block[r, oc + OTHER_ROW] = other
        block[r, oc + DRONE_NORMAL] = 0.0
        block[r, oc + DRONE_NORMAL + 1] = 0.0
        block[r, oc + DRONE_NORMAL + 2] = 0.0
        block[r, oc + DRONE_NORMAL + axis] = sign


# == the one-drone wrapper ======================================================================
_BODY_COL = 0
_SIZE_COL = BODY_SIZE
_MASS_COL = BODY_SIZE + 3
_OUT_COL = BODY_SIZE + 4
_WIDTH = _OUT_COL + CONTACT_WIDTH


class ContactSolver:
    """Resolves one drone's contacts with a level's geometry, tick by tick: a one-row fleet
    block through `resolve_level_contacts`, for callers with one drone in plain lists (tests,
    tools). Settling is left to the caller when `step` gets no angular velocity (`settle`).

    After each `step` the solver's attributes say what it found: `contact`, `normal`,
    `impact_speed_m_s`, `resting`, `support_z_m`, `support_id`, `contact_id`, `bottom_z_m`
    (see `StepResult`; `result()` packs them).

    Args:
        geometry: the level's solids (`LevelGeometry.empty()` for the lab world).
        params: contact constants.
    """

    def __init__(self, geometry: LevelGeometry, params: ContactParams | None = None) -> None:
        self.params = params or ContactParams()
        self._params = self.params.packed()
        self._block = np.zeros((1, _WIDTH))
        # the inputs, set as a Python list then written in one go (a numpy write per field
        # would cost more than the compiled call)
        self._inputs = self._block[0, :_MASS_COL].tolist()
        self._rows = np.zeros(1, dtype=np.int64)
        self.contact = False
        self.normal = _UP
        self.impact_speed_m_s = 0.0
        self.resting = False
        self.support_z_m: float | None = None
        self.support_id: str | None = None
        self.contact_id: str | None = None
        self.bottom_z_m = 0.0
        self.set_geometry(geometry)

    def set_geometry(self, geometry: LevelGeometry) -> None:
        """Fly against new geometry from the next tick on (hot reload)."""
        self.geometry = geometry
        self._packed = pack_geometry(geometry)
        self.has_solids = bool(geometry.boxes or geometry.cylinders)

    def result(self) -> StepResult:
        return StepResult(self.contact, self.normal, self.impact_speed_m_s, self.resting, self.support_z_m,
                          self.support_id, self.contact_id, self.bottom_z_m)

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
        inputs, row = self._inputs, self._block[0]
        inputs[POSITION:POSITION + 3] = position
        inputs[VELOCITY:VELOCITY + 3] = velocity
        inputs[QUATERNION:QUATERNION + 4] = quaternion
        inputs[ANGULAR_VELOCITY:ANGULAR_VELOCITY + 3] = (0.0, 0.0, 0.0) if angular_velocity is None else angular_velocity
        inputs[PREVIOUS_POSITION:PREVIOUS_POSITION + 3] = previous
        inputs[_SIZE_COL:_SIZE_COL + 3] = size_m
        row[:_MASS_COL] = inputs
        resolve_level_contacts(self._block, self._rows, _BODY_COL, _SIZE_COL, _OUT_COL, self._packed, self._params,
                               dt)
        values = row.tolist()
        out = values[_OUT_COL:]
        self.contact = out[CONTACT] != 0.0
        if self.contact:
            position[0], position[1], position[2] = values[POSITION:POSITION + 3]
            velocity[0], velocity[1], velocity[2] = values[VELOCITY:VELOCITY + 3]
        self.normal = (out[NORMAL], out[NORMAL + 1], out[NORMAL + 2])
        self.impact_speed_m_s = out[IMPACT_SPEED]
        self.resting = out[RESTING] != 0.0
        self.support_z_m = None if math.isnan(out[SUPPORT_Z]) else out[SUPPORT_Z]
        self.support_id = self._id(out[SUPPORT])
        self.contact_id = self._id(out[CONTACT_SOLID])
        self.bottom_z_m = out[BOTTOM_Z]
        if self.resting and angular_velocity is not None:
            w = values[ANGULAR_VELOCITY:ANGULAR_VELOCITY + 3]
            angular_velocity[0], angular_velocity[1], angular_velocity[2] = w

    def _id(self, number: float) -> str | None:
        """The id of solid `number` ("" for the ground, None for nothing)."""
        if number == GROUND:
            return ""
        if number == NOTHING:
            return None
        return self.geometry.solid_ids[int(number)]

    def settle(self, quaternion, angular_velocity, dt: float) -> None:
        """Resting on a support: turn towards level, let friction stop the spin (in place)."""
        w = angular_velocity
        qx, qy, qz, qw = (float(c) for c in quaternion)
        if w[0] != 0.0 or w[1] != 0.0 or w[2] != 0.0 or abs(qx) > 1e-9 or abs(qy) > 1e-9:
            p = self.params
            w[0], w[1], w[2] = _settle(qx, qy, qz, qw, float(w[0]), float(w[1]), float(w[2]), p.settle_time_s,
                                       p.spin_friction_time_s, dt)


def warm_up_contacts() -> None:
    """Call the compiled contact functions once (loading or compiling their machine code),
    with the types the game calls them with: what the loading screen runs before the first
    frame (game/startup.py)."""
    block = np.zeros((2, _WIDTH))
    block[:, QUATERNION + 3] = 1.0
    block[:, _SIZE_COL:_SIZE_COL + 3] = 0.1
    block[:, _MASS_COL] = 1.0
    block[1, POSITION] = 5.0
    rows = np.arange(2, dtype=np.int64)
    params = ContactParams().packed()
    resolve_level_contacts(block, rows, _BODY_COL, _SIZE_COL, _OUT_COL, pack_geometry(LevelGeometry.empty()), params, 1 / 240)
    resolve_drone_contacts(block, rows, _BODY_COL, _SIZE_COL, _MASS_COL, _OUT_COL, params, 1 / 240)
    ContactSolver(LevelGeometry.empty()).settle((0.0, 0.0, 0.0, 1.0), [0.0, 0.0, 1.0], 1 / 240)  # (from Python)
