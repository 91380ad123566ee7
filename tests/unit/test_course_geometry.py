"""Gate passage (world/course.py): the segment of the centre of mass between two ticks crosses
the gate's plane inside its opening, forwards — at every speed the game reaches, at grazing
angles, on the opening's edges, for tilted gates and rings."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from world.course import MISS_MARGIN_M, Gate, gate_crossed, gate_missed, medal, plane_crossing

TICK_S = 1.0 / 240.0  # the fixed step (docs/model.md): the segment between two ticks
MM = 1e-3


def along(heading_deg: float, tilt_deg: float = 0.0) -> tuple[float, float, float]:
    """The direction of passage from first principles: heading about Z from +X, raised by the tilt."""
    h, t = math.radians(heading_deg), math.radians(tilt_deg)
    return (math.cos(t) * math.cos(h), math.cos(t) * math.sin(h), math.sin(t))


def across(heading_deg: float) -> tuple[float, float, float]:
    h = math.radians(heading_deg)
    return (-math.sin(h), math.cos(h), 0.0)


def up(heading_deg: float, tilt_deg: float) -> tuple[float, float, float]:
    """The opening's top direction: vertical, leaning back by the tilt (nose up) about the across axis."""
    h, t = math.radians(heading_deg), math.radians(tilt_deg)
    return (-math.sin(t) * math.cos(h), -math.sin(t) * math.sin(h), math.cos(t))


def add(p, *terms):
    out = list(p)
    for scale, v in terms:
        for k in range(3):
            out[k] += scale * v[k]
    return tuple(out)


def crossings(gate: Gate, direction, speed: float, through, phase: float, span_s: float = 1.0) -> list[float]:
    """Fly at `speed` along `direction` through the point `through` (reached `phase` of a tick
    after a tick boundary), one segment per tick over `span_s` either side: the passages."""
    ticks = int(span_s / TICK_S)
    found = []
    for k in range(-ticks, ticks):
        t0, t1 = (k - phase) * TICK_S, (k + 1 - phase) * TICK_S
        p0 = add(through, (speed * t0, direction))
        p1 = add(through, (speed * t1, direction))
        f = gate_crossed(gate, p0, p1)
        if f is not None:
            found.append(t0 + f * (t1 - t0))
    return found


@pytest.mark.parametrize("speed", [0.5, 1.0, 3.0, 8.0, 20.0, 50.0, 96.0, 100.0])
@pytest.mark.parametrize("phase", [0.0, 0.37, 0.999])
def test_a_pass_through_the_centre_counts_once_at_any_speed(speed, phase):
    gate = Gate.make((10.0, -4.0, 3.0), 30.0, size=(1.0, 1.0))
    # at 96 m/s a tick is a 0.4 m segment, 40 % of this opening's width: still exactly one passage
    times = crossings(gate, along(30.0), speed, gate.centre, phase)
    assert len(times) == 1
    assert times[0] == pytest.approx(0.0, abs=1e-9)  # at the moment it is at the centre


@pytest.mark.parametrize("angle_deg", [1.0, 5.0, 15.0, 30.0, 45.0, 60.0, 89.0])
@pytest.mark.parametrize("speed", [0.5, 8.0, 96.0])
def test_grazing_passes_count_once(angle_deg, speed):
    heading = -60.0
    gate = Gate.make((0.0, 0.0, 5.0), heading, size=(4.0, 3.0))
    a = math.radians(angle_deg)  # to the plane: mostly along the opening's width
    direction = add((0.0, 0.0, 0.0), (math.cos(a), across(heading)), (math.sin(a), along(heading)))
    through = add(gate.centre, (0.5, across(heading)))
    assert len(crossings(gate, direction, speed, through, 0.5, span_s=0.2)) == 1


@pytest.mark.parametrize("tilt", [0.0, 25.0, -40.0])
@pytest.mark.parametrize("heading", [0.0, 90.0, 200.0])
def test_the_edges_of_a_rectangle_are_exact_to_the_millimetre(tilt, heading):
    w, h = 3.0, 2.0
    gate = Gate.make((5.0, 6.0, 4.0), heading, tilt, size=(w, h))
    n, a, u = along(heading, tilt), across(heading), up(heading, tilt)
    for axis, half in ((a, w / 2), (u, h / 2)):
        for side in (1.0, -1.0):
            for offset, expected in ((-MM, True), (MM, False)):
                point = add(gate.centre, (side * (half + offset), axis))
                p0, p1 = add(point, (-0.2, n)), add(point, (0.2, n))
                assert (gate_crossed(gate, p0, p1) is not None) is expected, (axis, side, offset)


@pytest.mark.parametrize("tilt", [0.0, 30.0])
def test_the_edge_of_a_ring_is_exact_to_the_millimetre(tilt):
    r = 1.5
    gate = Gate.make((0.0, 0.0, 6.0), 45.0, tilt, radius=r)
    n = along(45.0, tilt)
    for angle in (0.0, 1.0, 2.5, 4.0):
        radial = add((0, 0, 0), (math.cos(angle), across(45.0)), (math.sin(angle), up(45.0, tilt)))
        for offset, expected in ((-MM, True), (MM, False)):
            point = add(gate.centre, (r + offset, radial))
            assert (gate_crossed(gate, add(point, (-0.1, n)), add(point, (0.1, n))) is not None) is expected
    # a ring's corner region is outside: inside the bounding square, outside the circle
    corner = add(gate.centre, (0.8 * r, across(45.0)), (0.8 * r, up(45.0, tilt)))  # 1.13 r from the centre
    assert gate_crossed(gate, add(corner, (-0.1, n)), add(corner, (0.1, n))) is None


def test_the_wrong_direction_is_no_passage():
    gate = Gate.make((0.0, 0.0, 3.0), 0.0, size=(2.0, 2.0))
    assert gate_crossed(gate, (-0.1, 0.0, 3.0), (0.1, 0.0, 3.0)) == pytest.approx(0.5)
    assert gate_crossed(gate, (0.1, 0.0, 3.0), (-0.1, 0.0, 3.0)) is None
    assert crossings(gate, (-1.0, 0.0, 0.0), 8.0, gate.centre, 0.3) == []
    # along the plane, never through it
    assert gate_crossed(gate, (0.0, -0.5, 3.0), (0.0, 0.5, 3.0)) is None


def test_a_tilted_gate_is_passed_along_its_tilted_normal():
    # tilted 60° nose up: a horizontal pass meets it at 60° from its normal, still forwards…
    gate = Gate.make((0.0, 0.0, 5.0), 0.0, 60.0, size=(2.0, 2.0))
    assert gate_crossed(gate, (-0.1, 0.0, 5.0), (0.1, 0.0, 5.0)) is not None
    # …and a straight drop, 30° from the plane, goes through it backwards: no passage
    assert gate_crossed(gate, (0.0, 0.0, 5.1), (0.0, 0.0, 4.9)) is None
    assert gate_crossed(gate, (0.0, 0.0, 4.9), (0.0, 0.0, 5.1)) is not None
    # its opening reaches (h / 2) cos 60° = 0.5 m above the centre, not 1 m
    assert gate_crossed(gate, (-2.0, 0.0, 5.49), (2.0, 0.0, 5.49)) is not None
    assert gate_crossed(gate, (-2.0, 0.0, 5.51), (2.0, 0.0, 5.51)) is None


def test_a_miss_is_a_forward_crossing_just_outside_the_opening():
    gate = Gate.make((0.0, 0.0, 3.0), 0.0, size=(2.0, 2.0))
    beside = 1.0 + 0.5 * MISS_MARGIN_M
    assert gate_missed(gate, (-0.1, beside, 3.0), (0.1, beside, 3.0))
    assert not gate_missed(gate, (-0.1, 1.0 + MISS_MARGIN_M + 0.5, 3.0), (0.1, 1.0 + MISS_MARGIN_M + 0.5, 3.0))
    assert not gate_missed(gate, (-0.1, 0.0, 3.0), (0.1, 0.0, 3.0))  # a passage, not a miss
    assert not gate_missed(gate, (0.1, beside, 3.0), (-0.1, beside, 3.0))  # backwards


@pytest.mark.parametrize("time_s, expected", [(10.0, "gold"), (9.0, "gold"), (12.5, "silver"), (12.6, "bronze"),
                                              (15.0, "bronze"), (15.01, "none")])
def test_medals_against_par(time_s, expected):
    assert medal(time_s, 10.0) == expected  # gold ≤ par, silver ≤ 1.25 par, bronze ≤ 1.5 par


# -- properties ------------------------------------------------------------------------------
coords = st.floats(-20.0, 20.0, allow_nan=False)
points = st.tuples(coords, coords, coords)
gates = st.builds(lambda c, h, t, ring, a, b: Gate.make(c, h, t, radius=a) if ring else Gate.make(c, h, t, size=(a, b)),
                  points, st.floats(-180.0, 180.0), st.floats(-80.0, 80.0), st.booleans(),
                  st.floats(0.2, 10.0), st.floats(0.2, 10.0))


@settings(max_examples=300, deadline=None)
@given(gates, points, points, st.floats(0.001, 0.999))
def test_a_segment_crossed_in_two_halves_is_crossed_exactly_once(gate, p0, p1, s):
    mid = add(p0, (s, add(p1, (-1.0, p0))))
    assume(abs(gate.signed_distance(mid)) > 1e-9)  # the split point not on the plane to rounding
    whole = plane_crossing(gate, p0, p1)
    halves = [h for h in (plane_crossing(gate, p0, mid), plane_crossing(gate, mid, p1)) if h is not None]
    if whole is None:
        assert halves == []
        return
    assert len(halves) == 1
    if abs(_depth_inside(gate, whole)) > 1e-6:  # not on the opening's edge to rounding
        assert halves[0].inside == whole.inside


def _depth_inside(gate: Gate, c) -> float:
    """How far inside the opening (negative: outside) a crossing point lies."""
    if gate.is_ring:
        return gate.radius_m - math.hypot(c.across_m, c.up_m)
    return min(gate.width_m / 2 - abs(c.across_m), gate.height_m / 2 - abs(c.up_m))


@settings(max_examples=300, deadline=None)
@given(gates, points, points)
def test_a_segment_and_its_reverse_are_never_both_passages(gate, p0, p1):
    assert gate_crossed(gate, p0, p1) is None or gate_crossed(gate, p1, p0) is None


@settings(max_examples=200, deadline=None)
@given(gates, st.lists(points, min_size=2, max_size=30))
def test_along_any_path_forward_minus_backward_crossings_is_the_change_of_side(gate, path):
    forward = sum(plane_crossing(gate, a, b) is not None for a, b in zip(path, path[1:]))
    backward = sum(plane_crossing(gate, b, a) is not None for a, b in zip(path, path[1:]))
    before = gate.signed_distance(path[0]) < 0.0
    after = gate.signed_distance(path[-1]) < 0.0
    assert forward - backward == int(before) - int(after)
