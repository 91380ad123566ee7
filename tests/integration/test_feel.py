"""What a player feels when letting go of a stick: yaw and vertical stops, Acro rate steps.

The physics sets a floor to every stop, computed here from the vehicle's parameters:

* yaw is braked by the rotors' reaction torques alone: at the hover collective C the mixer can
  put two diagonal rotors at full thrust T_max (or C/2) and the other two at what is left,
  τ = k (4 min(T_max, C/2) − C), so from ω the drone turns at least ω² I_z / (2 τ);
* a climb is braked by gravity at best (thrust to zero): v² / (2 g);
* a descent by the thrust margin: v² / (2 (4 T_max / m − g)).

T_max is the thrust at the rated max motor speed, sea level. Stops must stay within 1.5× of
these floors with no pull back; Acro rate steps overshoot by 10 % at most, and a bank held
with the sticks released stops rolling.
"""

import math

import pytest

from tests.jitter import JitteredFrames

from flight.vehicle import default_vehicle
from systems.pilot_input import radial_dead_zone

SLACK = 1.5


def max_thrust_n(v):
    return v.thrust_coefficient * v.max_motor_speed_rad_s ** 2


def yaw_floor_rad(v):
    t_max, c = max_thrust_n(v), v.weight_n
    torque = v.reaction_torque_ratio_m * (4.0 * min(t_max, c / 2.0) - c)
    rate = v.control["max_yaw_rate"]
    return rate * rate * v.inertia_kgm2[2] / (2.0 * torque)


def climb_floor_m(v):
    return v.command_vertical_speed_m_s ** 2 / (2.0 * v.gravity_m_s2)


def descent_floor_m(v):
    margin = 4.0 * max_thrust_n(v) / v.mass_kg - v.gravity_m_s2
    return v.command_vertical_speed_m_s ** 2 / (2.0 * margin)


def test_the_floors_are_the_physics_figures():
    v = default_vehicle()
    assert math.degrees(yaw_floor_rad(v)) == pytest.approx(5.6, abs=0.2)
    assert climb_floor_m(v) == pytest.approx(0.204, abs=0.002)
    assert descent_floor_m(v) == pytest.approx(0.26, abs=0.01)


class Pilot(JitteredFrames):
    def __init__(self, sim, seed=3):
        super().__init__(sim, seed)


def hover(make_sim, motor_power=0.5):
    sim = make_sim(level=None, position=(0.0, 0.0, 100.0))
    pilot = Pilot(sim)
    sim.pad.rt = 1.0
    pilot.record(motor_power / sim.vehicle.control["motor_power_rate"])
    sim.pad.rt = 0.0
    pilot.record(1.0)
    return sim, pilot


def test_a_released_yaw_stops_near_the_reaction_torque_floor(make_sim):
    for stick in (-1.0, 1.0):
        sim, pilot = hover(make_sim)
        sim.pad.right = (stick, 0.0)
        pilot.record(2.0)
        sim.pad.right = (0.0, 0.0)
        start = sim.telemetry().yaw_deg
        turn = -math.copysign(1.0, stick)  # stick right turns clockwise
        after = [turn * math.remainder(t.yaw_deg - start, 360.0) for t in pilot.record(3.0)]
        floor = math.degrees(yaw_floor_rad(sim.vehicle))
        assert max(after) <= SLACK * floor
        assert max(after) - after[-1] < 0.25  # no pull back
        assert abs(after[-1] - after[-30]) < 0.05  # and it stays


def vertical_stop(make_sim, button):
    sim, pilot = hover(make_sim)
    sim.pad.press(button)
    pilot.record(2.0)
    sim.pad.release(button)
    released = sim.telemetry()
    assert abs(released.velocity[2]) > 0.95 * sim.vehicle.command_vertical_speed_m_s
    sense = math.copysign(1.0, released.velocity[2])
    after = [sense * (t.position[2] - released.position[2]) for t in pilot.record(5.0)]
    return sim.vehicle, max(after), max(after) - after[-1], after


def test_a_released_climb_stops_near_the_gravity_floor(make_sim):
    v, travel, back, after = vertical_stop(make_sim, "Y")
    assert travel <= SLACK * climb_floor_m(v)
    assert back < 0.01
    assert abs(after[-1] - after[-60]) < 0.005


def test_a_released_descent_stops_near_the_thrust_margin_floor(make_sim):
    v, travel, back, after = vertical_stop(make_sim, "A")
    assert travel <= SLACK * descent_floor_m(v)
    assert back < 0.01
    assert abs(after[-1] - after[-60]) < 0.005


def acro(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 100.0))
    v = sim.vehicle
    pilot = Pilot(sim)
    sim.pad.rt = 1.0  # the direct collective that carries the weight: 1 / (T/W)
    hover_collective = v.weight_n / (4.0 * max_thrust_n(v))
    pilot.record(hover_collective / v.control["motor_power_rate"])
    sim.pad.rt = 0.0
    sim.set_mode("acro")
    pilot.record(0.5)
    return sim, pilot


def test_acro_rate_steps_overshoot_ten_percent_at_most(make_sim):
    for axis in (0, 1):
        for amount in (0.5, 1.0):
            sim, pilot = acro(make_sim)
            stick = [0.0, 0.0]
            stick[axis] = amount
            sim.pad.left = tuple(stick)
            target = radial_dead_zone(*stick, sim.vehicle.control["stick_dead_zone"])[axis] \
                * sim.vehicle.control["max_rate"][axis]
            rates = [t.angular_velocity[axis] for t in pilot.record(0.6)]
            assert max(rates) <= 1.10 * target
            assert rates[-1] >= 0.95 * target


def test_acro_a_bank_with_the_sticks_released_stops_rolling(make_sim):
    sim, pilot = acro(make_sim)
    sim.pad.left = (0.5, 0.0)
    while sim.telemetry().roll_deg < 70.0:
        pilot.frame()
    sim.pad.left = (0.0, 0.0)
    log = pilot.record(2.0)
    settled = [t for t in log if t.time >= log[0].time + 0.5]
    assert max(abs(math.degrees(t.angular_velocity[0])) for t in settled) < 6.0
    assert abs(settled[-1].roll_deg - settled[0].roll_deg) < 6.0
