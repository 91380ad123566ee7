"""The trail's rule, at any frame length: a real position about every 0.2 s while moving,
nothing while standing still, at most 1 200 points (the oldest dropped)."""

from __future__ import annotations

import math

import esper
import pytest
from hypothesis import given, settings, strategies as st

from components.flight import RigidBody
from components.world import Trail
from engine import App
from systems.trail import MOVING_SPEED_M_S, RecordTrail

INTERVAL_S = 0.2  # the trail's spacing in time
FRAMES_S = st.floats(1.0 / 240.0, 0.05)  # a fast monitor's frame … a stutter
PHASES = st.lists(st.tuples(st.booleans(), st.lists(FRAMES_S, min_size=1, max_size=120)), min_size=1, max_size=12)


def _fly(phases):
    """Fly `phases` of (moving?, frame lengths) through RecordTrail; per frame: moving?, dt,
    points before, points after."""
    app = App()
    try:
        body, trail = RigidBody(), Trail()
        esper.create_entity(body, trail)
        record = RecordTrail()
        log = []
        for moving, frames in phases:
            for dt in frames:
                body.velocity = (3.0, 4.0, 0.0) if moving else (0.0, 0.0, 0.0)
                before = len(trail.points)
                body.position = body.position + body.velocity * dt
                record.process(dt)
                log.append((moving, dt, before, len(trail.points)))
        return log
    finally:
        app.close()


@settings(max_examples=150, deadline=None)
@given(PHASES)
def test_a_point_about_every_fifth_of_a_second_while_moving_and_none_while_still(phases):
    log = _fly(phases)
    longest_s = max(dt for _, dt, _, _ in log)
    since_point, since_move = None, None  # game time since the last point; since moving began
    for moving, dt, before, after in log:
        since_point = None if since_point is None else since_point + dt
        since_move = (since_move + dt if since_move is not None else dt) if moving else None
        assert after - before in ((0, 1) if moving else (0,))  # never a burst; never while still
        if after > before:
            if since_point is not None:  # never two points closer than a fifth of a second, a frame aside
                assert since_point >= INTERVAL_S - longest_s - 1e-9
            since_point = 0.0
        elif moving:  # while moving, no gap longer than a fifth of a second and a frame
            gap = since_move if since_point is None else min(since_point, since_move)
            assert gap < INTERVAL_S + longest_s + 1e-9


def test_standing_still_is_below_five_centimetres_a_second():
    assert MOVING_SPEED_M_S == pytest.approx(0.05)


def test_at_most_1200_points_the_oldest_dropped():
    log = _fly([(True, [1.0 / 60.0] * (60 * 250))])  # 250 s moving: 1 250 samples
    assert log[-1][3] == 1200
    assert math.isclose(sum(dt for _, dt, _, _ in log), 250.0, rel_tol=1e-9)
