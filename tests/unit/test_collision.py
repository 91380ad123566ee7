"""Collision in the street level (issue #4 item 7): resting support without jitter or sinking,
wall impacts with damage, no tunnelling through a thin pole, friction, events, Restart.

Figures come from the issue and MODEL: the envelope is the vehicle file's guard-inclusive box
(docs/model.md#what-is-modelled: 165.2 × 159.7 mm discs plus guards), penetration < 1 mm, jitter < 1 mm/s after 1 s.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from components.flight import RigidBody
from components.world import Collider
from components import events
from game.bench import thousand_box_level
from world.geometry import LevelGeometry
from world.collision import ContactSolver, impact_damage, ContactParams
from world.level import compile_level
from world.level_file import load_level

STREET = load_level("street")
DECK = STREET.platforms[0]  # x 64..72, y 10..18, top 3 m
LAMP = next(c for c in STREET.cylinders if c.id == "lamp-n10")  # (10, 4.6), r 0.08 m
WALL_Y = 8.0  # north-1's street face: it spans y 8..20 (x 0..18)
G = 9.80665


class Recorder:
    def __init__(self, app):
        self.impacts, self.touchdowns = [], []
        app.on(events.Impact, self.on_impact)
        app.on(events.Touchdown, self.on_touchdown)

    def on_impact(self, event):
        self.impacts.append((event.speed_m_s, event.normal, event.damage))

    def on_touchdown(self, event):
        self.touchdowns.append(event.height_m)


def half_height(sim) -> float:
    return 0.5 * sim.vehicle.envelope_size_m[2]


def drop_and_watch(sim, surface_z: float):
    """Fall 2 m with the motors off; record the bottom's height and the speed after 1 s."""
    body, col = sim.components(RigidBody, Collider)
    h = half_height(sim)
    sim.run(1.0)
    worst_penetration, worst_speed = 0.0, 0.0
    for _ in range(60):  # the next second, frame by frame
        sim.step()
        worst_penetration = max(worst_penetration, surface_z - (body.position[2] - h))
        worst_speed = max(worst_speed, math.sqrt(sum(v * v for v in body.velocity)))
    return body, col, worst_penetration, worst_speed


def test_drop_from_2m_onto_the_ground_rests(make_sim):
    sim = make_sim(position=(5.0, 0.0, 2.0 + 0.0205))
    rec = Recorder(sim.app)
    body, col, penetration, speed = drop_and_watch(sim, 0.0)
    assert penetration < 1e-3
    assert speed < 1e-3, "no jitter above 1 mm/s after 1 s"
    assert col.contact and col.resting and col.support_id == ""
    assert body.position[2] == pytest.approx(half_height(sim), abs=1e-3)
    # the first impact is at about the free-fall speed from 2 m (a little less: drag)
    assert rec.impacts and rec.impacts[0][0] == pytest.approx(math.sqrt(2 * G * 2.0), rel=0.1)
    assert len(rec.touchdowns) == 1 and rec.touchdowns[0] == pytest.approx(0.0)


def test_drop_from_2m_onto_the_platform_rests(make_sim):
    x, y = DECK.position[0] - 2.0, DECK.position[1] - 2.0  # on the deck, off its pad
    sim = make_sim(position=(x, y, DECK.top_m + 2.0 + 0.0205))
    body, col, penetration, speed = drop_and_watch(sim, DECK.top_m)
    assert penetration < 1e-3
    assert speed < 1e-3
    assert col.resting and col.support_id == "deck"
    assert body.position[2] == pytest.approx(DECK.top_m + half_height(sim), abs=1e-3)
    assert col.height_above_ground_m == pytest.approx(0.0, abs=1e-3)


def test_wall_hit_at_8_m_s_stops_outside_with_damage(make_sim):
    sim = make_sim(position=(9.0, 7.5, 3.0))
    rec = Recorder(sim.app)
    body, col = sim.components(RigidBody, Collider)
    body.velocity[:] = [0.0, 8.0, 0.0]  # straight at north-1's face
    sim.run(0.5)
    half_width = 0.5 * sim.vehicle.envelope_size_m[1]
    assert body.position[1] <= WALL_Y - half_width + 1e-3, "stopped outside the wall"
    assert body.velocity[1] <= 0.0
    assert col.damage > 0.0
    speed, normal, damage = rec.impacts[0]
    assert speed == pytest.approx(8.0, rel=0.05)
    assert normal == pytest.approx((0.0, -1.0, 0.0), abs=1e-9)
    assert damage == col.damage


def test_thin_pole_is_not_tunnelled_at_12_m_s(make_sim):
    sim = make_sim(position=(LAMP.position[0] - 1.0, LAMP.position[1], 2.0))
    rec = Recorder(sim.app)
    body, col = sim.components(RigidBody, Collider)
    body.velocity[:] = [12.0, 0.0, 0.0]
    sim.run(0.3)
    front = LAMP.position[0] - LAMP.radius - 0.5 * sim.vehicle.envelope_size_m[0]
    assert body.position[0] <= front + 1e-3
    assert body.velocity[0] <= 0.0 and col.damage > 0.0
    speed, normal, _ = rec.impacts[0]
    assert speed > 11.0 and normal == pytest.approx((-1.0, 0.0, 0.0), abs=1e-6)


def test_swept_test_catches_a_pole_crossed_within_one_tick():
    """Far beyond any reachable speed: 2 m in one tick (480 m/s) straight through a 16 cm pole."""
    geometry = compile_level(STREET)
    solver = ContactSolver(geometry)
    x, y = LAMP.position[0], LAMP.position[1]
    previous = [x - 1.0, y, 2.0]
    position = [x + 1.0, y, 2.0]
    velocity = [480.0, 0.0, 0.0]
    solver.step(position, previous, velocity, (0.0, 0.0, 0.0, 1.0), [0.0, 0.0, 0.0], (0.1752, 0.1697, 0.041), 1 / 240)
    assert solver.contact and solver.contact_id == "lamp-n10"
    assert position[0] == pytest.approx(x - LAMP.radius - 0.0876, abs=1e-6)
    assert velocity[0] < 0.0


def test_swept_test_catches_a_wall_crossed_within_one_tick():
    geometry = compile_level(STREET)
    solver = ContactSolver(geometry)
    previous, position = [9.0, 7.0, 3.0], [9.0, 22.0, 3.0]  # through the whole of north-1
    velocity = [0.0, 3600.0, 0.0]
    solver.step(position, previous, velocity, (0.0, 0.0, 0.0, 1.0), [0.0, 0.0, 0.0], (0.1752, 0.1697, 0.041), 1 / 240)
    assert solver.contact_id == "north-1"
    assert position[1] == pytest.approx(WALL_Y - 0.08485, abs=1e-9)


def test_height_above_ground_over_the_platform_and_next_to_it(make_sim):
    z = 6.0
    over = make_sim(position=(DECK.position[0] - 2.0, DECK.position[1] - 2.0, z))
    beside = make_sim(position=(DECK.position[0] + DECK.size[0] / 2 + 2.0, DECK.position[1], z))
    for sim in (over, beside):
        sim.step()
    t_over, t_beside = over.telemetry(), beside.telemetry()
    h = 0.0205
    assert t_over.height_above_ground == pytest.approx(t_over.position[2] - h - DECK.top_m, abs=1e-9)
    assert t_beside.height_above_ground == pytest.approx(t_beside.position[2] - h, abs=1e-9)
    assert t_beside.height_above_ground - t_over.height_above_ground == pytest.approx(DECK.top_m, abs=1e-3)


def test_no_ground_in_the_lab_world(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 0.5))
    sim.run(1.0)
    t = sim.telemetry()
    assert t.position[2] < 0.0 and t.height_above_ground is None and not t.contact


def test_friction_stops_a_slide_on_the_ground(make_sim):
    """Coulomb friction μ = 0.6 on the ground: a 2 m/s slide stops in v²/(2 μ g) ≈ 0.34 m."""
    sim = make_sim(position=(5.0, 0.0, 0.0205))
    body, _ = sim.components(RigidBody, Collider)
    body.velocity[:] = [2.0, 0.0, 0.0]
    sim.run(1.0)
    mu = STREET.contact.friction
    assert body.velocity[0] == pytest.approx(0.0, abs=1e-9)
    assert body.position[0] - 5.0 == pytest.approx(2.0 ** 2 / (2 * mu * G), rel=0.05)


def test_damage_is_kept_until_restart(make_sim):
    sim = make_sim(position=(9.0, 7.5, 3.0))
    body, col = sim.components(RigidBody, Collider)
    body.velocity[:] = [0.0, 8.0, 0.0]
    sim.run(3.0)
    damage = col.damage
    assert damage > 0.0 and sim.telemetry().damage == damage
    sim.reset()
    assert sim.telemetry().damage == 0.0


def test_damage_grows_with_impact_speed():
    p = ContactParams()
    assert impact_damage(0.7, p) == 0.0  # a landing at the assist's 0.7 m/s does no harm
    assert 0.0 < impact_damage(4.0, p) < impact_damage(8.0, p) < impact_damage(12.0, p) <= 1.0
    assert impact_damage(100.0, p) == 1.0


def test_spawn_rests_on_the_start_pad_without_moving(make_sim):
    sim = make_sim()
    body, col = sim.components(RigidBody, Collider)
    start = list(body.position)
    sim.run(2.0)
    pad = STREET.spawn
    assert start[2] == pytest.approx(pad.top_m + 0.0205)
    assert body.position == pytest.approx(start, abs=1e-9)
    assert col.contact and col.resting and col.support_id == "start"
    assert sim.telemetry().height_above_ground == pytest.approx(0.0, abs=1e-9)


def test_take_off_from_the_pad_still_works(make_sim):
    sim = make_sim()
    sim.pad.rt = 1.0
    sim.run(1.0)  # MotorPower 0.5, armed
    sim.pad.rt = 0.0
    sim.pad.press("Y")  # climb at 2 m/s
    sim.run(2.0)
    sim.pad.release("Y")
    t = sim.telemetry()
    assert not t.contact and t.height_above_ground > 2.5
    assert t.height_above_ground == pytest.approx(t.position[2] - 0.0205 - STREET.spawn.top_m, abs=1e-9)


def test_the_broad_phase_grid_keeps_each_cell_short():
    """The broad phase looks only at the grid cells the tick's path covers. The cell side is
    the level's area over its number of solids (never under 2 m): in the generated level of
    1 000 boxes, 6 m wide every 10 m, about 10 m, so a cell overlaps at most 2 × 2 boxes — a
    drone's query, a few cells, costs what it costs in a level of ten boxes."""
    geometry = compile_level(thousand_box_level())
    per_cell = np.diff(geometry.grid_start)
    assert 2.0 <= geometry.grid_cell_m <= 10.0
    assert len(geometry.grid_solids) == per_cell.sum()
    assert per_cell.max() <= 4
    # every box is listed in each cell its bounding box overlaps, and nowhere else
    cell, (x0, y0), (nx, _) = geometry.grid_cell_m, geometry.grid_origin, geometry.grid_shape
    for s in (0, 17, 503, 999):
        lo, hi = geometry.box_lo[s], geometry.box_hi[s]
        cells = {c for c in range(len(per_cell)) if s in geometry.grid_solids[geometry.grid_start[c]:geometry.grid_start[c + 1]]}
        expected = {int(iy * nx + ix) for ix in range(int((lo[0] - x0) // cell), int((hi[0] - x0) // cell) + 1)
                    for iy in range(int((lo[1] - y0) // cell), int((hi[1] - y0) // cell) + 1)}
        assert cells == expected


def test_empty_geometry_costs_nothing_and_finds_nothing():
    solver = ContactSolver(LevelGeometry.empty())
    position = [0.0, 0.0, -5.0]
    solver.step(position, [0.0, 0.0, -4.9], [0.0, 0.0, -1.0], (0.0, 0.0, 0.0, 1.0), [0.0] * 3, (0.2, 0.2, 0.04), 1 / 240)
    assert not solver.contact and solver.support_z_m is None and position == [0.0, 0.0, -5.0]


def test_no_touchdown_for_resting_at_spawn_or_after_restart(make_sim):
    sim = make_sim()
    rec = Recorder(sim.app)
    sim.run(0.5)
    sim.reset()
    sim.run(0.5)
    assert rec.touchdowns == [] and rec.impacts == []
    assert sim.telemetry().contact
