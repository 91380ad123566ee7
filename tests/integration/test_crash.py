"""Crashes end a flight (issue #14; docs/model.md#crashes-and-damage).

The reproduction first: at full MotorPower down the street into the end wall. Before crashes
existed the drone stayed pressed to the wall, tilted 25° at ~17 500 rpm, still asking for
8 m/s into it. Now an impact faster than the vehicle file's `crash_impact_speed` ends the
flight: motors stopped and kept stopped (RT, take-off), `crashed` in telemetry, until Restart
repairs everything. A firm landing never crashes: the landing assist on every pad of every
shipped level; nor does any single impact below the threshold (a hypothesis search).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from components import events
from components.flight import RigidBody, Rotors
from components.modes import Mode
from components.world import Collider
from flight import quat
from flight.vehicle import default_vehicle
from game.simulation import Simulation
from tests import model
from world.level_file import load_level, shipped_levels

TELLO = default_vehicle()
CRASH_M_S = TELLO.crash_impact_speed_m_s
SPIN_DOWN_S = 0.05  # the motors' falling time constant (docs/model.md#parameters)
END_WALL = load_level("street").boxes  # the street's end wall faces the start pad down +X
WALL_Y = 8.0  # north-1's street face (y 8..20, x 0..18, 9 m high)


class Events:
    def __init__(self, app) -> None:
        self.impacts: list[events.Impact] = []
        self.crashes: list[events.Crashed] = []
        app.on(events.Impact, self.on_impact)
        app.on(events.Crashed, self.on_crash)

    def on_impact(self, event) -> None:
        self.impacts.append(event)

    def on_crash(self, event) -> None:
        self.crashes.append(event)


def tap(sim, button: str) -> None:
    sim.pad.press(button)
    sim.step()
    sim.pad.release(button)


def fly_into_the_end_wall(sim, seen: Events) -> None:
    """Take off, MotorPower to 1 (8 m/s cruise), a flick forward down the street (+X) at 1.5 m,
    and on until something is hit: the end wall, 178 m on."""
    tap(sim, "X")
    sim.run(3.0)
    sim.pad.rt = 1.0
    sim.run(2.0)  # 0.2 → 1.0 at 0.5 per second
    sim.pad.rt = 0.0
    sim.pad.left = (0.0, 1.0)
    sim.run(0.2)
    sim.pad.left = (0.0, 0.0)
    while not seen.impacts and sim.time < 60.0:
        sim.step()


def test_full_speed_into_a_wall_ends_the_flight_until_restart(make_sim):
    sim = make_sim("street")
    seen = Events(sim.app)
    fly_into_the_end_wall(sim, seen)
    hit = seen.impacts[0]
    assert hit.normal == pytest.approx((-1.0, 0.0, 0.0), abs=1e-9)  # the end wall, head on
    assert hit.speed_m_s > CRASH_M_S and hit.speed_m_s == pytest.approx(TELLO.max_horizontal_speed_m_s, rel=0.05)
    t = sim.telemetry()
    assert t.crashed and not t.armed and t.motor_power == 0.0
    assert [(c.reason, c.speed_m_s) for c in seen.crashes] == [("impact", hit.speed_m_s)]

    # not pressed to the wall at full rpm: the motors spin down (e^(−t/50 ms)) and it falls
    sim.run(2.0)
    t = sim.telemetry()
    assert max(t.rpm) < 1.0
    assert t.height_above_ground == pytest.approx(0.0, abs=1e-3) and math.hypot(*t.velocity) < 1e-2
    assert t.crashed and not t.armed

    # stays crashed: RT, take-off and the laboratory collective do not start the motors
    sim.pad.rt = 1.0
    sim.run(1.0)
    sim.pad.rt = 0.0
    tap(sim, "X")
    sim.run(1.0)
    sim.set_mode("angle")
    sim.pad.rt = 1.0
    sim.run(1.0)
    sim.pad.rt = 0.0
    t = sim.telemetry()
    assert t.crashed and not t.armed and t.motor_power == 0.0 and max(t.rpm) < 1.0
    assert len(seen.crashes) == 1

    # Restart (BACK) repairs: not crashed, no damage, every rotor whole, and RT arms again
    tap(sim, "BACK")
    rotors, = sim.components(Rotors)
    t = sim.telemetry()
    assert not t.crashed and t.damage == 0.0 and list(rotors.health) == [1.0, 1.0, 1.0, 1.0]
    sim.pad.rt = 1.0
    sim.run(0.5)
    assert sim.telemetry().armed


def test_a_lighter_wall_hit_damages_the_nearest_rotors_and_the_flight_goes_on(make_sim):
    """Into north-1's face at 4 m/s, level, heading +X: the face is on the drone's left (+Y),
    so the left rotors 2 RL and 3 FL share the damage (v² − 2²)/(15² − 2²). 15 cm up, the drop
    to the ground that follows (√(2 g 0.13) < 1.6 m/s) is under the 2 m/s that harms."""
    sim = make_sim("street", position=(9.0, WALL_Y - 0.3, 0.15))
    seen = Events(sim.app)
    body, rotors = sim.components(RigidBody, Rotors)
    body.velocity[:] = (0.0, 4.0, 0.0)
    sim.run(0.5)
    v = seen.impacts[0].speed_m_s
    assert v == pytest.approx(4.0, rel=0.02)  # a little drag on the way
    added = (v ** 2 - 2.0 ** 2) / (15.0 ** 2 - 2.0 ** 2)
    t = sim.telemetry()
    assert not t.crashed and not seen.crashes
    assert t.damage == pytest.approx(added, rel=1e-6)
    assert list(rotors.health) == pytest.approx([1.0, 1.0, 1.0 - added / 2, 1.0 - added / 2], rel=1e-9)


def pads_of_shipped_levels():
    for name in shipped_levels():
        level = load_level(name)
        for pad in level.pads:
            yield pytest.param(name, pad, id=f"{name}-{pad.id}")


@pytest.mark.parametrize("level_name, pad", list(pads_of_shipped_levels()))
def test_the_landing_assist_never_crashes(make_sim, level_name, pad):
    """Take off from the pad, land back on it with B (at most 0.7 m/s): no crash, no damage."""
    half = 0.5 * TELLO.envelope_size_m[2]
    sim = make_sim(level_name, position=(pad.position[0], pad.position[1], pad.top_m + half))
    seen = Events(sim.app)
    tap(sim, "X")
    sim.run(4.0)
    tap(sim, "B")
    for _ in range(60 * 15):
        sim.step()
        if sim.telemetry().mode == Mode.MANUAL and not sim.telemetry().armed:
            break
    t = sim.telemetry()
    col, = sim.components(Collider)
    assert not t.armed and col.resting and col.support_id == pad.id, "landed back on the pad"
    assert not t.crashed and not seen.crashes and t.damage == 0.0
    assert all(i.speed_m_s <= 0.7 + 1e-6 for i in seen.impacts)


@pytest.fixture(scope="module")
def street():
    sim = Simulation("street")
    yield sim
    sim.close()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(speed=st.floats(min_value=0.31, max_value=CRASH_M_S), angle_deg=st.floats(min_value=-60.0, max_value=60.0),
       vz=st.floats(min_value=-1.0, max_value=1.0), gap=st.floats(min_value=0.02, max_value=0.5),
       yaw_deg=st.floats(min_value=-180.0, max_value=180.0))
def test_impacts_below_the_threshold_never_crash(street, speed, angle_deg, vz, gap, yaw_deg):
    """A drone 0.3 m up thrown at north-1's face, at most the threshold along its normal, from
    any heading and angle; then it drops 0.3 m to the ground (√(1 + 2 g 0.3) < 2.7 m/s):
    one impact cannot crash it (damage < 1 and not faster than the frame takes)."""
    sim = street
    sim.reset()
    seen = Events(sim.app)
    body, = sim.components(RigidBody)
    y = WALL_Y - 0.5 * TELLO.envelope_size_m[1] - gap
    body.position[:] = body.previous_position[:] = (9.0, y, 0.3)
    body.quaternion[:] = body.previous_quaternion[:] = quat.from_axis_angle((0.0, 0.0, 1.0), math.radians(yaw_deg))
    a = math.radians(angle_deg)
    body.velocity[:] = (speed * math.sin(a), speed * math.cos(a), vz)
    sim.run(0.6)
    assert seen.impacts, "it reached the wall or the ground"
    assert all(i.speed_m_s <= CRASH_M_S for i in seen.impacts)
    assert not sim.telemetry().crashed and not seen.crashes
    assert math.sqrt(vz * vz + 2 * model.G * 0.3) < CRASH_M_S  # the premise: the drop cannot crash either
