"""A crowd of drones flown at random, close together, in the street: nobody goes non-finite,
into a solid or through another drone, whatever the sticks and the frame lengths."""

from __future__ import annotations

import itertools
import math
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components.flight import RigidBody
from components.layout import OTHER_ROW
from components.world import Collider
from game.simulation import Simulation
from tests.solids import Referee, envelopes_depth

EXAMPLES = int(os.environ.get("DONIFY_PROPERTY_EXAMPLES", "4"))
TICK_S = 1.0 / 240.0
SOLID_TOL_M = 3e-3  # as the random flights (tests/property/test_random_flights.py): resting overlap and more
BUTTONS = ("", "Y", "A", "LS", "X", "B")

stick = st.tuples(st.floats(-1.0, 1.0), st.floats(-1.0, 1.0))
moves = st.lists(st.tuples(stick, stick, st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.sampled_from(BUTTONS)),
                 min_size=4, max_size=4)


CENTRE = (6.0, -1.0, 1.2)  # above the street's road, clear of every solid
RADIUS_M = 1.5


def _around(i: int, n: int, lift: float) -> tuple[tuple[float, float, float], float]:
    """The i-th of n places on a circle round CENTRE, and the heading that faces the centre."""
    a = 2.0 * math.pi * i / n
    x, y, z = CENTRE
    return (x + RADIUS_M * math.cos(a), y + RADIUS_M * math.sin(a), z + lift), math.degrees(a) + 180.0


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans=st.lists(moves, min_size=6, max_size=6), frames=st.lists(st.floats(1 / 144, 1 / 24), min_size=8,
                                                                       max_size=8),
       lifts=st.lists(st.floats(-0.03, 0.03), min_size=6, max_size=6), seed=st.integers(0, 999))
def test_a_crowd_never_passes_through_itself_or_the_street(plans, frames, lifts, seed):
    """Six drones on a circle of 1.5 m all fly to its centre at 4 m/s (they meet there, head on
    and sideways), then each flies its own random sticks, buttons and triggers."""
    places = [_around(i, 6, lifts[i]) for i in range(6)]
    with Simulation("street", seed=seed, position=places[0][0], yaw_deg=places[0][1]) as sim:
        size = sim.vehicle.envelope_size_m
        drones = [sim.drones[0]] + [sim.add_drone(position=p, yaw_deg=yaw) for p, yaw in places[1:]]
        referee = Referee(sim.level, size, sim.level.ground.height)
        for d in drones:
            d.pad.rt = 1.0
        sim.run(1.0)  # MotorPower 0.5: a 4 m/s cruise, hovering where they are
        for d in drones:
            d.pad.rt = 0.0
            d.pad.left = (0.0, 1.0)  # all towards the centre
        met = 0  # drone-frames ending in touch with another drone
        for step in range(5 * 60):  # the rush to the centre, then 4 phases of about 1 s of random flying
            phase = step // 60 - 1
            for d, plan in zip(drones, plans):
                if step % 60 == 0 and phase >= 0:
                    left, right, lt, rt, button = plan[phase]
                    d.pad.left, d.pad.right, d.pad.lt, d.pad.rt = left, right, lt * 0.5, rt * 0.5
                    for held in list(d.pad.held):
                        d.pad.release(held)
                    if button:
                        d.pad.press(button)
                elif step == 1:
                    d.pad.left = (0.0, 0.0)  # the flick chose the way; neutral keeps it
            sim.step(frames[step % len(frames)])
            bodies = [(d, d.telemetry()) for d in drones]
            met += sum(d.components(Collider)[0].results[OTHER_ROW] >= 0 for d in drones)
            for d, t in bodies:
                assert all(math.isfinite(v) for v in (*t.position, *t.velocity, *t.quaternion)), d
                (body,) = d.components(RigidBody)
                depth, what = referee.depth(body.position, body.quaternion)
                assert depth < SOLID_TOL_M, f"drone {d.entity} {depth * 1000:.1f} mm into {what or 'the ground'}"
            for (a, ta), (b, tb) in itertools.combinations(bodies, 2):
                depth = envelopes_depth(ta.position, ta.quaternion, tb.position, tb.quaternion, size)
                # the contacts part every pair at the end of each tick; a three-drone push may leave
                # at most one tick's relative travel for the next tick to resolve
                closing = math.dist(ta.velocity, tb.velocity)
                assert depth <= closing * TICK_S + 1e-3, (
                    f"drones {a.entity} and {b.entity} {depth * 1000:.1f} mm into each other (closing {closing:.1f} m/s)")
        assert met > 0  # the crowd did meet: the checks above were put to the test
