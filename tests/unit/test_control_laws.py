"""The control laws of flight/control/, one at a time, in PX4's manner: a step in, the output the
documented law gives out — the rate loop's torque, the attitude loop's rates, the mixer's
thrusts, the stabilised loops' acceleration and attitude setpoints — then the limits (max rate,
max tilt, thrust bounds, the mixer's priorities), anti-windup (the integrators' clamps, windows
and freezes) and resets.

Each expected value is computed here from the law as its module docstring and docs/model.md
write it, with the vehicle's parameters (the Tello's file values; tests/model.py for the
figures docs/model.md states), never copied from what the code printed. The laws are called
on fresh arrays: `loop_state` from its table, `body` from a RigidBody, the vehicle's `gains`
and `physics` (copied where a test changes one gain to isolate a law)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from components.flight import Controller, RigidBody, Rotors
from components.layout import (
    ACC_SP, COUNTDOWN, HEADING, HOLD_ALTITUDE, HOLD_POSITION, HOLD_POSITION_SET, LAST_ACC, LAST_ACC_SET,
    LAW_ACRO, LAW_ANGLE, LAW_STABILISED, LINE_SET, LOOP_STATE, Q_SP, RATE_INTEGRAL, RATE_SP, TAN_MAX_TILT,
    TARGET_ALTITUDE, TARGET_VELOCITY, TARGET_YAW_RATE, TARGETS, TORQUE_SCALE_RP, TORQUE_SCALE_YAW, TORQUE_SP,
    VEL_INTEGRAL, VEL_REF, VEL_REF_SET, VZ_INTEGRAL, YAW_RATE_SP,
)
from flight import quat
from flight.control.attitude import attitude_update
from flight.control.cascade import from_rates
from flight.control.lab import acro_update, angle_update
from flight.control.mixer import mix
from flight.control.rate import rate_update
from flight.control.stabilised import stabilised_outer, stabilised_update, vertical_speed_for
from flight.control.tick import control_tick
from flight.vehicle import default_vehicle
from tests import model

DT = 1.0 / 240.0  # the inner loops' tick
RHO0 = model.RHO0
IDENTITY = (0.0, 0.0, 0.0, 1.0)


@pytest.fixture(scope="module")
def tello():
    return default_vehicle()


@pytest.fixture
def gains(tello):
    return tello.gains.copy()


@pytest.fixture
def physics(tello):
    return tello.physics.copy()


def loop_state():
    return LOOP_STATE.fresh()


def body_at(position=(0.0, 0.0, 10.0), velocity=(0.0, 0.0, 0.0), quaternion=IDENTITY, rates=(0.0, 0.0, 0.0)):
    return RigidBody(position=position, velocity=velocity, quaternion=quaternion, angular_velocity=rates).state


def max_thrust_n(tello, density=RHO0):
    """One rotor at the rated max speed: T = kT ω² ρ/ρ₀ (docs/model.md#equations-of-motion)."""
    return model.KT * tello.max_motor_speed_rad_s ** 2 * density / RHO0


# the allocation of docs/model.md: ΣT = T, Σ yᵢTᵢ = τx, −Σ xᵢTᵢ = τy, −Σ spinᵢ k Tᵢ = τz, with the
# motor centres and spins of docs/model.md#units-and-frames (0 FR, 1 RR, 2 RL, 3 FL; 0 and 2 CCW)
ROTOR_X = np.array([model.ARM_X, -model.ARM_X, -model.ARM_X, model.ARM_X])
ROTOR_Y = np.array([-model.ARM_Y, -model.ARM_Y, model.ARM_Y, model.ARM_Y])
SPIN = np.array([1.0, -1.0, 1.0, -1.0])
ALLOCATION = np.array([np.ones(4), ROTOR_Y, -ROTOR_X, -SPIN * model.REACTION])


def produced(thrusts):
    """(ΣT, τx, τy, τz) four rotor thrusts give."""
    return ALLOCATION @ np.asarray(thrusts)


# -- rate loop: α = Kp (ω_sp − ω) + ∫ Ki (ω_sp − ω) dt, τ = I α + ω × Iω ---------------------------
def test_a_rate_step_gives_inertia_times_p_plus_the_first_integral_step(tello, gains, physics):
    ls, body = loop_state(), body_at()
    sp = (0.3, -0.2, 0.1)  # rad/s, inside the integrator window (30 °/s)
    torque = rate_update(ls, gains, physics, body, *sp, DT, False)
    for i in range(3):
        integral = tello.rate_i[i] * sp[i] * DT  # the integrator learns before it is used
        alpha = tello.rate_p[i] * sp[i] + integral
        assert torque[i] == pytest.approx(model.INERTIA[i] * alpha, rel=1e-12)
        assert ls[RATE_INTEGRAL + i] == pytest.approx(integral, rel=1e-12)
        assert ls[RATE_SP + i] == sp[i] and ls[TORQUE_SP + i] == torque[i]


def test_the_gyroscopic_coupling_is_fed_forward(gains, physics):
    w = np.array([1.0, 2.0, -1.5])
    ls = loop_state()
    torque = rate_update(ls, gains, physics, body_at(rates=w), *w, DT, False)  # no rate error
    assert torque == pytest.approx(tuple(np.cross(w, np.array(model.INERTIA) * w)), rel=1e-12)
    assert list(ls[RATE_INTEGRAL:RATE_INTEGRAL + 3]) == [0.0, 0.0, 0.0]


def test_the_rate_integrator_learns_only_inside_its_window(tello, gains, physics):
    window = tello.rate_i_window_rad_s
    assert window == pytest.approx(math.radians(30.0))
    outside, inside = loop_state(), loop_state()
    torque = rate_update(outside, gains, physics, body_at(), window * 1.01, 0.0, 0.0, DT, False)
    assert outside[RATE_INTEGRAL] == 0.0  # a stick step's transient does not wind it up
    assert torque[0] == pytest.approx(model.INERTIA[0] * tello.rate_p[0] * window * 1.01, rel=1e-12)
    rate_update(inside, gains, physics, body_at(), window * 0.99, 0.0, 0.0, DT, False)
    assert inside[RATE_INTEGRAL] == pytest.approx(tello.rate_i[0] * window * 0.99 * DT, rel=1e-12)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_the_rate_integrator_stops_at_its_limit(tello, gains, physics, sign):
    ls, error = loop_state(), sign * 0.35  # rad/s
    step = tello.rate_i[0] * 0.35 * DT
    steps_to_limit = math.ceil(tello.rate_i_limit_rad_s2 / step)
    assert steps_to_limit * step > tello.rate_i_limit_rad_s2 * (1 + 1e-9)  # the last step would overshoot
    for n in range(1, steps_to_limit + 30):
        rate_update(ls, gains, physics, body_at(), error, 0.0, 0.0, DT, False)
        if n < steps_to_limit:
            assert abs(ls[RATE_INTEGRAL]) == pytest.approx(n * step, rel=1e-9)
        else:
            assert ls[RATE_INTEGRAL] == sign * tello.rate_i_limit_rad_s2


def test_the_rate_integrator_holds_while_the_mixer_cuts_torque(tello, gains, physics):
    ls = loop_state()
    ls[RATE_INTEGRAL:RATE_INTEGRAL + 3] = (5.0, -4.0, 1.0)
    torque = rate_update(ls, gains, physics, body_at(), 0.2, 0.2, 0.2, DT, True)
    assert list(ls[RATE_INTEGRAL:RATE_INTEGRAL + 3]) == [5.0, -4.0, 1.0]
    assert torque[0] == pytest.approx(model.INERTIA[0] * (tello.rate_p[0] * 0.2 + 5.0), rel=1e-12)
    # the cascade freezes it when the mixer had to scale the roll/pitch torque down last tick
    ls[TORQUE_SCALE_RP] = 0.5
    from_rates(ls, gains, physics, body_at(), 0.2, 0.2, 0.2, 0.5, max_thrust_n(default_vehicle()), DT)
    assert list(ls[RATE_INTEGRAL:RATE_INTEGRAL + 3]) == [5.0, -4.0, 1.0]
    ls[TORQUE_SCALE_RP] = 1.0
    from_rates(ls, gains, physics, body_at(), 0.2, 0.0, 0.0, 0.5, max_thrust_n(default_vehicle()), DT)
    assert ls[RATE_INTEGRAL] == pytest.approx(5.0 + tello.rate_i[0] * 0.2 * DT, rel=1e-12)


# -- attitude loop: ω_sp = 2 K (q⁻¹ ⊗ q_sp)_xyz, tilt first, heading weighted, limited -----------
def about(axis, angle):
    return quat.from_axis_angle(axis, angle)


@pytest.mark.parametrize("axis,index", [((1.0, 0.0, 0.0), 0), ((0.0, 1.0, 0.0), 1)])
def test_a_tilt_error_asks_for_twice_the_gain_times_the_half_angle_sine(tello, gains, axis, index):
    theta = -0.2
    rates = attitude_update(gains, IDENTITY, about(axis, theta), 0.0, True)
    expected = [0.0, 0.0, 0.0]
    expected[index] = 2.0 * tello.attitude_gain * math.sin(theta / 2)
    assert rates == pytest.approx(expected, abs=1e-15)


def test_the_heading_error_is_weighted_by_the_yaw_gain_over_the_attitude_gain(tello, gains):
    psi = 0.3
    rates = attitude_update(gains, IDENTITY, about((0.0, 0.0, 1.0), psi), 0.0, True)
    weight = tello.yaw_attitude_gain / tello.attitude_gain
    assert rates == pytest.approx((0.0, 0.0, 2.0 * tello.attitude_gain * math.sin(weight * psi / 2)), abs=1e-15)


def test_the_body_rates_asked_are_limited_to_max_rate(tello, gains):
    roll = attitude_update(gains, IDENTITY, about((1.0, 0.0, 0.0), 2.5), 0.0, True)
    assert roll[0] == tello.max_rate_rad_s[0] == pytest.approx(math.radians(360.0))
    yaw = attitude_update(gains, IDENTITY, about((0.0, 0.0, 1.0), -2.0), 0.0, True)
    assert yaw[2] == -tello.max_rate_rad_s[2] == pytest.approx(-math.radians(180.0))


def test_the_heading_rate_is_fed_forward_about_the_thrust_axis_or_world_z(gains):
    phi = 0.4  # rolled, no attitude error
    q = about((1.0, 0.0, 0.0), phi)
    assert attitude_update(gains, q, q, 0.3, True) == pytest.approx((0.0, 0.0, 0.3), abs=1e-15)
    # about world Z (Angle): world Z in body axes is (0, sin φ, cos φ)
    assert attitude_update(gains, q, q, 0.3, False) == pytest.approx((0.0, 0.3 * math.sin(phi), 0.3 * math.cos(phi)),
                                                                     abs=1e-15)


# -- mixer: the allocation inverted; torques give way, yaw first, never the collective -------------
def test_a_pure_collective_is_shared_equally(tello, gains):
    ls = loop_state()
    thrusts = mix(ls, gains, 0.8, 0.0, 0.0, 0.0, max_thrust_n(tello))
    assert thrusts == pytest.approx((0.2, 0.2, 0.2, 0.2), rel=1e-12)
    assert ls[TORQUE_SCALE_RP] == ls[TORQUE_SCALE_YAW] == 1.0


def test_torques_within_the_thrust_range_are_produced_exactly(tello, gains):
    wanted = np.array([0.9, 2.0e-3, -1.5e-3, 3.0e-4])  # N, N·m
    thrusts = mix(loop_state(), gains, *wanted, max_thrust_n(tello))
    assert thrusts == pytest.approx(tuple(np.linalg.solve(ALLOCATION, wanted)), rel=1e-12)
    assert produced(thrusts) == pytest.approx(wanted, rel=1e-12)


def test_under_saturation_yaw_gives_way_first(tello, gains):
    t_max = max_thrust_n(tello)
    collective, tx, ty, tz = 3.4 * t_max, 4.0e-3, 0.0, 1.0e-3  # near full thrust: room for roll, not for yaw
    ls = loop_state()
    thrusts = mix(ls, gains, collective, tx, ty, tz, t_max)
    total, rx, ry, rz = produced(thrusts)
    assert total == pytest.approx(collective, rel=1e-12)  # the collective is kept
    assert (rx, ry) == pytest.approx((tx, ty), rel=1e-9, abs=1e-15)  # roll in full
    assert 0.0 < rz < tz and ls[TORQUE_SCALE_RP] == 1.0  # yaw only in part …
    assert rz == pytest.approx(ls[TORQUE_SCALE_YAW] * tz, rel=1e-9)
    assert min(thrusts) >= 0.0 and max(thrusts) <= t_max
    assert max(thrusts) == pytest.approx(t_max, rel=1e-12) or min(thrusts) == pytest.approx(0.0, abs=1e-15)  # … as much as fits


def test_a_roll_torque_beyond_the_range_is_scaled_and_the_collective_kept(tello, gains):
    t_max = max_thrust_n(tello)
    collective, tx = 2.0 * t_max, 0.05  # far more roll than two rotors' lever arm can give
    ls = loop_state()
    thrusts = mix(ls, gains, collective, tx, 0.0, 1.0e-3, t_max)
    total, rx, _, _ = produced(thrusts)
    assert total == pytest.approx(collective, rel=1e-12)
    scale = ls[TORQUE_SCALE_RP]
    assert 0.0 < scale < 1.0 and rx == pytest.approx(scale * tx, rel=1e-9)
    # the largest roll the range allows: two rotors at T_max, two at 0, with the collective kept (2 T_max)
    assert rx == pytest.approx(2.0 * t_max * model.ARM_Y, rel=1e-9)
    assert ls[TORQUE_SCALE_YAW] == 0.0  # nothing left for yaw


def test_the_collective_is_bounded_by_four_rotors(tello, gains):
    t_max = max_thrust_n(tello)
    assert mix(loop_state(), gains, 10.0, 0.0, 0.0, 0.0, t_max) == pytest.approx((t_max,) * 4, rel=1e-12)
    assert mix(loop_state(), gains, -1.0, 0.0, 0.0, 0.0, t_max) == (0.0, 0.0, 0.0, 0.0)


# -- the laboratory models -----------------------------------------------------------------------
def test_acro_sticks_ask_for_body_rates_up_to_max_rate(tello, gains, physics):
    ls, body = loop_state(), body_at()
    lab = Controller(lab_stick=(0.5, -0.25), lab_yaw_stick=0.4, collective=0.3).lab
    acro_update(ls, gains, physics, body, lab, RHO0, max_thrust_n(tello), DT)
    assert list(ls[RATE_SP:RATE_SP + 3]) == pytest.approx(
        [0.5 * tello.max_rate_rad_s[0], -0.25 * tello.max_rate_rad_s[1], -0.4 * tello.max_rate_rad_s[2]],
        rel=1e-15)  # yaw stick right: clockwise, negative about Z


def test_the_lab_collective_is_a_fraction_of_four_rotors_at_the_rated_max_speed(tello, gains, physics):
    lab = Controller(collective=0.3).lab
    thrusts = acro_update(loop_state(), gains, physics, body_at(), lab, RHO0 / 2, max_thrust_n(tello), DT)
    full = 4.0 * model.KT * (model.MAX_RPM * model.RPM) ** 2 * 0.5  # at half the reference density
    assert thrusts == pytest.approx((0.3 * full / 4,) * 4, rel=1e-12)


def test_angle_sticks_ask_for_tilt_and_turn_the_heading(tello, gains, physics):
    ls = loop_state()
    angle_update(ls, gains, physics, body_at(), Controller(lab_stick=(1.0, 0.0)).lab, RHO0, max_thrust_n(tello), DT)
    tilt = tello.angle_max_tilt_rad  # full stick: the largest tilt, about X, from level
    assert list(ls[RATE_SP:RATE_SP + 3]) == pytest.approx([2.0 * tello.attitude_gain * math.sin(tilt / 2), 0.0, 0.0],
                                                          rel=1e-12, abs=1e-15)
    lab = Controller(lab_stick=(1.0, 0.0), lab_yaw_stick=0.5).lab
    ls = loop_state()
    angle_update(ls, gains, physics, body_at(), lab, RHO0, max_thrust_n(tello), DT)
    yaw_rate = -0.5 * tello.max_yaw_rate_rad_s  # right: clockwise
    assert ls[HEADING] == pytest.approx(yaw_rate * DT, rel=1e-15)
    # already there, the loop asks for nothing but the heading rate fed forward
    ls = loop_state()
    q = quat.from_euler(tilt, 0.0, yaw_rate * DT)
    angle_update(ls, gains, physics, body_at(quaternion=q), lab, RHO0, max_thrust_n(tello), DT)
    fed = (0.0, yaw_rate * math.sin(tilt), yaw_rate * math.cos(tilt))  # world Z in the rolled body's axes
    assert list(ls[RATE_SP:RATE_SP + 3]) == pytest.approx(fed, abs=1e-9)


# -- the stabilised loops --------------------------------------------------------------------------
def test_the_altitude_profile_is_linear_near_the_target_then_braked_then_limited(tello, gains):
    decel = tello.vertical_brake_decel_m_s2
    k = max(tello.altitude_gain, decel / tello.altitude_linear_speed_m_s)
    edge = decel / k ** 2  # where the two parts meet
    assert vertical_speed_for(gains, 0.5 * edge, decel) == pytest.approx((k * 0.5 * edge, k), rel=1e-12)
    v, slope = vertical_speed_for(gains, -0.3, decel)
    assert v == pytest.approx(-math.sqrt(2.0 * decel * (0.3 - 0.5 * edge)), rel=1e-12)
    assert slope == pytest.approx(decel / abs(v), rel=1e-12)
    assert vertical_speed_for(gains, edge, decel)[0] == pytest.approx(math.sqrt(decel * edge), rel=1e-12)  # continuous
    assert vertical_speed_for(gains, 5.0, decel) == (tello.max_vertical_speed_m_s, 0.0)


def hover_targets(altitude=10.0):
    targets = Controller(target_altitude=altitude, hold_position=(0.0, 0.0)).targets
    assert targets[HOLD_ALTITUDE] == 1.0 and targets[HOLD_POSITION_SET] == 1.0
    return targets


def test_hovering_in_place_asks_for_g_a_level_attitude_and_the_weight_in_thrust(tello, gains, physics):
    ls, body, targets = loop_state(), body_at(), hover_targets()
    thrusts = stabilised_update(ls, gains, physics, body, targets, RHO0, max_thrust_n(tello), DT)
    assert list(ls[ACC_SP:ACC_SP + 3]) == [0.0, 0.0, model.G]
    assert list(ls[Q_SP:Q_SP + 4]) == pytest.approx(IDENTITY, abs=1e-15)
    assert thrusts == pytest.approx((model.MASS * model.G / 4,) * 4, rel=1e-12)


def cruising_reference(ls, speed_m_s):
    """The cruise reference has arrived at (speed, 0): no reference acceleration left."""
    ls[VEL_REF_SET], ls[VEL_REF], ls[VEL_REF + 1] = 1.0, speed_m_s, 0.0


def cruise_targets(speed_m_s, altitude=10.0):
    return Controller(target_velocity=(speed_m_s, 0.0, 0.0), target_altitude=altitude).targets


def test_the_tilt_limit_bounds_the_horizontal_acceleration(tello, gains, physics):
    ls, body = loop_state(), body_at()
    cruising_reference(ls, 8.0)  # 8 m/s wanted at once from rest: K_v · 8 ≫ g tan 25°
    stabilised_outer(ls, gains, physics, body, cruise_targets(8.0), RHO0, max_thrust_n(tello), 2 * DT)
    assert list(ls[ACC_SP:ACC_SP + 3]) == pytest.approx([model.G * math.tan(math.radians(25.0)), 0.0, model.G],
                                                        rel=1e-12)
    q = ls[Q_SP:Q_SP + 4]
    tilt = math.acos(1.0 - 2.0 * (q[0] ** 2 + q[1] ** 2))  # body Z from the vertical
    assert tilt == pytest.approx(math.radians(25.0), rel=1e-12)
    # anti-windup: the error along the saturated acceleration is not learnt
    assert list(ls[VEL_INTEGRAL:VEL_INTEGRAL + 2]) == [0.0, 0.0]


def test_the_horizontal_loop_below_saturation(tello, gains, physics):
    ls, body, dt = loop_state(), body_at(), 2 * DT
    cruising_reference(ls, 0.5)
    stabilised_outer(ls, gains, physics, body, cruise_targets(0.5), RHO0, max_thrust_n(tello), dt)
    drag_ff = 0.5 * RHO0 * 0.5 * model.CDA[0] / model.MASS  # at the reference, still air
    # a = K_v e + ∫ (the errors learnt so far: none) + drag feed-forward; then this error is learnt
    assert ls[ACC_SP] == pytest.approx(tello.velocity_gain * 0.5 + drag_ff * 0.5, rel=1e-12)
    assert ls[VEL_INTEGRAL] == pytest.approx(tello.velocity_i * dt * 0.5, rel=1e-12)
    stabilised_outer(ls, gains, physics, body, cruise_targets(0.5), RHO0, max_thrust_n(tello), dt)
    assert ls[ACC_SP] == pytest.approx(tello.velocity_gain * 0.5 + tello.velocity_i * dt * 0.5 + drag_ff * 0.5,
                                       rel=1e-12)


def test_the_horizontal_integrator_is_bounded_in_norm(tello, gains, physics):
    ls, body, dt = loop_state(), body_at(), 2 * DT
    cruising_reference(ls, 0.5)
    limit = tello.velocity_i_limit_m_s2
    ls[VEL_INTEGRAL + 1] = limit
    stabilised_outer(ls, gains, physics, body, cruise_targets(0.5), RHO0, max_thrust_n(tello), dt)
    ix, iy = ls[VEL_INTEGRAL], ls[VEL_INTEGRAL + 1]
    assert math.hypot(ix, iy) == pytest.approx(limit, rel=1e-12)
    learnt = tello.velocity_i * dt * 0.5
    assert ix / iy == pytest.approx(learnt / limit, rel=1e-9)  # scaled back along the sum, not clipped per axis


def test_the_hovering_point_asks_for_at_most_the_position_speed_limit(tello, gains, physics):
    gains[TAN_MAX_TILT] = 100.0  # tilt unlimited here, to read the speed the position loop asks for
    ls, body = loop_state(), body_at()
    targets = hover_targets()
    targets[HOLD_POSITION] = 10.0  # 10 m ahead: K_pos · 10 ≫ the limit
    stabilised_outer(ls, gains, physics, body, targets, RHO0, max_thrust_n(tello), 2 * DT)
    assert ls[ACC_SP] == pytest.approx(tello.velocity_gain * tello.position_speed_limit_m_s, rel=1e-12)


def test_the_acceleration_setpoint_moves_at_most_max_jerk(tello, gains, physics):
    ls, body, dt = loop_state(), body_at(), 2 * DT
    cruising_reference(ls, 8.0)
    ls[LAST_ACC_SET] = 1.0  # the last outer update asked for no horizontal acceleration
    stabilised_outer(ls, gains, physics, body, cruise_targets(8.0), RHO0, max_thrust_n(tello), dt)
    assert ls[ACC_SP] == pytest.approx(tello.max_jerk_m_s3 * dt, rel=1e-12)
    assert list(ls[LAST_ACC:LAST_ACC + 2]) == [ls[ACC_SP], ls[ACC_SP + 1]]


def vertical_targets(vz_m_s):
    targets = Controller(target_velocity=(0.0, 0.0, vz_m_s), hold_altitude=False).targets
    assert targets[HOLD_ALTITUDE] == 0.0
    return targets


@pytest.mark.parametrize("error_m_s,learns", [(0.3, True), (-0.45, True), (0.6, False), (-1.0, False)])
def test_the_vertical_integrator_learns_only_inside_its_window(tello, gains, physics, error_m_s, learns):
    ls, dt = loop_state(), 2 * DT
    body = body_at(velocity=(0.0, 0.0, -error_m_s))  # asked to hover: the error is −v
    assert abs(error_m_s) < tello.integrator_window_m_s if learns else abs(error_m_s) >= tello.integrator_window_m_s
    stabilised_outer(ls, gains, physics, body, vertical_targets(0.0), RHO0, max_thrust_n(tello), dt)
    expected = tello.vertical_velocity_i * error_m_s * dt if learns else 0.0
    assert ls[VZ_INTEGRAL] == pytest.approx(expected, rel=1e-12, abs=0.0)


def test_the_vertical_integrator_stops_at_its_limit(tello, gains, physics):
    ls, body = loop_state(), body_at(velocity=(0.0, 0.0, -0.4))
    ls[VZ_INTEGRAL] = tello.vertical_velocity_i_limit_m_s2 - 1e-4
    stabilised_outer(ls, gains, physics, body, vertical_targets(0.0), RHO0, 4.0 * max_thrust_n(tello), 2 * DT)
    assert ls[VZ_INTEGRAL] == tello.vertical_velocity_i_limit_m_s2


def test_under_vertical_saturation_the_integrator_only_unwinds(tello, gains, physics):
    weak = 12.0 * model.MASS / 4.0  # a sagging pack: four rotors give 12 m/s², and the loop asks for more
    dt = 2 * DT
    body = body_at(velocity=(0.0, 0.0, -0.45))  # falling, asked to hover: 5 · 0.45 + g > 12 m/s²
    assert tello.vertical_velocity_gain * 0.45 + model.G > 12.0
    ls = loop_state()
    stabilised_outer(ls, gains, physics, body, vertical_targets(0.0), RHO0, weak, dt)
    assert ls[ACC_SP + 2] == pytest.approx(12.0, rel=1e-12)  # all the thrust there is
    ls = loop_state()
    ls[VZ_INTEGRAL] = 2.0  # saturated up: the integrator holds (below its limit, so only the freeze holds it)
    stabilised_outer(ls, gains, physics, body, vertical_targets(0.0), RHO0, weak, dt)
    assert ls[VZ_INTEGRAL] == 2.0
    ls = loop_state()
    ls[VZ_INTEGRAL] = -1.0  # pushing the other way: it may unwind
    stabilised_outer(ls, gains, physics, body, vertical_targets(0.0), RHO0, 5.0 * model.MASS / 4.0, dt)
    assert ls[VZ_INTEGRAL] == pytest.approx(-1.0 + tello.vertical_velocity_i * 0.45 * dt, rel=1e-12)


def test_the_heading_setpoint_turns_with_a_limited_yaw_acceleration(tello, gains, physics):
    ls, body, dt = loop_state(), body_at(), 2 * DT
    targets = hover_targets()
    targets[TARGET_YAW_RATE] = 1.0  # rad/s, asked at once
    stabilised_outer(ls, gains, physics, body, targets, RHO0, max_thrust_n(tello), dt)
    step = tello.max_yaw_acceleration_rad_s2 * dt
    assert ls[YAW_RATE_SP] == pytest.approx(step, rel=1e-12)
    assert ls[HEADING] == pytest.approx(step * dt, rel=1e-12)


def test_the_outer_loops_run_every_outer_divider_ticks(tello, gains, physics):
    ls, body, targets = loop_state(), body_at(velocity=(0.0, 0.0, -0.3)), vertical_targets(0.0)
    divider = int(tello.outer_divider)
    assert divider == round(240 / 120)
    integrals = []
    for _ in range(2 * divider):
        stabilised_update(ls, gains, physics, body, targets, RHO0, max_thrust_n(tello), DT)
        integrals.append(ls[VZ_INTEGRAL])
    step = tello.vertical_velocity_i * 0.3 * DT * divider  # each outer update integrates its own period
    assert integrals == pytest.approx([step] * divider + [2 * step] * divider, rel=1e-12)
    assert ls[COUNTDOWN] == 0.0


# -- the tick: the motor command and the cut ---------------------------------------------------------
def test_motor_setpoints_lead_the_motor_lag(tello, gains, physics):
    rotors = Rotors(speed_rad_s=[1600.0] * 4, max_speed_rad_s=tello.max_motor_speed_rad_s, armed=True)
    ctrl = Controller(collective=0.5)
    control_tick(LAW_ACRO, loop_state(), gains, physics, body_at(), rotors.state, ctrl.targets, ctrl.lab, RHO0, DT)
    thrust = 0.5 * model.KT * (model.MAX_RPM * model.RPM) ** 2  # a quarter of half the full collective
    wanted = math.sqrt(thrust / model.KT)
    lead = tello.motor_lead_time_s
    assert list(rotors.thrust_command_n) == pytest.approx([thrust] * 4, rel=1e-12)
    up = 1600.0 + (wanted - 1600.0) / (1.0 - math.exp(-lead / model.TAU_UP))
    assert list(rotors.setpoint_rad_s) == pytest.approx([up] * 4, rel=1e-12)
    rotors.speed_rad_s[:] = 2000.0  # faster than wanted: led with the spin-down constant
    control_tick(LAW_ACRO, loop_state(), gains, physics, body_at(), rotors.state, ctrl.targets, ctrl.lab, RHO0, DT)
    down = 2000.0 + (wanted - 2000.0) / (1.0 - math.exp(-lead / model.TAU_DOWN))
    assert list(rotors.setpoint_rad_s) == pytest.approx([down] * 4, rel=1e-12)
    rotors.speed_rad_s[:] = 0.0  # from rest the lead asks for more than there is: the limit
    control_tick(LAW_ACRO, loop_state(), gains, physics, body_at(), rotors.state, ctrl.targets, ctrl.lab, RHO0, DT)
    assert list(rotors.setpoint_rad_s) == [tello.max_motor_speed_rad_s] * 4


@pytest.mark.parametrize("law", [LAW_STABILISED, LAW_ANGLE, LAW_ACRO])
def test_disarmed_nothing_is_commanded_and_the_cruise_reference_is_forgotten(tello, gains, physics, law):
    rotors = Rotors(speed_rad_s=[1700.0] * 4, setpoint_rad_s=[1700.0] * 4, thrust_command_n=[0.2] * 4,
                    max_speed_rad_s=tello.max_motor_speed_rad_s, armed=False)
    ls = loop_state()
    ls[VEL_REF_SET] = ls[LINE_SET] = 1.0
    ctrl = Controller(motor_power=0.0, collective=0.8, target_velocity=(8.0, 0.0, 2.0))
    control_tick(law, ls, gains, physics, body_at(), rotors.state, ctrl.targets, ctrl.lab, RHO0, DT)
    assert list(rotors.setpoint_rad_s) == [0.0] * 4 and list(rotors.thrust_command_n) == [0.0] * 4
    assert ls[VEL_REF_SET] == 0.0 and ls[LINE_SET] == 0.0


def test_targets_table_holds_what_the_stabilised_law_reads():
    """The stabilised law's inputs are the Controller's named setpoints, nothing else."""
    assert {r.name for r in TARGETS.rows} >= {"target_velocity", "target_altitude", "hold_altitude",
                                               "target_yaw_rate", "hold_position", "hold_line"}
    ctrl = Controller(target_velocity=(1.0, 2.0, 3.0), target_altitude=4.0)
    assert list(ctrl.targets[TARGET_VELOCITY:TARGET_VELOCITY + 3]) == [1.0, 2.0, 3.0]
    assert ctrl.targets[TARGET_ALTITUDE] == 4.0
