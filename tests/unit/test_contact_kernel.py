"""The compiled level contacts over many drones at once (issue #16): one call over N rows of
a fleet block does for each row exactly what N one-row calls do; the grid broad phase finds
every solid a brute-force bounding-box test finds; the events and their count; the empty lab
world; a drone resting on each top of the street keeps resting there.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings, strategies as st

from components.layout import ANGULAR_VELOCITY, BODY_SIZE, POSITION, PREVIOUS_POSITION, QUATERNION, VELOCITY
from game.bench import thousand_box_level
from world.collision import (
    BOTTOM_Z, CONTACT, CONTACT_SOLID, CONTACT_WIDTH, EVENTS, GEO_BOXES, GEO_CYLINDERS, GEO_NX, GEO_NY, GROUND,
    IMPACT_EVENT, IMPACT_SPEED, NOTHING, OTHER_ROW, RESTING, SUPPORT, SUPPORT_Z, TOUCHDOWN_EVENT, ContactParams,
    _nearby_solids, geo_sections, pack_geometry, resolve_level_contacts,
)
from world.geometry import BoxRow, CylinderRow, LevelGeometry, envelope
from world.level import compile_level
from world.level_file import load_level
from flight.quat import from_euler

STREET = compile_level(load_level("street"))
PACKED = pack_geometry(STREET)
THOUSAND = compile_level(thousand_box_level())
SIZE = (0.1752, 0.1697, 0.041)  # the shipped vehicle's envelope
SIZE_COL = BODY_SIZE
OUT_COL = BODY_SIZE + 4
WIDTH = OUT_COL + CONTACT_WIDTH
TICK = 1 / 240
G = 9.80665
PARAMS = ContactParams().packed()


def row_of(position, move, velocity, q, w, resting_before):
    row = np.zeros(WIDTH)
    row[POSITION:POSITION + 3] = position
    row[PREVIOUS_POSITION:PREVIOUS_POSITION + 3] = np.subtract(position, move)
    row[VELOCITY:VELOCITY + 3] = velocity
    row[QUATERNION:QUATERNION + 4] = q
    row[ANGULAR_VELOCITY:ANGULAR_VELOCITY + 3] = w
    row[SIZE_COL:SIZE_COL + 3] = SIZE
    row[OUT_COL + RESTING] = 1.0 if resting_before else 0.0
    return row


def near_a_solid(draw):
    """A drone within a metre of a random solid of the street (or of the ground)."""
    solids = list(STREET.boxes) + list(STREET.cylinders)
    s = solids[draw(st.integers(0, len(solids) - 1))]
    u = draw(st.tuples(*[st.floats(-1.3, 1.3)] * 3))
    if isinstance(s, BoxRow):
        p = [s.cx + u[0] * (s.hx + 0.3), s.cy + u[1] * (s.hy + 0.3), s.cz + u[2] * (s.hz + 0.1)]
    else:
        p = [s.x + u[0] * (s.r + 0.3), s.y + u[1] * (s.r + 0.3), 0.5 * (s.z0 + s.z1) + u[2] * 0.5 * (s.z1 - s.z0 + 0.2)]
    if draw(st.booleans()) and draw(st.booleans()):
        p[2] = draw(st.floats(-0.02, 0.1))  # at the ground
    return p


@st.composite
def drones(draw):
    tilt = st.floats(-0.6, 0.6)
    speed = draw(st.sampled_from([0.2, 2.0, 10.0, 40.0]))
    v = draw(st.tuples(*[st.floats(-1.0, 1.0)] * 3))
    return row_of(near_a_solid(draw), [c * speed * TICK for c in v], [c * speed for c in v],
                  from_euler(draw(tilt), draw(tilt), draw(st.floats(-math.pi, math.pi))),
                  draw(st.tuples(*[st.floats(-3.0, 3.0)] * 3)), draw(st.booleans()))


@settings(max_examples=150, deadline=None)
@given(st.lists(drones(), min_size=1, max_size=12), st.randoms(use_true_random=False))
def test_one_call_over_n_rows_is_n_one_row_calls_bit_for_bit(rows, rnd):
    """Rows are independent: the fleet's call, over its rows in any order and with rows left
    out in between, gives each row the very bits its own one-row call gives."""
    n = len(rows)
    block = np.full((2 * n + 1, WIDTH), 7.0)  # rows not listed: must stay untouched
    at = rnd.sample(range(2 * n + 1), n)
    for row, r in zip(rows, at):
        block[r] = row
    untouched = block.copy()
    flagged = resolve_level_contacts(block, np.array(at, dtype=np.int64), 0, SIZE_COL, OUT_COL, PACKED, PARAMS, TICK)
    alone_events = 0
    for row, r in zip(rows, at):
        alone = row[None, :].copy()
        alone_events += resolve_level_contacts(alone, np.zeros(1, dtype=np.int64), 0, SIZE_COL, OUT_COL, PACKED,
                                               PARAMS, TICK)
        assert block[r].tobytes() == alone[0].tobytes()
    others = [r for r in range(2 * n + 1) if r not in at]
    assert block[others].tobytes() == untouched[others].tobytes()
    assert flagged == alone_events == sum(1 for r in at if block[r, OUT_COL + EVENTS] != 0.0)


# -- the broad phase --------------------------------------------------------------------------------
def brute_force(geometry: LevelGeometry, lo, hi, top) -> list[int]:
    """Every solid whose bounding box meets [lo, hi] (x, y) × (−∞, top]."""
    box_lo, box_hi = np.vstack([geometry.box_lo, geometry.cyl_lo]), np.vstack([geometry.box_hi, geometry.cyl_hi])
    hit = ((box_lo[:, 0] <= hi[0]) & (box_hi[:, 0] >= lo[0]) & (box_lo[:, 1] <= hi[1]) & (box_hi[:, 1] >= lo[1])
           & (box_lo[:, 2] <= top))
    return np.flatnonzero(hit).tolist()


def grid_query(geometry: LevelGeometry, lo, hi, top) -> list[int]:
    packed = pack_geometry(geometry)
    sections = geo_sections(int(packed[GEO_BOXES]), int(packed[GEO_CYLINDERS]), int(packed[GEO_NX]) * int(packed[GEO_NY]))
    out = np.empty(max(1, len(geometry.solid_ids)), dtype=np.int64)
    count = _nearby_solids(packed, sections, lo[0], lo[1], hi[0], hi[1], top, out)
    return out[:count].tolist()


coordinate = st.floats(-60.0, 260.0)


@settings(max_examples=300, deadline=None)
@given(coordinate, st.floats(-60.0, 80.0), st.floats(0.0, 30.0), st.floats(0.0, 30.0), st.floats(-5.0, 40.0),
       st.booleans())
def test_the_grid_finds_what_a_brute_force_test_finds(x, y, w, d, top, thousand):
    geometry = THOUSAND if thousand else STREET
    lo, hi = (x, y), (x + w, y + d)
    found = grid_query(geometry, lo, hi, top)
    assert found == brute_force(geometry, lo, hi, top)  # the same solids, ascending, each once


solid_rows = st.lists(st.tuples(st.floats(-30.0, 30.0), st.floats(-30.0, 30.0), st.floats(0.05, 30.0),
                                st.floats(0.05, 30.0), st.floats(0.1, 20.0), st.floats(-180.0, 180.0),
                                st.booleans()), min_size=1, max_size=40)


@settings(max_examples=300, deadline=None)
@given(solid_rows, st.floats(-40.0, 40.0), st.floats(-40.0, 40.0), st.floats(0.0, 30.0), st.floats(0.0, 30.0),
       st.floats(-1.0, 25.0))
def test_the_grid_finds_every_solid_of_any_level(rows, x, y, w, d, top):
    """Random levels: solids on cell borders, spanning many cells, smaller than a cell."""
    boxes, cylinders = [], []
    for i, (cx, cy, sx, sy, h, yaw_deg, round_) in enumerate(rows):
        if round_:
            cylinders.append(CylinderRow(cx, cy, 0.5 * sx, 0.0, h, f"c{i}", "pole"))
        else:
            yaw = math.radians(yaw_deg)
            boxes.append(BoxRow(cx, cy, 0.5 * h, 0.5 * sx, 0.5 * sy, 0.5 * h, math.cos(yaw), math.sin(yaw), f"b{i}", "obstacle"))
    geometry = LevelGeometry(ground_z_m=0.0, boxes=tuple(boxes), cylinders=tuple(cylinders))
    lo, hi = (x, y), (x + w, y + d)
    assert grid_query(geometry, lo, hi, top) == brute_force(geometry, lo, hi, top)



# -- what one call reports --------------------------------------------------------------------------
def test_the_empty_lab_world_finds_nothing_and_moves_nothing():
    packed = pack_geometry(LevelGeometry.empty())
    block = np.stack([row_of((0.0, 0.0, -5.0), (0.0, 0.0, -0.01), (0.0, 0.0, -2.4), (0.0, 0.0, 0.0, 1.0),
                             (0.5, 0.0, 0.0), False) for _ in range(3)])
    before = block.copy()
    assert resolve_level_contacts(block, np.arange(3, dtype=np.int64), 0, SIZE_COL, OUT_COL, packed, PARAMS, TICK) == 0
    assert (block[:, :OUT_COL] == before[:, :OUT_COL]).all()
    out = block[:, OUT_COL:]
    assert (out[:, CONTACT] == 0).all() and (out[:, RESTING] == 0).all() and np.isnan(out[:, SUPPORT_Z]).all()
    assert (out[:, SUPPORT] == NOTHING).all() and (out[:, CONTACT_SOLID] == NOTHING).all()
    assert (out[:, OTHER_ROW] == -1).all()
    assert out[0, BOTTOM_Z] == -5.0 - 0.5 * SIZE[2]


def test_impact_and_touchdown_events_are_flagged_once():
    """A drone falling at 3 m/s onto the ground: an impact (faster than the 0.3 m/s rest
    speed), it bounces at restitution × 3 m/s; when it comes down slowly and stays, resting
    begins — flagged that tick only. One still in the air beside it never is flagged."""
    h = 0.5 * SIZE[2]
    block = np.stack([row_of((5.0, 0.0, h - 0.0125 + 1e-3), (0.0, 0.0, -0.0125), (0.0, 0.0, -3.0),
                             (0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0), False),
                      row_of((9.0, 0.0, 3.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0),
                             (0.0, 0.0, 0.0), False)])
    rows = np.arange(2, dtype=np.int64)
    assert resolve_level_contacts(block, rows, 0, SIZE_COL, OUT_COL, PACKED, PARAMS, TICK) == 1
    out = block[0, OUT_COL:]
    assert out[EVENTS] == IMPACT_EVENT and out[IMPACT_SPEED] == 3.0 and out[CONTACT_SOLID] == GROUND
    assert block[0, VELOCITY + 2] == STREET.restitution * 3.0 and abs(block[0, POSITION + 2] - h) < 1e-12
    touchdowns = []
    for tick in range(240):  # gravity brings it back; it settles
        block[:, PREVIOUS_POSITION:PREVIOUS_POSITION + 3] = block[:, POSITION:POSITION + 3]
        block[1, VELOCITY + 2] = 0.0  # the second hovers
        block[0, VELOCITY + 2] -= G * TICK
        block[:, POSITION:POSITION + 3] += block[:, VELOCITY:VELOCITY + 3] * TICK
        flagged = resolve_level_contacts(block, rows, 0, SIZE_COL, OUT_COL, PACKED, PARAMS, TICK)
        assert flagged == (block[0, OUT_COL + EVENTS] != 0) and block[1, OUT_COL + EVENTS] == 0
        if int(block[0, OUT_COL + EVENTS]) & TOUCHDOWN_EVENT:
            touchdowns.append(tick)
    assert len(touchdowns) == 1 and block[0, OUT_COL + RESTING] == 1.0
    assert abs(block[0, POSITION + 2] - h) < 1e-12


def tops_of_the_street():
    """(solid number, x, y, top) of every box and cylinder top of the street on which a drone
    can stand at the centre, i.e. no other solid reaches higher within the envelope there."""
    reach = math.hypot(0.5 * SIZE[0], 0.5 * SIZE[1])
    lo, hi = np.vstack([STREET.box_lo, STREET.cyl_lo]), np.vstack([STREET.box_hi, STREET.cyl_hi])
    places = []
    for s, solid in enumerate(list(STREET.boxes) + list(STREET.cylinders)):
        x, y, top = (solid.cx, solid.cy, solid.cz + solid.hz) if isinstance(solid, BoxRow) else (solid.x, solid.y, solid.z1)
        over = ((lo[:, 0] <= x + reach) & (hi[:, 0] >= x - reach) & (lo[:, 1] <= y + reach) & (hi[:, 1] >= y - reach)
                & (hi[:, 2] > top + 1e-9))
        if not over.any():
            places.append((s, x, y, top))
    return places


def test_a_drone_resting_on_each_top_of_the_street_keeps_resting():
    """A drone put down at the centre of every roof, platform, pad, pavement and pole or tree
    top of the street — all in one block — stays there for 2 s of ticks under gravity: no
    sinking, no drift, resting on that solid (a tree's trunk and canopy share its id)."""
    places = tops_of_the_street()
    assert len(places) >= 30  # the street's buildings, pads, platform, kerbs, lamps and trees
    h = 0.5 * SIZE[2]
    block = np.stack([row_of((x, y, top + h), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0),
                             (0.0, 0.0, 0.0), True) for _, x, y, top in places])
    rows = np.arange(len(places), dtype=np.int64)
    start = block[:, POSITION:POSITION + 3].copy()
    for _ in range(480):
        block[:, PREVIOUS_POSITION:PREVIOUS_POSITION + 3] = block[:, POSITION:POSITION + 3]
        block[:, VELOCITY + 2] -= G * TICK
        block[:, POSITION:POSITION + 3] += block[:, VELOCITY:VELOCITY + 3] * TICK
        assert resolve_level_contacts(block, rows, 0, SIZE_COL, OUT_COL, PACKED, PARAMS, TICK) == 0
        assert (block[:, OUT_COL + RESTING] == 1.0).all()
    assert np.abs(block[:, POSITION:POSITION + 3] - start).max() < 1e-9
    for k, (s, *_rest) in enumerate(places):
        assert STREET.solid_ids[int(block[k, OUT_COL + SUPPORT])] == STREET.solid_ids[s]
        assert block[k, OUT_COL + SUPPORT_Z] == _rest[2]


@settings(max_examples=100, deadline=None)
@given(st.floats(-0.45, 0.45), st.floats(-0.45, 0.45), st.floats(-math.pi, math.pi), st.floats(0.0, 30.0))
def test_the_bottom_is_the_envelopes_lowest_point(roll, pitch, yaw, z):
    q = from_euler(roll, pitch, yaw)
    block = row_of((3.0, -2.0, z + 5.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), q, (0.0, 0.0, 0.0), False)[None, :]
    resolve_level_contacts(block, np.zeros(1, dtype=np.int64), 0, SIZE_COL, OUT_COL, PACKED, PARAMS, TICK)
    assert abs(block[0, OUT_COL + BOTTOM_Z] - (z + 5.0 - envelope(q, SIZE).vertical_half_m)) < 1e-12
