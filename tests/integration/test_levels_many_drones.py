"""Every shipped level flown with several drones: the player, one drone on each of the level's
other spawn points, and the level's traffic — random sticks for all but the traffic, which
flies its routes. After every frame no drone is under the ground or inside a solid (the
independent referee of tests/solids.py), and every drone's telemetry is finite. And the
shipped traffic keeps away from where the player flies: the spawn pad, the courses' gates,
the mission's route at its transit altitude, the other spawn points."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components.flight import RigidBody
from game.simulation import Simulation
from systems.traffic import TrafficDrone
from tests.solids import Referee
from world.course import Gate
from world.level_file import load_level, shipped_levels

PENETRATION_TOL_M = 0.003  # as the random flights: the contact solver's resting overlap and more
FRAME_S = 1.0 / 60.0
SECONDS = 3.0
LEVELS = shipped_levels()

unit = st.floats(min_value=-1.0, max_value=1.0)
#: one drone's inputs: sticks, triggers and a button, each held for a random number of frames
inputs = st.lists(st.tuples(st.tuples(unit, unit), st.tuples(unit, unit), st.floats(0.0, 1.0), st.floats(0.0, 1.0),
                            st.sampled_from(["", "Y", "A", "X", "B", "LS"]), st.integers(5, 60)),
                  min_size=1, max_size=5)


def finite(telemetry) -> bool:
    values = [*telemetry.position, *telemetry.velocity, *telemetry.quaternion, *telemetry.angular_velocity,
              *telemetry.rpm, *telemetry.thrust, telemetry.motor_power, telemetry.battery_energy_wh, telemetry.damage]
    return all(math.isfinite(v) for v in values)


def test_every_shipped_level_has_more_than_one_place_to_start():
    for name in LEVELS:
        level = load_level(name)
        assert len(level.spawn_points(0.041)) + len(level.traffic) >= 3, name


@pytest.mark.parametrize("name", LEVELS)
@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
                                                                                    HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_shipped_level_flown_with_several_drones(name, data):
    level = load_level(name)
    with Simulation(name, seed=data.draw(st.integers(0, 1000), label="seed")) as sim:
        referee = Referee(level, sim.vehicle.envelope_size_m, level.ground.height)
        others = len(level.spawn_points(sim.vehicle.envelope_size_m[2])) - 1
        for _ in range(others):
            sim.add_drone()  # the next free spawn point
        sim.step()  # the traffic comes in
        assert len(sim.drones) == 1 + others + len(level.traffic)
        flown = sim.drones[:1 + others]  # creation order: the player, those added; the traffic after
        plans = [data.draw(inputs, label=f"drone {i}") for i in range(len(flown))]
        cursors = [[0, 0] for _ in flown]  # (step of the plan, frames left in it)
        for frame in range(round(SECONDS / FRAME_S)):
            for drone, plan, cursor in zip(flown, plans, cursors):
                if cursor[1] == 0:
                    left, right, lt, rt, button, frames = plan[cursor[0] % len(plan)]
                    pad = drone.pad
                    pad.left, pad.right, pad.lt, pad.rt = left, right, lt, rt
                    for held in list(pad.held):
                        pad.release(held)
                    if button:
                        pad.press(button)
                    cursor[0] += 1
                    cursor[1] = frames
                cursor[1] -= 1
            sim.step()
            for drone in sim.drones:
                t = drone.telemetry()
                assert finite(t), f"{name}: drone {drone.entity} non-finite at t={sim.time:.3f}"
                (body,) = drone.components(RigidBody)
                depth, what = referee.depth(body.position, body.quaternion)
                assert depth < PENETRATION_TOL_M, (f"{name}: drone {drone.entity} {depth * 1000:.1f} mm into "
                                                   f"{what or 'the ground'} at {list(t.position)} (t={sim.time:.3f})")


TRAFFIC_CLEARANCE_M = 5.0  # how far traffic keeps from where the player flies (levels/README.md#traffic)


def _segment_distance(p, a, b) -> float:
    ab = [b[k] - a[k] for k in range(3)]
    n = sum(v * v for v in ab)
    s = 0.0 if n == 0.0 else max(0.0, min(1.0, sum((p[k] - a[k]) * ab[k] for k in range(3)) / n))
    return math.dist(p, [a[k] + s * ab[k] for k in range(3)])


@pytest.mark.parametrize("name", [n for n in LEVELS if load_level(n).traffic])
def test_the_shipped_traffic_keeps_away_from_where_the_player_flies(name):
    """One whole lap of every route (its delay and its length), the player at rest: each traffic
    drone stays TRAFFIC_CLEARANCE_M from the spawn pad's column (up to the mission's transit
    altitude, where the mission climbs), from every other spawn point, from each course gate's
    opening, and from the mission's route (the legs at the transit altitude, the descent)."""
    level = load_level(name)
    with Simulation(name) as sim:
        h = sim.vehicle.envelope_size_m[2]
        spawn = level.spawn_position(h)
        top = level.mission.transit_altitude if level.mission else 30.0
        columns = [(spawn, (spawn[0], spawn[1], top))] + [(p, (p[0], p[1], top)) for p, _ in level.spawn_points(h)[1:]]
        route = level.route()
        legs = list(zip([(spawn[0], spawn[1], top)] + route[:-1], route))
        if level.mission is not None:
            arrival = level.pad(level.mission.arrival_pad)
            legs.append((route[-1], (arrival.position[0], arrival.position[1], arrival.top_m)))
        gates = [Gate.of(g) for c in level.courses for g in c.gates]
        sim.step()  # the traffic comes in
        lap_s = max(t.start_delay_s for t in level.traffic) + max(
            d.components(TrafficDrone)[0].route.seconds for d in sim.drones[1:])
        highest = {}
        for _ in range(round(lap_s / FRAME_S)):
            sim.step()
            for drone in sim.drones[1:]:
                p = drone.telemetry().position
                which = drone.components(TrafficDrone)[0].id
                highest[which] = max(highest.get(which, 0.0), p[2])
                for a, b in columns:
                    assert _segment_distance(p, a, b) > TRAFFIC_CLEARANCE_M, f"{which} at {p}: over a spawn point"
                for a, b in legs:
                    assert _segment_distance(p, a, b) > TRAFFIC_CLEARANCE_M, f"{which} at {p}: on the mission's route"
                for gate in gates:
                    reach = TRAFFIC_CLEARANCE_M + gate.half_extent_m
                    assert math.dist(p, gate.centre) > reach, f"{which} at {p}: through a course gate"
        assert set(highest) == {t.id for t in level.traffic}
        assert min(highest.values()) > 2.0, "every route flew"
