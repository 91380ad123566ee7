"""The SDK moves' geometry and timing (flight/sdk_moves.py), alone: body-frame targets, the
arc of `curve`, the carrot's profile, the turn's and the flip's phases."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from flight import sdk_moves as sm

cm = st.integers(-500, 500).map(lambda v: v / 100.0)


@settings(max_examples=60, deadline=None)
@given(yaw=st.floats(-math.pi, math.pi), x=cm, y=cm, z=cm)
def test_body_offsets_turn_with_the_heading(yaw, x, y, z):
    wx, wy, wz = sm.body_to_world(yaw, (x, y, z))
    # forward is the heading's direction, left 90° counter-clockwise of it, up is up
    assert math.isclose(wx, x * math.cos(yaw) - y * math.sin(yaw), abs_tol=1e-12)
    assert math.isclose(wy, x * math.sin(yaw) + y * math.cos(yaw), abs_tol=1e-12)
    assert wz == z
    back = sm.world_to_body(yaw, (wx, wy, wz))
    assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(back, (x, y, z)))


def _fly_carrot(move: sm.Move, dt: float = 1 / 60):
    """The carrot alone, as a perfect follower would see it: (time to stop, top speed, points)."""
    t, top, points = 0.0, 0.0, []
    while move.s < move.path.length and t < 100:
        sp = move.update(dt)
        t += dt
        top = max(top, math.hypot(*sp.velocity))
        points.append((sp.hold_xy[0], sp.hold_xy[1], sp.altitude))
    return t, top, points


@settings(max_examples=25, deadline=None)
@given(distance=st.integers(20, 500), speed=st.integers(10, 100), yaw=st.floats(-3.0, 3.0))
def test_a_straight_move_ends_at_its_target_at_the_commanded_speed(distance, speed, yaw):
    d, v = distance / 100.0, speed / 100.0
    move = sm.Move.straight((1.0, 2.0, 3.0), yaw, (d, 0.0, 0.0), v)
    assert math.dist(move.target, (1.0 + d * math.cos(yaw), 2.0 + d * math.sin(yaw), 3.0)) < 1e-9
    t, top, points = _fly_carrot(move)
    assert top <= v + 1e-9  # never faster than commanded
    assert math.dist(points[-1], move.target) < 1e-9
    # accelerating and braking at 1 m/s²: the planned duration (trapezoid or triangle)
    ramp = v / sm.MOVE_ACCELERATION_M_S2
    planned = d / v + ramp if d >= v * ramp else 2.0 * math.sqrt(d / sm.MOVE_ACCELERATION_M_S2)
    assert abs(t - planned) < 0.1 + 0.02 * planned
    assert abs(move.planned_s - planned) < 1e-9


def test_the_arc_of_curve_passes_through_both_points():
    # start (0, 0), via 1 m forward 1 m left, end 2 m forward: the circle of radius 1 m around (1, 0)
    move = sm.Move.curve((0.0, 0.0, 1.0), 0.0, (1.0, 1.0, 0.0), (2.0, 0.0, 0.0), 0.5)
    assert math.isclose(move.path.radius, 1.0, rel_tol=1e-9)
    assert math.isclose(move.path.length, math.pi, rel_tol=1e-9)  # half a circle
    _, top, points = _fly_carrot(move)
    assert top <= 0.5 + 1e-9
    assert all(abs(math.dist((p[0], p[1]), (1.0, 0.0)) - 1.0) < 1e-9 for p in points)
    assert min(math.dist(p, (1.0, 1.0, 1.0)) for p in points) < 0.01  # it went through `via`
    assert math.dist(points[-1], (2.0, 0.0, 1.0)) < 1e-9


def test_curves_the_drone_refuses():
    assert sm.Move.curve((0, 0, 0), 0.0, (1.0, 0.0, 0.0), (2.0, 0.0, 0.0), 0.5) is None  # a line
    assert sm.Move.curve((0, 0, 0), 0.0, (0.2, 0.2, 0.0), (0.4, 0.0, 0.0), 0.5) is None  # radius 0.2 m < 0.5 m
    # sagitta 0.5 m over a 5 m half chord: R = (5² + 0.5²) / (2 × 0.5) = 25.25 m > 10 m
    assert sm.Move.curve((0, 0, 0), 0.0, (5.0, 0.5, 0.0), (10.0, 0.0, 0.0), 0.5) is None
    # sagitta 1 m over a 2 m half chord: R = (2² + 1²) / 2 = 2.5 m: flown
    assert math.isclose(sm.Move.curve((0, 0, 0), 0.0, (2.0, 1.0, 0.0), (4.0, 0.0, 0.0), 0.5).path.radius, 2.5)


def test_a_move_is_finished_within_5_cm_and_settled():
    move = sm.Move.straight((0.0, 0.0, 1.0), 0.0, (1.0, 0.0, 0.0), 1.0)
    _fly_carrot(move)
    assert move.arrived((1.04, 0.0, 1.0), (0.0, 0.0, 0.0))
    assert not move.arrived((1.06, 0.0, 1.0), (0.0, 0.0, 0.0))
    assert not move.arrived((1.0, 0.0, 1.0), (0.2, 0.0, 0.0))


def test_a_turn_commands_its_rate_toward_the_heading_and_brakes():
    turn = sm.Turn(0.0, math.radians(-90.0), (0.0, 0.0, 1.0))
    first = turn.update(0.0, 1 / 60)
    assert first.yaw_rate == -sm.TURN_RATE_RAD_S  # clockwise at the turn rate
    near = turn.update(math.radians(-89.0), 1 / 60)
    assert -math.sqrt(2 * sm.TURN_ACCELERATION_RAD_S2 * math.radians(1.0)) - 1e-9 <= near.yaw_rate < 0.0
    assert turn.arrived(0.0)


def test_a_flip_climbs_turns_over_then_recovers():
    flip = sm.Flip("f", 2.0)
    collective, stick = flip.update((0.0, 0.0, 0.0), 0.1)
    assert flip.phase == "boost" and stick == (0.0, 0.0) and collective == sm.FLIP_BOOST_COLLECTIVE
    flip.update((0.0, 0.0, 0.0), sm.FLIP_BOOST_S)
    assert flip.phase == "over"
    steps = 0
    while flip.phase == "over":
        collective, stick = flip.update((0.0, sm.FLIP_RATE_RAD_S, 0.0), 0.01)  # nose down: +y body rate
        steps += 1
    assert stick == (0.0, 1.0)
    # at the flip rate the turn over takes release angle / rate
    assert abs(steps * 0.01 - sm.FLIP_RELEASE_RAD / sm.FLIP_RATE_RAD_S) < 0.02
    assert flip.recovered(0.0, (0.0, 0.0, 0.0))
    assert not sm.Flip("l", 1.0).recovered(0.0, (0.0, 0.0, 0.0))  # not before turning over
