"""The derived figures of docs/model.md#battery-and-power, recomputed from the vehicle file through the model's code."""

import math

import numpy as np
import pytest

from flight import battery
from components.flight import RigidBody, Rotors
from flight.dynamics import rotor_thrust, step_body
from flight.vehicle import default_vehicle
from tests import model


@pytest.fixture
def tello():
    return default_vehicle()


def test_vehicle_file_holds_model_table(tello):
    assert tello.mass_kg == model.MASS
    assert tello.thrust_coefficient == model.KT
    assert tello.inertia_kgm2 == model.INERTIA
    assert tello.drag_area_m2 == model.CDA
    assert [(r.x_m, r.y_m) for r in tello.rotors] == [
        (model.ARM_X, -model.ARM_Y), (-model.ARM_X, -model.ARM_Y), (-model.ARM_X, model.ARM_Y), (model.ARM_X, model.ARM_Y)]
    assert tello.max_tilt_rad == pytest.approx(math.radians(25))
    # disc envelope 165.2 × 159.7 mm before guards; the collision envelope includes the guards
    assert 2 * (model.ARM_X + model.PROP_D / 2) == pytest.approx(0.1652, abs=1e-4)
    assert tello.envelope_size_m[0] > 0.1652 and tello.envelope_size_m[1] > 0.1597


def test_hover_speed(tello):
    w = tello.hover_motor_speed_rad_s()
    assert w == pytest.approx(1721, abs=1)
    assert w / model.RPM == pytest.approx(16436, abs=2)


def test_thrust_to_weight_at_max_rpm(tello):
    total = 4 * rotor_thrust(tello.physics, model.MAX_RPM * model.RPM, model.RHO0)
    assert total / (model.MASS * model.G) == pytest.approx(1.79, abs=0.005)


def test_drag_and_tilt_at_8_m_s(tello):
    """The model's own dynamics at 8 m/s, motors off: drag ≈ 0.255 N, balanced by ≈ 16.6° of tilt."""
    body = RigidBody(position=[0.0, 0.0, 10.0], velocity=[8.0, 0.0, 0.0])
    rotors = Rotors()
    rotors.armed = False
    step_body(body.state, rotors.state, tello.physics, model.RHO0, np.zeros(3), 1e-6)
    drag = -model.MASS * body.acceleration[0]
    assert drag == pytest.approx(0.255, abs=0.001)
    assert math.degrees(math.atan(drag / (model.MASS * model.G))) == pytest.approx(16.6, abs=0.05)


def test_hover_power_and_endurance(tello):
    w = tello.hover_motor_speed_rad_s()
    thrust = np.full(4, model.MASS * model.G / 4)
    p = battery.electrical_power(tello.physics, thrust, np.full(4, w), model.RHO0)
    assert p == pytest.approx(18.66, abs=0.1)
    endurance_min = model.ENERGY_WH * 3600 / p / 60
    assert endurance_min == pytest.approx(13.4, abs=0.1)
