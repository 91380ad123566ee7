"""Drone against drone (issue #16): no tunnelling at any closing speed, momentum conserved,
the restitution law, a drone landing on another is held on its top (and slides with Coulomb
friction, or off the edge and down), never through it.

Each envelope is bounded by its world-axis-aligned box: the figures below come from that
shape, computed here from the rotation matrix, and from the impulse laws.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings, strategies as st

from game.contact_bench import contact_benches
from components.layout import BODY_SIZE, POSITION, PREVIOUS_POSITION, QUATERNION, VELOCITY
from world.collision import (
    CONTACT_WIDTH, DRONE_IMPACT_EVENT, DRONE_IMPACT_SPEED, DRONE_NORMAL, EVENTS, OTHER_ROW, RESTING, ContactParams,
    pack_geometry, resolve_drone_contacts, resolve_level_contacts,
)
from world.geometry import LevelGeometry
from flight.quat import from_euler

SIZE = (0.1752, 0.1697, 0.041)  # the shipped vehicle's envelope
MASS = 0.087  # kg
SIZE_COL, MASS_COL, OUT_COL = BODY_SIZE, BODY_SIZE + 3, BODY_SIZE + 4
WIDTH = OUT_COL + CONTACT_WIDTH
TICK = 1 / 240
G = 9.80665
P = ContactParams()
PARAMS = P.packed()


def half_extents(q) -> np.ndarray:
    """The envelope's world-axis-aligned half extents: |R| · half sizes."""
    x, y, z, w = q
    R = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                  [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                  [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
    return np.abs(R) @ (0.5 * np.array(SIZE))


def fleet(*drones) -> np.ndarray:
    """(position, velocity, quaternion, mass) per drone → a block."""
    block = np.zeros((len(drones), WIDTH))
    for row, (p, v, q, m) in zip(block, drones):
        row[POSITION:POSITION + 3] = p
        row[PREVIOUS_POSITION:PREVIOUS_POSITION + 3] = p
        row[VELOCITY:VELOCITY + 3] = v
        row[QUATERNION:QUATERNION + 4] = q
        row[SIZE_COL:SIZE_COL + 3] = SIZE
        row[MASS_COL] = m
        row[OUT_COL + OTHER_ROW] = -1.0
    return block


def tick(block, gravity=0.0, level=None):
    """One tick: move every drone (semi-implicit Euler), then the level's contacts if any, then
    the drones'. Returns the count of rows with events."""
    rows = np.arange(len(block), dtype=np.int64)
    block[:, PREVIOUS_POSITION:PREVIOUS_POSITION + 3] = block[:, POSITION:POSITION + 3]
    block[:, VELOCITY + 2] -= gravity * TICK
    block[:, POSITION:POSITION + 3] += block[:, VELOCITY:VELOCITY + 3] * TICK
    if level is not None:
        resolve_level_contacts(block, rows, 0, SIZE_COL, OUT_COL, level, PARAMS, TICK)
    return resolve_drone_contacts(block, rows, 0, SIZE_COL, MASS_COL, OUT_COL, PARAMS, TICK)


def overlap(block, i, j) -> float:
    """How deep drone i's box is in drone j's (the least penetration over the axes), ≤ 0 apart."""
    d = np.abs(block[i, POSITION:POSITION + 3] - block[j, POSITION:POSITION + 3])
    H = half_extents(block[i, QUATERNION:QUATERNION + 4]) + half_extents(block[j, QUATERNION:QUATERNION + 4])
    return float(np.min(H - d))


def momentum(block) -> np.ndarray:
    return (block[:, MASS_COL, None] * block[:, VELOCITY:VELOCITY + 3]).sum(axis=0)


tilt = st.floats(-0.45, 0.45)
attitudes = st.builds(from_euler, tilt, tilt, st.floats(-math.pi, math.pi))


@settings(max_examples=300, deadline=None)
@given(attitudes, attitudes, st.floats(0.5, 40.0), st.floats(-0.9, 0.9), st.floats(-0.9, 0.9), st.floats(0.0, 1.0),
       st.integers(0, 2), st.floats(0.03, 0.3))
def test_head_on_drones_never_pass_through_each_other(qa, qb, closing, fy, fz, share, axis, mass_b):
    """Two drones flying at each other along a world axis, 1 m apart, closing at up to 40 m/s
    (16 m/s is the fastest two Tellos can close; 40 m/s: the test is swept, any speed holds),
    offset sideways by less than their envelopes overlap: they meet, at the closing speed,
    and never pass: their order along the axis stays, and they end every tick touching or
    apart."""
    e = np.eye(3)[axis]
    side = np.eye(3)[(axis + 1) % 3], np.eye(3)[(axis + 2) % 3]
    H = half_extents(qa) + half_extents(qb)
    offset = fy * H[(axis + 1) % 3] * side[0] + fz * H[(axis + 2) % 3] * side[1]
    va, vb = closing * share * e, -closing * (1.0 - share) * e
    block = fleet((-0.5 * e, va, qa, MASS), (0.5 * e + offset, vb, qb, mass_b))
    met = 0.0
    for _ in range(int(1.0 / closing / TICK) + 4):
        tick(block)
        met = max(met, block[0, OUT_COL + DRONE_IMPACT_SPEED])
        assert block[1, POSITION + axis] - block[0, POSITION + axis] > 0.0, "passed through"
        assert overlap(block, 0, 1) < 1e-9
    assert abs(met - closing) < 1e-9 * closing
    # the restitution law: they part at drone_restitution × the closing speed (above rest speed)
    parting = block[1, VELOCITY + axis] - block[0, VELOCITY + axis]
    assert abs(parting - P.drone_restitution * closing) < 1e-9 * closing


@settings(max_examples=300, deadline=None)
@given(attitudes, attitudes, st.tuples(*[st.floats(-10.0, 10.0)] * 3), st.tuples(*[st.floats(-10.0, 10.0)] * 3),
       st.tuples(*[st.floats(-0.4, 0.4)] * 3), st.floats(0.03, 0.5), st.floats(0.03, 0.5))
def test_momentum_is_conserved_and_energy_never_grows(qa, qb, va, vb, start, ma, mb):
    """Any two free drones, any masses, velocities and attitudes, starting near each other:
    the impulses are equal and opposite (total momentum kept), and the bounce (restitution
    ≤ 1) and friction only take kinetic energy away."""
    block = fleet((np.zeros(3), va, qa, ma), (np.array(start), vb, qb, mb))
    p0 = momentum(block)
    for _ in range(10):
        e0 = 0.5 * (block[:, MASS_COL] * (block[:, VELOCITY:VELOCITY + 3] ** 2).sum(axis=1)).sum()
        rows = np.arange(2, dtype=np.int64)
        block[:, PREVIOUS_POSITION:PREVIOUS_POSITION + 3] = block[:, POSITION:POSITION + 3]
        block[:, POSITION:POSITION + 3] += block[:, VELOCITY:VELOCITY + 3] * TICK
        resolve_drone_contacts(block, rows, 0, SIZE_COL, MASS_COL, OUT_COL, PARAMS, TICK)
        e1 = 0.5 * (block[:, MASS_COL] * (block[:, VELOCITY:VELOCITY + 3] ** 2).sum(axis=1)).sum()
        assert e1 <= e0 * (1.0 + 1e-12) + 1e-15
    assert np.abs(momentum(block) - p0).max() <= 1e-12 * (1.0 + np.abs(p0).max() + 10.0 * (ma + mb))


def test_a_hit_is_reported_to_both_with_the_other_row_and_the_normal():
    """Drone 0 flies east at 2 m/s into drone 1, hovering: both are told (an impact faster than
    the rest speed), each the other's row and the normal out of the other."""
    block = fleet(((0.0, 0.0, 5.0), (2.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), MASS),
                  ((0.19, 0.0, 5.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), MASS),
                  ((5.0, 5.0, 5.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), MASS))
    flagged, hit = [], None
    for _ in range(12):
        flagged.append(tick(block))
        if flagged[-1]:
            hit = block.copy()
    assert sum(flagged) == 2 and max(flagged) == 2  # one tick, both drones
    block = hit
    out = block[:, OUT_COL:]
    assert out[0, OTHER_ROW] == 1 and out[1, OTHER_ROW] == 0 and out[2, OTHER_ROW] == -1
    assert out[0, DRONE_IMPACT_SPEED] == out[1, DRONE_IMPACT_SPEED] == 2.0
    assert int(out[0, EVENTS]) == int(out[1, EVENTS]) == DRONE_IMPACT_EVENT and out[2, EVENTS] == 0
    assert tuple(out[0, DRONE_NORMAL:DRONE_NORMAL + 3]) == (-1.0, 0.0, 0.0)
    assert tuple(out[1, DRONE_NORMAL:DRONE_NORMAL + 3]) == (1.0, 0.0, 0.0)
    # equal masses, e = 0.3: v0' = (1 − e)/2 · 2, v1' = (1 + e)/2 · 2
    assert abs(block[0, VELOCITY] - (1.0 - P.drone_restitution)) < 1e-12
    assert abs(block[1, VELOCITY] - (1.0 + P.drone_restitution)) < 1e-12


GROUND = pack_geometry(LevelGeometry.flat(0.0))


def landing(dx: float, vx: float = 0.0, seconds: float = 2.0):
    """Drone 1 rests on the ground; drone 0 falls onto it from 0.5 m, offset dx along x, and
    sliding at vx. Yields the block after every tick."""
    h = 0.5 * SIZE[2]
    block = fleet(((dx, 0.0, 2 * h + 0.5), (vx, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), MASS),
                  ((0.0, 0.0, h), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), MASS))
    block[1, OUT_COL + RESTING] = 1.0
    for _ in range(round(seconds / TICK)):
        tick(block, G, GROUND)
        yield block


def test_a_drone_landing_on_another_is_held_on_its_top():
    """Dropped from 0.5 m onto a grounded drone: it bounces (e = 0.3) and comes to rest on
    the other's top, never below it; the one underneath never sinks into the ground."""
    h = 0.5 * SIZE[2]
    for block in landing(dx=0.05):
        assert block[0, POSITION + 2] - h >= 2 * h - 1e-9, "through the drone underneath"
        assert block[1, POSITION + 2] - h >= -1e-9, "pushed into the ground"
    assert abs(block[0, POSITION + 2] - 3 * h) < 1e-9 and abs(block[0, VELOCITY + 2]) < 1e-9
    assert block[0, POSITION] == 0.05 and block[1, OUT_COL + RESTING] == 1.0


def test_a_drone_sliding_on_another_stops_as_coulomb_friction_says():
    """Sliding at 0.5 m/s on the other's top, pressed by its weight: friction μ g decelerates
    it, so it stops after v²/(2 μ g) ≈ 4.2 cm."""
    v = 0.5
    ticks = list(landing(dx=0.0, vx=0.0, seconds=1.0))  # at rest on top after 1 s
    block = ticks[-1].copy()
    block[0, VELOCITY] = v
    x0 = block[0, POSITION]
    for _ in range(240):
        tick(block, G, GROUND)
    mu = P.drone_friction
    assert abs(block[0, VELOCITY]) < 1e-12
    assert abs((block[0, POSITION] - x0) - v * v / (2 * mu * G)) < 0.05 * v * v / (2 * mu * G)


def test_a_drone_sliding_off_the_edge_falls_beside_never_into():
    """Sliding at 2 m/s (it would need 68 cm to stop) off the 17.5 cm top: it leaves the edge,
    falls, and lands on the ground beside the other drone, never inside it."""
    h = 0.5 * SIZE[2]
    block = list(landing(dx=0.0, seconds=1.0))[-1].copy()
    block[0, VELOCITY] = 2.0
    for _ in range(480):
        tick(block, G, GROUND)
        assert overlap(block, 0, 1) < 1e-9
    assert abs(block[0, POSITION + 2] - h) < 1e-9  # on the ground
    assert block[0, POSITION] > SIZE[0]  # beside the other, past its edge


def test_a_hundred_drones_in_one_call():
    """A swarm of 100 drones in a 4 m cube flying about for a second: every contact is
    answered in the one call per tick, none passes through another, momentum is kept."""
    rng = np.random.default_rng(16)
    drones = [(rng.uniform(0.0, 4.0, 3), rng.uniform(-8.0, 8.0, 3), from_euler(*rng.uniform(-0.4, 0.4, 2), rng.uniform(-3, 3)),
               rng.uniform(0.05, 0.2)) for _ in range(100)]
    block = fleet(*drones)
    p0 = momentum(block)
    meetings = 0
    for _ in range(240):
        flagged = tick(block)
        met = np.flatnonzero(block[:, OUT_COL + OTHER_ROW] >= 0)
        for i in met:  # each knows whom it met, and that one knows it met someone
            assert block[int(block[i, OUT_COL + OTHER_ROW]), OUT_COL + OTHER_ROW] >= 0
        assert flagged == np.count_nonzero(block[:, OUT_COL + EVENTS])
        meetings += len(met)
    assert meetings > 0, "the swarm must meet"
    assert np.abs(momentum(block) - p0).max() < 1e-9


def test_a_broken_drone_meets_no_one():
    """A drone whose numbers went nan (a fault elsewhere) right where another flies: the
    other is left alone, not poisoned."""
    block = fleet(((0.0, 0.0, 5.0), (1.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), MASS),
                  ((0.1, 0.0, 5.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), MASS))
    block[1, POSITION] = np.nan
    for _ in range(10):
        assert tick(block) == 0
    assert np.isfinite(block[0]).all() and block[0, OUT_COL + OTHER_ROW] == -1
    assert block[0, VELOCITY] == 1.0


def test_the_contact_benches_run():
    """`.venv/bin/python -m game.contact_bench` (figures for `donify bench`): every bench
    runs its ticks (a smoke test, nothing timed is asserted)."""
    for label, bench, _target in contact_benches():
        wall, ticks = bench(0.05)
        assert ticks == 12 and wall > 0.0, label
