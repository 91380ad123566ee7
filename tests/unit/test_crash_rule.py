"""The crash rule and what damage does (docs/model.md#crashes-and-damage; issue #14).

Figures come from the vehicle file (`crash_impact_speed`, the masses and kT) and from the
damage law the collision documents, (v² − v_safe²)/(v_destroy² − v_safe²), not from the code's
output.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

from components.flight import Rotors
from flight import quat
from flight.control.lab import hover_collective
from flight.damage import crash_reason, damaged_health, impact_shares
from flight.dynamics import step_motors
from flight.vehicle import default_vehicle
from tests import model
from world.collision import ContactParams, impact_damage

FILE = tomllib.loads((Path(__file__).resolve().parents[2] / "assets" / "vehicles" / "tello.toml").read_text())
CRASH_M_S = FILE["params"]["crash_impact_speed"]["value"]
TELLO = default_vehicle()
ROTOR_X, ROTOR_Y = TELLO.rotor_x_m, TELLO.rotor_y_m
LEVEL = (0.0, 0.0, 0.0, 1.0)


def test_the_threshold_is_the_vehicle_files():
    assert TELLO.crash_impact_speed_m_s == CRASH_M_S
    # what the file's source says it takes: a fall from head height (1.8 m) but not full speed
    assert math.sqrt(2 * model.G * 1.8) < CRASH_M_S < TELLO.max_horizontal_speed_m_s


def test_an_impact_faster_than_the_threshold_crashes_and_one_at_it_does_not():
    assert crash_reason(math.nextafter(CRASH_M_S, math.inf), 0.0, CRASH_M_S) == "impact"
    assert crash_reason(CRASH_M_S, 0.0, CRASH_M_S) == ""
    assert crash_reason(8.0, 0.0, CRASH_M_S) == "impact"  # the wall at full cruise speed


def test_a_firm_landing_never_crashes_nor_damages():
    assert crash_reason(0.7, 0.0, CRASH_M_S) == ""
    assert impact_damage(0.7, ContactParams()) == 0.0


def test_damage_reaching_one_crashes():
    assert crash_reason(0.0, 1.0, CRASH_M_S) == "damage"
    assert crash_reason(0.0, math.nextafter(1.0, 0.0), CRASH_M_S) == ""


def test_impacts_below_the_threshold_add_up_to_a_crash():
    """Each impact just under the threshold adds (v² − 2²)/(15² − 2²); the sum reaches 1 after
    ⌈1 / that⌉ impacts, and that impact crashes the flight, the one before does not."""
    p = ContactParams()
    v = CRASH_M_S * 0.99
    each = (v * v - p.safe_impact_m_s ** 2) / (p.destroy_impact_m_s ** 2 - p.safe_impact_m_s ** 2)
    assert impact_damage(v, p) == pytest.approx(each, rel=1e-12)
    needed = math.ceil(1.0 / each)
    damage = 0.0
    for k in range(1, needed + 1):
        damage = min(1.0, damage + impact_damage(v, p))
        assert (crash_reason(v, damage, CRASH_M_S) == "damage") == (k == needed)


@given(st.floats(min_value=0.0, max_value=CRASH_M_S))
def test_no_single_impact_at_or_below_the_threshold_crashes(speed):
    damage = impact_damage(speed, ContactParams())
    assert damage < 1.0
    assert crash_reason(speed, damage, CRASH_M_S) == ""


def test_a_wall_ahead_is_shared_by_the_two_front_rotors():
    # the wall's normal points back at the drone (−X world): the front rotors 0 FR and 3 FL hit it
    assert impact_shares((-1.0, 0.0, 0.0), LEVEL, ROTOR_X, ROTOR_Y) == (0.5, 0.0, 0.0, 0.5)
    # on the left (+Y): the left rotors 2 RL and 3 FL
    assert impact_shares((0.0, -1.0, 0.0), LEVEL, ROTOR_X, ROTOR_Y) == (0.0, 0.0, 0.5, 0.5)


def test_a_corner_hit_goes_to_the_nearest_rotor_in_body_axes():
    # yawed 90° left (body X = world +Y), a surface towards world +X (its normal −X) is on the
    # body's right (−Y): rotors 0 FR and 1 RR; towards world −X, the left: 2 RL and 3 FL
    q = tuple(quat.from_axis_angle((0.0, 0.0, 1.0), math.radians(90.0)))
    assert impact_shares((-1.0, 0.0, 0.0), q, ROTOR_X, ROTOR_Y) == pytest.approx((0.5, 0.5, 0.0, 0.0))
    assert impact_shares((1.0, 0.0, 0.0), q, ROTOR_X, ROTOR_Y) == pytest.approx((0.0, 0.0, 0.5, 0.5))
    # towards body front-right (+X, −Y, along rotor 0's arm) in a level drone
    n = (-ROTOR_X[0], -ROTOR_Y[0], 0.0)
    length = math.hypot(n[0], n[1])
    assert impact_shares((n[0] / length, n[1] / length, 0.0), LEVEL, ROTOR_X, ROTOR_Y) == (1.0, 0.0, 0.0, 0.0)


def test_a_hard_landing_is_shared_by_all_four():
    assert impact_shares((0.0, 0.0, 1.0), LEVEL, ROTOR_X, ROTOR_Y) == (0.25, 0.25, 0.25, 0.25)


def test_health_loses_the_damage_added_in_shares_and_never_goes_negative():
    assert damaged_health((1.0, 1.0, 1.0, 1.0), (0.5, 0.0, 0.0, 0.5), 0.2) == pytest.approx((0.9, 1.0, 1.0, 0.9))
    assert damaged_health((0.1, 1.0, 1.0, 1.0), (1.0, 0.0, 0.0, 0.0), 0.5) == (0.0, 1.0, 1.0, 1.0)


def test_a_damaged_rotor_gives_its_health_times_the_thrust_at_the_same_speed():
    """Tᵢ = hᵢ kT ω² ρ/ρ₀: a rotor at 0.6 gives 60 % of an intact one's thrust at equal ω."""
    r = Rotors()
    w = model.HOVER_OMEGA
    r.speed_rad_s[:] = w
    r.setpoint_rad_s[:] = w
    r.max_speed_rad_s = 1e9
    r.armed = True
    r.health[:] = (1.0, 0.6, 1.0, 1.0)
    step_motors(r.state, TELLO.physics, model.RHO0, 1.0 / 240.0)
    intact = model.KT * w * w
    assert r.thrust_n == pytest.approx(np.array([intact, 0.6 * intact, intact, intact]), rel=1e-12)
    # all four at hover speed no longer carry the weight: 3.6 / 4 of m g
    assert float(r.thrust_n.sum()) == pytest.approx(0.9 * model.MASS * model.G, rel=1e-9)


def test_a_fresh_drone_is_intact():
    assert list(Rotors().health) == [1.0, 1.0, 1.0, 1.0]


def test_the_hover_collective_is_m_g_over_four_rotors_at_max_speed():
    w_max = model.MAX_RPM * model.RPM
    expected = model.MASS * model.G / (4 * model.KT * w_max ** 2)
    assert hover_collective(TELLO.physics, model.RHO0) == pytest.approx(expected, rel=1e-12)
    assert 0.55 < expected < 0.57  # docs/model.md: "about 0.56 hovers"; so 50 % sinks
    # thinner air needs proportionally more; a rotor at half health too
    assert hover_collective(TELLO.physics, 1.0065) == pytest.approx(expected * model.RHO0 / 1.0065, rel=1e-12)
    assert hover_collective(TELLO.physics, model.RHO0, (1.0, 0.5, 1.0, 1.0)) == pytest.approx(expected * 4 / 3.5)
    assert hover_collective(TELLO.physics, 0.0) == math.inf
