"""Where a script may put a drone: clear of the level, or refused in one line.

`Simulation(position=…)` and `sim.add_drone(position=…)` take a centre of mass anywhere. A
place whose guard envelope is inside a building, a pad, a pole or the ground is refused with a
ValueError naming what is there; any other place is taken, and the drone put there never ends
up inside anything. Hypothesis draws places around every solid of every shipped level (and
yaws), and an independent referee (`tests/solids.py`, built from the level data) judges:

- refused → the envelope there reaches into a solid or the ground (or within a few cm of one,
  where the envelope's world-aligned bound is conservative for a yawed drone);
- taken → the envelope there is in nothing (beyond 1 mm), and after a second with its motors
  off, falling, landing, sliding, it is still in nothing (beyond 3 mm).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, event, given, note, settings, strategies as st

from game.simulation import Simulation
from tests.solids import Referee, level_solids, top_surfaces
from world.level_file import load_level, shipped_levels

ENVELOPE_M = (0.1752, 0.1697, 0.041)  # the Tello's guard box (checked against the vehicle below)
# the level's traffic stays home: the drone drawn is the only one near what it is put in
LEVELS = {name: load_level(name).model_copy(update={"traffic": []}) for name in shipped_levels()}
REFEREES = {name: Referee(level, ENVELOPE_M, level.ground.height) for name, level in LEVELS.items()}
SOLIDS = {name: level_solids(level) for name, level in LEVELS.items()}
ACCEPT_TOL_M = 0.001  # a place touching a surface (resting on it) is taken
SETTLED_TOL_M = 0.003  # as the random flights: contact is resolved to within this
REFUSE_MARGIN_M = 0.05  # a yawed envelope's world-aligned bound reaches this much further


@st.composite
def places(draw):
    """(level name, (x, y, z), yaw_deg): around one of the level's solids — inside, touching,
    half in, beside, on top — or on the ground."""
    name = draw(st.sampled_from(sorted(LEVELS)))
    solids = SOLIDS[name]
    yaw = draw(st.one_of(st.just(0.0), st.floats(min_value=-180.0, max_value=180.0)))
    half_z = 0.5 * ENVELOPE_M[2]
    ground = LEVELS[name].ground.height
    if draw(st.booleans()) or not solids:  # on, in or just above the ground, anywhere
        x, y = draw(st.floats(-60.0, 60.0)), draw(st.floats(-60.0, 60.0))
        z = ground + half_z + draw(st.sampled_from([0.0, -0.005, -half_z, -0.1, 0.002, 0.3]))
        return name, (x, y, z), yaw
    s = draw(st.sampled_from(solids))
    cx, cy = s.centre[0], s.centre[1]
    # a box's half sizes, a cylinder's radius (its half[1] is its height), and 0.2 m beyond
    reach_x = s.half[0] + 0.2
    reach_y = (s.half[1] if s.kind == "box" else s.half[0]) + 0.2
    x = cx + draw(st.floats(-reach_x, reach_x))
    y = cy + draw(st.floats(-reach_y, reach_y))
    top = s.top_m
    z = draw(st.one_of(
        st.just(top + half_z),  # resting on its top
        st.floats(top - 0.05, top + half_z + 0.05),  # half in, touching, just above
        st.floats(max(ground + half_z, (s.centre[2] if s.kind == "cylinder" else s.centre[2] - s.half[2])), top),
    ))
    return name, (x, y, z), yaw


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(places())
def test_a_start_is_clear_of_the_level_or_refused(sim_in, place):
    name, position, yaw_deg = place
    referee = REFEREES[name]
    half = math.radians(yaw_deg) / 2
    q = (0.0, 0.0, math.sin(half), math.cos(half))
    depth, what = referee.depth(position, q)
    note(f"{name} {position} yaw {yaw_deg}: the referee finds {depth * 1000:.1f} mm in {what!r}")
    sim = sim_in(name, LEVELS[name])
    try:
        drone = sim.add_drone(position=position, yaw_deg=yaw_deg)
    except ValueError as refusal:
        assert str(refusal).startswith("position: "), refusal
        event("refused: " + ("ground" if "ground" in str(refusal) else "a solid"))
        assert depth > -REFUSE_MARGIN_M, f"refused a place {-depth:.3f} m clear of everything: {refusal}"
        return
    event("taken")
    try:
        assert depth <= ACCEPT_TOL_M, f"took a place {depth * 1000:.1f} mm inside {what!r}"
        sim.run(1.0)  # motors off: it falls, lands, maybe slides off an edge
        t = drone.telemetry()
        after, inside = referee.depth(t.position, t.quaternion)
        assert after <= SETTLED_TOL_M, f"a second later it is {after * 1000:.1f} mm inside {inside!r} at {t.position}"
    finally:
        sim.remove_drone(drone)


def test_the_referees_envelope_is_the_shipped_vehicles(sim_in):
    assert tuple(sim_in("street", LEVELS["street"]).vehicle.envelope_size_m) == pytest.approx(ENVELOPE_M)


def test_the_player_start_is_checked_the_same_way():
    street = LEVELS["street"]
    building = next(b for b in street.boxes if b.kind == "building")
    inside = (building.position[0], building.position[1], building.position[2] + building.size[2] / 2)
    with pytest.raises(ValueError, match=rf"position: expected a place clear of the level's solids, got .*: "
                                         rf"the drone there overlaps building '{building.id}'"):
        Simulation(street, position=inside)
    on_roof = (inside[0], inside[1], building.position[2] + building.size[2] + ENVELOPE_M[2] / 2)
    with Simulation(street, position=on_roof) as sim:
        sim.run(0.5)
        assert sim.telemetry().position[2] == pytest.approx(on_roof[2], abs=SETTLED_TOL_M)
        assert sim.telemetry().contact


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_resting_on_any_top_of_a_shipped_level_is_taken(sim_in, name):
    """A script may put a drone on every roof, pad, platform and post top, at any heading."""
    sim = sim_in(name, LEVELS[name])
    half_z = 0.5 * ENVELOPE_M[2]
    tops = top_surfaces(LEVELS[name])
    taken = 0
    for _solid_id, x, y, top in tops:
        for yaw_deg in (0.0, 45.0, 90.0):
            position = (x, y, top + half_z)
            depth, what = REFEREES[name].depth(position, (0.0, 0.0, math.sin(math.radians(yaw_deg) / 2),
                                                          math.cos(math.radians(yaw_deg) / 2)))
            if depth > ACCEPT_TOL_M:  # something else stands on this top (a pad on a roof)
                continue
            sim.remove_drone(sim.add_drone(position=position, yaw_deg=yaw_deg))
            taken += 1
    assert taken >= len(tops), f"{taken} tops tried of {len(tops)}: the test lost its subject"
