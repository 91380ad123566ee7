"""Land and take off again, three times, on every top surface of every shipped level.

Every pad, roof, deck, kiosk, pavement and canopy large enough to hold the drone: spawn above
it, land with the assist, hop, land again, take off again — with jittered frame lengths, as a
window gives them. After every frame an independent referee (`tests/solids.py`, from the
level data) checks the guard envelope is in nothing; after every landing the drone must rest
on that very surface. A drone touching a face used to be moved to the opposite one: through
the roof, under a pad, inside the deck.
"""

from __future__ import annotations

import random

import pytest

from components.flight import RigidBody
from tests.solids import Referee, top_surfaces
from world.level_file import load_level, shipped_levels

PENETRATION_TOL_M = 0.002


def _surfaces():
    for name in shipped_levels():
        level = load_level(name)
        for sid, x, y, top in top_surfaces(level):
            yield pytest.param(name, sid, x, y, top, id=f"{name}-{sid}")


def _fly(sim, seconds, rng, referee, until=None):
    body = sim.components(RigidBody)[0]
    t = 0.0
    while t < seconds:
        dt = rng.uniform(1 / 144, 1 / 30)
        sim.step(dt)
        t += dt
        depth, what = referee.depth(body.position, body.quaternion)
        assert depth < PENETRATION_TOL_M, f"{depth * 1000:.1f} mm into {what} at {list(body.position)} (t={sim.time:.3f})"
        if until is not None and until(sim.telemetry()):
            return True
    return False


@pytest.mark.parametrize("level_name, solid_id, x, y, top", list(_surfaces()))
def test_land_and_take_off_three_times(make_sim, level_name, solid_id, x, y, top):
    level = load_level(level_name)
    rng = random.Random(hash((level_name, solid_id)) & 0xFFFF)
    sim = make_sim(level_name, position=(x, y, top + 1.5))
    size = sim.vehicle.envelope_size_m
    half_z = 0.5 * size[2]
    referee = Referee(level, size, level.ground.height)
    sim.pad.rt = 1.0
    _fly(sim, 0.6, rng, referee)  # MotorPower 0.3: armed, holding altitude
    sim.pad.rt = 0.0
    for cycle in range(3):
        sim.pad.press("Y")  # a hop before the landing
        _fly(sim, 0.3, rng, referee)
        sim.pad.release("Y")
        _fly(sim, 0.5, rng, referee)
        sim.select("land")
        landed = _fly(sim, 20.0, rng, referee,
                      until=lambda t: t.contact and not t.armed)
        tel = sim.telemetry()
        assert landed, f"cycle {cycle}: no landing on {solid_id} (mode {tel.mode}, z {tel.position[2]:.3f})"
        _fly(sim, 0.5, rng, referee)
        tel = sim.telemetry()
        bottom = tel.position[2] - half_z
        # resting on a surface at or above the one aimed at (a pad on a deck is higher), never below
        assert bottom > top - PENETRATION_TOL_M, f"cycle {cycle}: bottom {bottom:.3f} below {solid_id}'s top {top:.3f}"
        assert tel.height_above_ground is not None and tel.height_above_ground < 0.01
        sim.pad.rt = 1.0
        _fly(sim, 0.3, rng, referee)  # re-arm
        sim.pad.rt = 0.0
        sim.select("takeoff")
        _fly(sim, 4.0, rng, referee)
        tel = sim.telemetry()
        assert tel.position[2] - half_z > top + 0.8, f"cycle {cycle}: take-off from {solid_id} did not rise"
