"""Assists in the shipped levels (docs/model.md#assists; issue #5 item 7).

Figures from docs/model.md: take-off aims 1.5 m above the support found under the drone; landing
descends at ≤ 0.7 m/s onto the surface it measured (raised or not) and only a real contact
cuts the motors; the mission transits at 18 m (world) and ends on the arrival pad; the
trail keeps a point about every 0.2 s, at most 1 200.
"""

import math

import pytest

from components.world import Collider
from flight.assists import LANDING_MAX_SPEED_M_S, MISSION_SPEED_M_S, TAKEOFF_HEIGHT_M, landing_refusal
from world.level import Box
from world.level_file import load_level
from world.sensing import Support

FRAME = 1 / 60
TAKEOFF_M = 1.5  # docs/model.md#assists
MAX_DESCENT = 0.7  # docs/model.md#assists
TRANSIT_Z = 18.0  # docs/model.md#assists


def record(sim, seconds, until=None):
    out = []
    for _ in range(round(seconds * 60)):
        sim.step()
        out.append(sim.telemetry())
        if until is not None and until(out[-1]):
            break
    return out


def press(sim, button):
    sim.pad.press(button)
    t = record(sim, FRAME)
    sim.pad.release(button)
    return t


def continuous(log):
    """No frame moves more than |v|·dt + 1 mm: nothing is ever teleported."""
    for a, b in zip(log, log[1:]):
        v = max(math.hypot(*a.velocity), math.hypot(*b.velocity))
        assert math.dist(a.position, b.position) <= v * FRAME + 1e-3, (a.time, a.mode, b.mode)


def test_the_constants_follow_model():
    assert TAKEOFF_HEIGHT_M == TAKEOFF_M and LANDING_MAX_SPEED_M_S == MAX_DESCENT


def take_off_and_land(sim, surface_top):
    half = 0.5 * sim.vehicle.envelope_size_m[2]
    log = press(sim, "X")
    assert log[-1].mode == "takeoff"
    log += record(sim, 8.0, until=lambda t: t.mode == "manual")
    assert log[-1].mode == "manual" and log[-1].armed  # handed back, holding that low height
    assert log[-1].position[2] == pytest.approx(surface_top + TAKEOFF_M, abs=0.1)
    log += record(sim, 2.0)
    assert log[-1].position[2] == pytest.approx(surface_top + TAKEOFF_M, abs=0.1)
    log += press(sim, "B")
    assert log[-1].mode == "landing"
    log += record(sim, 12.0, until=lambda t: t.mode == "manual")
    touchdown = log[-1]
    assert touchdown.mode == "manual" and touchdown.motor_power == 0.0 and not touchdown.armed
    assert touchdown.contact
    descent = [t for t in log if t.mode == "landing"]
    assert max(-t.velocity[2] for t in descent) <= MAX_DESCENT + 0.05  # commanded ≤ 0.7 m/s
    assert -descent[-1].velocity[2] <= MAX_DESCENT
    log += record(sim, 1.0)
    assert log[-1].position[2] == pytest.approx(surface_top + half, abs=1e-3)  # resting on it
    assert math.hypot(*log[-1].velocity) < 1e-3
    continuous(log)
    return log


def test_take_off_and_land_on_the_start_pad(make_sim):
    sim = make_sim("street")
    pad_top = sim.level.spawn.top_m
    log = take_off_and_land(sim, pad_top)
    start = log[0].position
    assert math.hypot(log[-1].position[0] - start[0], log[-1].position[1] - start[1]) < 0.1


def test_take_off_and_land_on_the_raised_platform(make_sim):
    level = load_level("street")
    deck = next(p for p in level.platforms if p.id == "deck")
    top = deck.top_m
    assert top > level.spawn.top_m + 2.0  # really raised
    half = 0.5 * 0.041
    # set down on the deck, away from its pad: the platform itself is the support
    sim = make_sim("street", position=(deck.position[0] - 2.5, deck.position[1] - 2.5, top + half))
    take_off_and_land(sim, top)


def test_landing_uses_the_measured_surface_not_the_start_pad(make_sim):
    level = load_level("street")
    deck = next(p for p in level.platforms if p.id == "deck")
    sim = make_sim("street", position=(deck.position[0] - 2.5, deck.position[1] - 2.5, deck.top_m + 4.0))
    sim.pad.rt = 1.0
    sim.step()
    sim.pad.rt = 0.0
    record(sim, 2.0)
    press(sim, "B")
    log = record(sim, 15.0, until=lambda t: t.mode == "manual")
    assert log[-1].contact and log[-1].motor_power == 0.0
    assert log[-1].position[2] == pytest.approx(deck.top_m + 0.0205, abs=2e-3)
    assert all(t.target_altitude >= deck.top_m for t in log if t.mode == "landing")


def test_landing_refused_over_nothing(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 50.0))
    sim.pad.rt = 1.0
    sim.run(1.0)
    sim.pad.rt = 0.0
    press(sim, "B")
    t = sim.telemetry()
    assert t.mode == "manual" and t.armed
    assert t.landing_refused == "no surface under the drone"


def test_landing_refused_over_a_sloped_surface_or_an_edge():
    assert landing_refusal(None) == "no surface under the drone"
    tilt = math.radians(12.0)
    sloped = Support(1.0, 2.0, (math.sin(tilt), 0.0, math.cos(tilt)), "ramp", "obstacle", 1.0)
    assert "sloped 12°" in landing_refusal(sloped)
    edge = Support(3.0, 2.0, (0.0, 0.0, 1.0), "deck", "platform", 0.5)
    assert "edge" in landing_refusal(edge)
    level = Support(3.0, 2.0, (0.0, 0.0, 1.0), "deck", "platform", 1.0)
    assert landing_refusal(level) is None


def test_landing_refused_half_over_the_platform_edge(make_sim):
    level = load_level("street")
    deck = next(p for p in level.platforms if p.id == "deck")
    edge_x = deck.position[0] + deck.size[0] / 2  # the envelope straddles the deck's +X edge
    sim = make_sim("street", position=(edge_x, deck.position[1] - 2.5, deck.top_m + 3.0))
    sim.pad.rt = 1.0
    sim.step()
    sim.pad.rt = 0.0
    record(sim, 2.0)
    press(sim, "B")
    assert sim.telemetry().mode == "manual"
    assert "edge" in sim.telemetry().landing_refused


def route_length(level, start):
    points = [start] + level.route()
    return sum(math.dist(a[:2], b[:2]) for a, b in zip(points, points[1:]))


def test_the_mission_completes_on_the_street(make_sim):
    sim = make_sim("street")
    level = sim.level
    start = sim.telemetry().position
    arrival = level.pad(level.mission.arrival_pad)
    sim.select("mission")
    # bound: climb to 18 m at ≤ 3 m/s, the route at transit speed (with slack for turns and
    # slowing), the 18 m descent at no less than a third of 0.7 m/s on average
    bound = TRANSIT_Z / 3.0 * 2 + route_length(level, start) / MISSION_SPEED_M_S * 1.4 + (TRANSIT_Z - arrival.top_m) / (MAX_DESCENT / 3)
    log = record(sim, bound, until=lambda t: t.mission.status in ("arrived", "interrupted"))
    end = log[-1]
    assert end.mission.status == "arrived", end.mission
    transit = [t for t in log if t.mission.status == "transit"]
    assert transit and all(abs(t.position[2] - TRANSIT_Z) <= 0.5 for t in transit)
    assert end.contact and end.motor_power == 0.0
    assert math.hypot(end.position[0] - arrival.position[0], end.position[1] - arrival.position[1]) < max(arrival.size) / 2
    assert end.position[2] == pytest.approx(arrival.top_m + 0.0205, abs=2e-3)
    continuous(log)


def test_an_obstacle_on_the_route_interrupts_the_mission(make_sim):
    level = load_level("street")
    wall = Box(id="crane", position=(60.0, 0.0), size=(2.0, 20.0, 40.0), kind="obstacle")
    blocked = level.model_copy(update={"boxes": [*level.boxes, wall]})
    sim = make_sim(blocked)
    sim.select("mission")
    log = record(sim, 60.0, until=lambda t: t.mission.status == "interrupted")
    assert log[-1].mission.status == "interrupted"
    assert "crane" in log[-1].mission.reason
    log += record(sim, 5.0)
    face = wall.position[0] - wall.size[0] / 2
    assert all(t.position[0] < face - 0.1 for t in log)  # stopped short of it
    assert math.hypot(*log[-1].velocity) < 0.1  # hovering
    assert not any(t.contact for t in log[10:])
    continuous(log)


def test_taking_back_manual_keeps_the_motion(make_sim):
    sim = make_sim("street")
    sim.select("mission")
    log = record(sim, 25.0, until=lambda t: t.mission.status == "transit" and math.hypot(*t.velocity[:2]) > 4.0)
    before = log[-1]
    sim.pad.left = (0.0, 0.0)
    sim.select("manual")
    log += record(sim, 1.0)
    after = log[-1]
    assert after.mode == "manual"
    assert math.hypot(*after.velocity[:2]) == pytest.approx(math.hypot(*before.velocity[:2]), rel=0.1)
    assert after.battery_fraction < before.battery_fraction  # nothing recharged
    continuous(log)


def test_trail_limits_and_spacing(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 50.0))
    sim.pad.rt = 1.0
    sim.run(1.0)  # 4 m/s cruise
    sim.pad.rt = 0.0
    sim.pad.left = (0.0, 1.0)
    sim.step()
    sim.pad.left = (0.0, 0.0)
    sim.run(30.0)
    from components.world import Trail
    (trail,) = sim.components(Trail)
    points = list(trail.points)
    gaps = [math.dist(a, b) for a, b in zip(points[-50:], points[-49:])]
    assert all(g == pytest.approx(4.0 * 0.2, rel=0.05) for g in gaps)  # every 0.2 s at 4 m/s
    sim.run(250.0)  # 1 200 points × 0.2 s = 240 s
    assert sim.telemetry().trail_points == 1200
    assert math.dist(trail.points[-1], sim.telemetry().position) < 1.0  # the newest kept


def test_restart_resets_while_manual_take_back_does_not(make_sim):
    sim = make_sim("street")
    start = sim.telemetry().position
    sim.pad.rt = 1.0
    sim.run(1.0)
    sim.pad.rt = 0.0
    sim.pad.press("Y")
    sim.run(2.0)
    sim.pad.release("Y")
    (col,) = sim.components(Collider)
    col.damage = 0.3  # as after a crash
    sim.select("manual")
    t = sim.telemetry()
    assert t.damage == 0.3 and t.trail_points > 0 and t.battery_fraction < 1.0 and t.position[2] > 3.0
    sim.reset()
    t = sim.telemetry()
    assert t.position == start and t.damage == 0.0 and t.trail_points == 0
    assert t.battery_fraction == 1.0 and t.motor_power == 0.0 and t.mode == "manual"
