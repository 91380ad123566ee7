"""MANUAL STABILISED flight checks (docs/model.md#stabilised-manual-flight; issue #3 item 5), in the empty lab world.

Figures come from docs/model.md: 8 m/s × MotorPower cruise, 25° tilt limit, ±2 m/s Y/A, 0.5/s
MotorPower rate, the 50 ms spin-down, the drag-balanced tilt at 8 m/s.
"""

import math

import pytest

from components.flight import Rotors
from tests import model

FRAME = 1 / 60


def tilt_deg(t):
    x, y, _, _ = t.quaternion
    return math.degrees(math.acos(max(-1.0, min(1.0, 1.0 - 2.0 * (x * x + y * y)))))


def armed_hover(make_sim, motor_power_s=1.0, **kw):
    """Lab world at 50 m, RT held for `motor_power_s` seconds (MotorPower = 0.5 × that)."""
    sim = make_sim(level=None, position=(0.0, 0.0, 50.0), **kw)
    sim.pad.rt = 1.0
    sim.run(motor_power_s)
    sim.pad.rt = 0.0
    return sim


def flick(sim, stick):
    sim.pad.left = stick
    sim.step()
    sim.pad.left = (0.0, 0.0)


def record(sim, seconds):
    out = []
    for _ in range(round(seconds * 60)):
        sim.step()
        out.append(sim.telemetry())
    return out


def test_starts_in_manual_stabilised_at_zero_power(make_sim):
    t = make_sim(level=None, position=(0.0, 0.0, 50.0)).telemetry()
    assert t.mode == "manual" and t.motor_power == 0.0 and not t.armed


def test_motor_power_ramps_at_half_per_second_and_is_kept(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 50.0))
    sim.pad.rt = 1.0
    sim.run(1.0)
    assert sim.telemetry().motor_power == pytest.approx(0.5, abs=1e-9)
    sim.pad.rt = 0.5  # proportional below full trigger
    sim.run(0.4)
    assert sim.telemetry().motor_power == pytest.approx(0.6, abs=1e-9)
    sim.pad.rt = 0.0
    sim.run(2.0)  # released trigger keeps the value
    assert sim.telemetry().motor_power == pytest.approx(0.6, abs=1e-9)
    sim.pad.lt = 1.0
    sim.run(0.2)
    assert sim.telemetry().motor_power == pytest.approx(0.5, abs=1e-9)


def test_converges_to_8_m_s_at_full_power_within_the_tilt_limit(make_sim):
    sim = armed_hover(make_sim, 2.0)
    assert sim.telemetry().motor_power == pytest.approx(1.0)
    flick(sim, (0.0, 1.0))
    log = record(sim, 12.0)
    assert max(tilt_deg(t) for t in log) <= 25.0 + 1e-6
    assert all(abs(t.position[2] - 50.0) <= 0.2 for t in log)
    end = log[-1]
    assert math.hypot(*end.velocity[:2]) == pytest.approx(8.0, rel=0.01)
    # drag at 8 m/s balanced by tilt: tan θ = ½ ρ v² CdA / (m g) ≈ 16.6°
    drag = 0.5 * model.RHO0 * 64 * model.CDA[0]
    assert tilt_deg(end) == pytest.approx(math.degrees(math.atan(drag / (model.MASS * model.G))), abs=0.3)
    # more total thrust than hover while tilted: unchanged MotorPower does not mean unchanged rpm
    assert sum(end.thrust) > model.MASS * model.G * 1.04


def test_altitude_hold_after_climb_release(make_sim):
    sim = armed_hover(make_sim)
    sim.pad.press("Y")
    climb = record(sim, 2.0)
    assert climb[-1].velocity[2] == pytest.approx(2.0, abs=0.05)
    released = climb[-1]
    sim.pad.release("Y")
    log = record(sim, 6.0)
    decel = sim.vehicle.control["vertical_brake_decel"]  # the documented braking the hold plans with
    stop = released.position[2] + released.velocity[2] ** 2 / (2 * decel)
    settled = log[-120:]
    assert all(abs(t.position[2] - stop) < 0.1 for t in settled)
    assert max(t.position[2] for t in log) - stop < 0.05  # no overshoot beyond 5 cm
    assert max(t.position[2] for t in settled) - min(t.position[2] for t in settled) < 0.05
    assert log[-1].target_altitude == pytest.approx(stop, abs=1e-6)


def test_descend_then_hold(make_sim):
    sim = armed_hover(make_sim)
    sim.pad.press("A")
    log = record(sim, 1.5)
    assert log[-1].velocity[2] == pytest.approx(-2.0, abs=0.05)
    sim.pad.release("A")
    log = record(sim, 4.0)
    assert abs(log[-1].velocity[2]) < 0.02


def test_cruise_kept_at_neutral_and_through_a_90_degree_yaw(make_sim):
    sim = armed_hover(make_sim)  # MotorPower 0.5 → 4 m/s
    flick(sim, (0.0, 1.0))  # forward = world +X (spawn heading 0)
    sim.run(6.0)
    v = sim.telemetry().velocity
    assert math.hypot(*v[:2]) == pytest.approx(4.0, rel=0.02)
    sim.pad.right = (-1.0, 0.0)  # yaw left at 120°/s
    log = record(sim, 0.75)
    sim.pad.right = (0.0, 0.0)
    log += record(sim, 3.0)
    assert log[-1].yaw_deg == pytest.approx(90.0, abs=3.0)
    for t in log:
        speed = math.hypot(*t.velocity[:2])
        assert speed == pytest.approx(4.0, rel=0.02)
        assert abs(math.degrees(math.atan2(t.velocity[1], t.velocity[0]))) < 1.0
        assert t.target_velocity[:2] == pytest.approx((4.0, 0.0), abs=1e-9)


def test_a_spring_stick_drifting_back_does_not_slow_the_cruise(make_sim):
    sim = armed_hover(make_sim)
    sim.pad.left = (1.0, 0.0)  # right = world −Y
    sim.run(3.0)
    for k in range(60):  # the stick eases back to centre over a second
        sim.pad.left = (1.0 - k / 60, 0.0)
        sim.step()
    sim.pad.left = (0.0, 0.0)
    log = record(sim, 2.0)
    assert log[-1].target_velocity[:2] == pytest.approx((0.0, -4.0), abs=1e-9)
    assert math.hypot(*log[-1].velocity[:2]) == pytest.approx(4.0, rel=0.02)


def test_stick_amplitude_outside_the_dead_zone_does_not_set_speed(make_sim):
    sim = armed_hover(make_sim)
    flick(sim, (0.0, 0.4))
    assert math.hypot(*sim.telemetry().target_velocity[:2]) == pytest.approx(4.0)


def test_brake_stops_then_holds(make_sim):
    sim = armed_hover(make_sim, 2.0)
    flick(sim, (0.0, 1.0))
    sim.run(6.0)
    sim.pad.press("LS")
    sim.step()
    sim.pad.release("LS")
    log = record(sim, 6.0)
    assert log[-1].target_velocity[:2] == (0.0, 0.0)
    assert all(math.hypot(*t.velocity) < 0.1 for t in log[-120:])
    held = log[-120].position
    assert math.dist(held, log[-1].position) < 0.05


def test_rt_lt_change_motor_power_independently_of_climb(make_sim):
    sim = armed_hover(make_sim)
    sim.pad.press("Y")
    sim.pad.rt = 1.0
    sim.run(0.4)
    t = sim.telemetry()
    assert t.motor_power == pytest.approx(0.7, abs=1e-9)
    assert t.target_velocity[2] == 2.0
    sim.pad.rt = 0.0
    sim.pad.release("Y")
    sim.pad.press("A")
    sim.pad.lt = 1.0
    sim.run(0.4)
    t = sim.telemetry()
    assert t.motor_power == pytest.approx(0.5, abs=1e-9)
    assert t.target_velocity[2] == -2.0


def test_climb_does_not_reduce_horizontal_speed(make_sim):
    sim = armed_hover(make_sim, 2.0)
    flick(sim, (0.0, 1.0))
    sim.run(10.0)
    sim.pad.press("Y")
    log = record(sim, 3.0)
    for t in log:
        assert math.hypot(*t.target_velocity[:2]) == pytest.approx(8.0)
    assert math.hypot(*log[-1].velocity[:2]) == pytest.approx(8.0, rel=0.02)
    assert log[-1].velocity[2] == pytest.approx(2.0, abs=0.1)


def test_constant_wind_position_held(make_sim):
    sim = armed_hover(make_sim, wind=(5.0, 0.0, 0.0))  # the hover point is taken at arming
    sim.run(10.0)
    assert math.dist(sim.telemetry().position[:2], (0.0, 0.0)) < 0.2


def test_exact_cut_at_zero_then_restart_brakes_the_fall(make_sim):
    sim = armed_hover(make_sim)
    sim.run(2.0)
    hover_rpm = sim.telemetry().rpm[0]
    sim.pad.lt = 1.0
    sim.run(1.0)  # 0.5 → 0 at 0.5/s: exactly zero
    sim.pad.lt = 0.0
    (rotors,) = sim.components(Rotors)
    t0 = sim.telemetry()
    assert t0.motor_power == 0.0 and not t0.armed
    assert list(rotors.thrust_command_n) == [0.0] * 4 and list(rotors.setpoint_rad_s) == [0.0] * 4
    # climb keys cannot bypass the cut
    sim.pad.press("Y")
    log = record(sim, 0.5)
    sim.pad.release("Y")
    assert all(t.thrust[0] < 1e-3 or t.rpm[0] < t0.rpm[0] for t in log)
    assert log[0].rpm[0] == pytest.approx(t0.rpm[0] * math.exp(-FRAME / model.TAU_DOWN), rel=1e-6)
    assert log[-1].velocity[2] < -3.0  # falling
    # RT during the fall re-arms from the present state and brakes it, continuously
    sim.pad.rt = 1.0
    log.append(record(sim, FRAME)[0])
    sim.pad.rt = 0.0
    log = log[-2:] + record(sim, 4.0)
    for a, b in zip(log, log[1:]):
        v = max(math.hypot(*a.velocity), math.hypot(*b.velocity))
        assert math.dist(a.position, b.position) <= v * FRAME + 1e-3
        assert math.dist(a.velocity, b.velocity) < 0.5  # no velocity jump either
    assert abs(log[-1].velocity[2]) < 0.1
    assert log[-1].battery_fraction < 1.0 and log[-1].armed
    assert hover_rpm > 0


def test_exactly_zero_means_no_thrust_in_every_mode(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 50.0))
    sim.set_mode("angle")
    sim.pad.press("Y")
    sim.pad.left = (1.0, 0.0)
    sim.run(0.5)
    (rotors,) = sim.components(Rotors)
    assert list(rotors.thrust_command_n) == [0.0] * 4 and max(rotors.speed_rad_s) == 0.0


def test_under_thrust_saturation_altitude_comes_before_speed(make_sim):
    # thin air: at 0.7 kg/m³ the rotors' thrust is 0.7/1.225 of sea level's at equal speed, so
    # hover needs ω ≈ 1721·√(1.225/0.7) ≈ 2277 rad/s (21 700 rpm) of the ≈ 23 000 available:
    # too little is left to tilt 16.6° and carry 8 m/s against drag
    sim = armed_hover(make_sim, 2.0, density=0.7)
    flick(sim, (0.0, 1.0))
    log = record(sim, 10.0)
    assert all(abs(t.position[2] - 50.0) < 0.2 for t in log)  # altitude kept …
    assert max(tilt_deg(t) for t in log) <= 25.0 + 1e-6  # … attitude kept …
    speed = math.hypot(*log[-1].velocity[:2])
    assert 1.0 < speed < 7.5  # … and the horizontal speed gives way
    assert math.hypot(*log[-1].target_velocity[:2]) == pytest.approx(8.0)  # though still asked
