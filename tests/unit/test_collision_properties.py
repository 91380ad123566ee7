"""Property checks of the contact solver alone: resting, sliding, shots at walls and poles.

Each tick the solver gets the segment the centre of mass travelled. Whatever the attitude,
the speed, the yaw of the box or a rounding error that leaves the start a hair inside the
grown solid, the drone must stay on the side of the surface it came from: a drone touching a
face was once moved to the opposite face (through roofs, under pads), a tilted drone once
passed a thin pole at high speed, and resting on a canopy once threw it sideways.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings, strategies as st

from tests.solids import Referee
from world.collision import ContactSolver
from world.geometry import BoxRow, CylinderRow, LevelGeometry, envelope
from flight.quat import from_euler

SIZE = (0.1752, 0.1697, 0.041)
TICK = 1 / 240


tilt = st.floats(-0.45, 0.45)
attitudes = st.builds(from_euler, tilt, tilt, st.floats(-math.pi, math.pi))


class _Level:
    """The minimum of a level the referee reads, for one solid."""

    def __init__(self, boxes=(), cylinders=()):
        from types import SimpleNamespace as N
        self.boxes = [N(id=b[0], position=b[1], size=b[2], yaw_deg=b[3]) for b in boxes]
        self.platforms, self.pads, self.street = [], [], None
        self.cylinders = [N(id=c[0], position=c[1], radius=c[2], height=c[3], kind="pole", canopy_radius=0.0,
                            canopy_base=0.0) for c in cylinders]
        self.ground = N(height=0.0)


def box_geometry(position, size, yaw_deg):
    yaw = math.radians(yaw_deg)
    row = BoxRow(position[0], position[1], position[2] + size[2] / 2, size[0] / 2, size[1] / 2, size[2] / 2,
                 math.cos(yaw), math.sin(yaw), "b", "building")
    return LevelGeometry(ground_z_m=None, boxes=(row,)), _Level(boxes=[("b", position, size, yaw_deg)])


@settings(max_examples=300, deadline=None)
@given(attitudes, attitudes, st.floats(-2.0, 2.0), st.floats(-2.0, 2.0), st.floats(-1e-9, 1e-9),
       st.tuples(st.floats(-0.05, 0.05), st.floats(-0.05, 0.05), st.floats(-0.05, 0.05)), st.floats(-90, 90))
def test_a_tick_starting_on_a_roof_ends_on_the_roof(q0, q1, fx, fy, rounding, move, yaw_deg):
    """Start on the roof of a 9 m building (a rounding error either way), any attitude change,
    any small move: the end is on or above the roof, never anywhere else."""
    geometry, level = box_geometry((0.0, 0.0, 0.0), (6.0, 5.0, 9.0), yaw_deg)
    solver = ContactSolver(geometry)
    ez0 = envelope(q0, SIZE).vertical_half_m
    start = [fx, fy, 9.0 + ez0 + rounding]
    end = [start[0] + move[0], start[1] + move[1], start[2] + move[2]]
    v = [m / TICK for m in move]
    solver.step(end, start, v, q1, None, SIZE, TICK)
    ez1 = envelope(q1, SIZE).vertical_half_m
    assert end[2] >= 9.0 + ez1 - 1e-9 or not solver.contact and end[2] > 9.0, (start, end)
    depth, what = Referee(level, SIZE, None).depth(end, q1)
    assert depth < 1e-6, f"{depth} into {what}"
    assert math.dist(end, start) <= math.dist(start, [start[i] + move[i] for i in range(3)]) + max(0.0, ez1 - ez0) + 1e-6


@settings(max_examples=200, deadline=None)
@given(attitudes, st.floats(0.5, 100.0), st.floats(-60, 60), st.floats(-1.2, 1.2), st.floats(-90, 90))
def test_shots_at_a_wall_stay_on_the_near_side(q, speed, angle_deg, offset, yaw_deg):
    """A wall 0.3 m thick: shots at 0.5–100 m/s at any angle stop on the near side."""
    yaw = math.radians(yaw_deg)
    geometry, level = box_geometry((0.0, 0.0, 0.0), (4.0, 0.3, 3.0), yaw_deg)
    solver = ContactSolver(geometry)
    nx, ny = -math.sin(yaw), math.cos(yaw)  # the wall's +Y face normal in world
    tx, ty = math.cos(yaw), math.sin(yaw)
    a = math.radians(angle_deg)
    dirx, diry = -nx * math.cos(a) + tx * math.sin(a), -ny * math.cos(a) + ty * math.sin(a)
    p = [nx * 1.0 + tx * offset, ny * 1.0 + ty * offset, 1.5]
    v = [dirx * speed, diry * speed, 0.0]
    for _ in range(int(3.0 / speed / TICK) + 4):
        prev = list(p)
        p = [p[i] + v[i] * TICK for i in range(3)]
        solver.step(p, prev, v, q, None, SIZE, TICK)
        side = (p[0] * nx + p[1] * ny)
        along = p[0] * tx + p[1] * ty
        if abs(along) < 2.0:  # in front of the wall, not past its end
            assert side > 0.15, f"through the wall: {side:.3f} m from its centre plane"
        depth, what = Referee(level, SIZE, None).depth(p, q)
        assert depth < 1e-6, f"{depth} into {what}"


@settings(max_examples=300, deadline=None)
@given(attitudes, st.floats(5.0, 100.0), st.floats(-0.15, 0.15), st.floats(0, 2 * math.pi))
def test_no_pass_through_a_thin_pole_at_any_speed(q, speed, miss_m, heading):
    """A 0.08 m lamp pole: a tilted drone flying at it up to 100 m/s stops before it whenever
    its envelope would overlap the pole on the way (its path within r + the envelope's half
    width of the axis)."""
    r = 0.08
    geometry = LevelGeometry(ground_z_m=None, cylinders=(CylinderRow(0.0, 0.0, r, 0.0, 6.0, "pole", "pole"),))
    level = _Level(cylinders=[("pole", (0.0, 0.0, 0.0), r, 6.0)])
    solver = ContactSolver(geometry)
    ux, uy = math.cos(heading), math.sin(heading)
    px, py = -uy, ux
    p = [-ux * 1.5 + px * miss_m, -uy * 1.5 + py * miss_m, 3.0]
    v = [ux * speed, uy * speed, 0.0]
    referee = Referee(level, SIZE, None)
    for _ in range(int(3.0 / speed / TICK) + 4):
        prev = list(p)
        p = [p[i] + v[i] * TICK for i in range(3)]
        solver.step(p, prev, v, q, None, SIZE, TICK)
        depth, what = referee.depth(p, q)
        assert depth < 1e-6, f"{depth * 1000:.2f} mm into the pole at {speed:.1f} m/s"


@settings(max_examples=200, deadline=None)
@given(attitudes, attitudes, st.floats(-1.0, 1.0), st.floats(-1.0, 1.0), st.floats(-1e-9, 1e-9))
def test_resting_on_a_canopy_never_throws_sideways(q0, q1, fx, fy, rounding):
    """On top of a tree's canopy (r 2.5 m): an attitude change is no reason to move sideways."""
    geometry = LevelGeometry(ground_z_m=None, cylinders=(CylinderRow(0.0, 0.0, 2.5, 3.0, 7.0, "oak", "canopy"),))
    solver = ContactSolver(geometry)
    ez0 = envelope(q0, SIZE).vertical_half_m
    start = [fx, fy, 7.0 + ez0 + rounding]
    end = list(start)
    end[2] -= 0.001  # pressed down by gravity
    solver.step(end, start, [0.0, 0.0, -0.24], q1, None, SIZE, TICK)
    ez1 = envelope(q1, SIZE).vertical_half_m
    assert math.hypot(end[0] - start[0], end[1] - start[1]) < 1e-9
    assert end[2] >= 7.0 + ez1 - 1e-9
