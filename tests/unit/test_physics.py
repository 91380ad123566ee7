"""Deterministic physics checks (docs/model.md#equations-of-motion and #battery-and-power; issue #2 item 10).

Each asserts a figure derived from docs/model.md — ½ g t², √(m g / 4 kT), exponentials with the
35 / 50 ms constants, the drag equation — never a number copied from the code's output.
"""

import math

import numpy as np
import pytest

from components.flight import Battery, RigidBody, Rotors
from flight import battery as pack
from flight import quat
from flight.dynamics import rotor_thrust, step_body as _step_body, step_motors as _step_motors
from flight.vehicle import default_vehicle
from tests import model

DT = 1.0 / 240.0


# The compiled model works on the components' arrays; these adapters keep the checks readable.
def step_motors(rotors, vehicle, density, dt):
    _step_motors(rotors.state, vehicle.physics, density, dt)


def step_body(body, rotors, vehicle, density, wind, dt):
    _step_body(body.state, rotors.state, vehicle.physics, density, np.asarray(wind, dtype=float), dt)


@pytest.fixture
def tello():
    return default_vehicle()


def spinning(speed, armed=True, limit=1e9):
    r = Rotors()
    r.speed_rad_s[:] = speed if isinstance(speed, list) else [speed] * 4
    r.setpoint_rad_s[:] = r.speed_rad_s
    r.armed = armed
    r.max_speed_rad_s = limit
    r.thrust_n[:] = [model.KT * w * w for w in r.speed_rad_s]
    return r


def advance(body, rotors, vehicle, seconds, density=model.RHO0, wind=(0.0, 0.0, 0.0), dt=DT):
    for _ in range(round(seconds / dt)):
        step_motors(rotors, vehicle, density, dt)
        step_body(body, rotors, vehicle, density, wind, dt)


def test_free_fall_in_vacuum_matches_half_g_t_squared(make_sim):
    sim = make_sim(level=None, density=0.0, position=(0.0, 0.0, 100.0))
    sim.run(2.0)
    t = sim.telemetry()
    assert t.time == 2.0
    assert t.position[2] == pytest.approx(100.0 - 0.5 * model.G * 2.0 ** 2, abs=1e-9)
    assert t.velocity[2] == pytest.approx(-model.G * 2.0, abs=1e-9)
    assert t.position[0] == t.position[1] == 0.0


def test_hover_at_analytic_speed_drifts_less_than_1_mm(tello):
    body = RigidBody(position=[0.0, 0.0, 10.0])
    rotors = spinning(model.HOVER_OMEGA)
    advance(body, rotors, tello, 10.0)
    assert math.dist(body.position, (0.0, 0.0, 10.0)) < 1e-3


def test_tilted_thrust_gives_g_tan_phi_sideways(tello):
    phi = math.radians(20.0)
    body = RigidBody(position=[0.0, 0.0, 10.0], quaternion=list(quat.from_euler(phi, 0.0, 0.0)))
    per_rotor = model.MASS * model.G / math.cos(phi) / 4
    rotors = spinning(math.sqrt(per_rotor / model.KT))
    step_body(body, rotors, tello, model.RHO0, (0.0, 0.0, 0.0), DT)
    # positive roll lowers the right side: thrust leans toward −Y (right)
    assert body.acceleration[1] == pytest.approx(-model.G * math.tan(phi), rel=1e-9)
    assert body.acceleration[2] == pytest.approx(0.0, abs=1e-9)


def angular_acceleration(vehicle, speeds):
    body = RigidBody(position=[0.0, 0.0, 10.0])
    rotors = spinning(speeds)
    step_body(body, rotors, vehicle, model.RHO0, (0.0, 0.0, 0.0), DT)
    return [w / DT for w in body.angular_velocity]


def test_axis_directions(tello):
    h = model.HOVER_OMEGA
    hi = h * 1.05
    # right motors (0 FR, 1 RR) faster: right side rises → negative roll (positive roll lowers the right)
    assert angular_acceleration(tello, [hi, hi, h, h])[0] < 0
    # front motors (0 FR, 3 FL) faster: nose rises → negative pitch (positive pitch lowers the nose)
    assert angular_acceleration(tello, [hi, h, h, hi])[1] < 0
    # clockwise props (1, 3) faster: their reaction torque turns the body counter-clockwise: +yaw
    assert angular_acceleration(tello, [h, hi, h, hi])[2] > 0


def test_roll_moment_uses_the_y_lever_arm(tello):
    h = model.HOVER_OMEGA
    hi = h * 1.05
    dt_thrust = model.KT * (hi ** 2 - h ** 2)
    expected = -2 * model.ARM_Y * dt_thrust / model.INERTIA[0]
    assert angular_acceleration(tello, [hi, hi, h, h])[0] == pytest.approx(expected, rel=1e-3)
    expected_pitch = -2 * model.ARM_X * dt_thrust / model.INERTIA[1]
    assert angular_acceleration(tello, [hi, h, h, hi])[1] == pytest.approx(expected_pitch, rel=1e-3)


def test_yaw_from_reaction_torque_differential(tello):
    h = model.HOVER_OMEGA
    hi = h * 1.1
    t_hi, t_h = model.KT * hi ** 2, model.KT * h ** 2
    tau_z = model.REACTION * (2 * t_hi - 2 * t_h)
    assert angular_acceleration(tello, [h, hi, h, hi])[2] == pytest.approx(tau_z / model.INERTIA[2], rel=1e-3)
    body = RigidBody(position=[0.0, 0.0, 10.0])
    advance(body, spinning([h, hi, h, hi]), tello, 0.2)
    assert quat.to_euler(body.quaternion)[2] > 0  # counter-clockwise seen from above


@pytest.mark.parametrize("airspeed", [(3.0, 0.0, 0.0), (0.0, -6.0, 0.0), (4.0, 2.0, -1.0), (10.0, 0.0, 0.0)])
def test_wind_drag_force_and_offset_moment(tello, airspeed):
    wind = airspeed  # drone at rest: v_rel = −wind
    rel = [-w for w in wind]
    speed = math.sqrt(sum(r * r for r in rel))
    force = [-0.5 * model.RHO0 * speed * c * r for c, r in zip(model.CDA, rel)]
    body = RigidBody(position=[0.0, 0.0, 10.0])
    step_body(body, spinning(0.0, armed=False), tello, model.RHO0, wind, DT)
    assert body.acceleration[0] == pytest.approx(force[0] / model.MASS, rel=1e-9, abs=1e-12)
    assert body.acceleration[1] == pytest.approx(force[1] / model.MASS, rel=1e-9, abs=1e-12)
    assert body.acceleration[2] == pytest.approx(force[2] / model.MASS - model.G, rel=1e-9)
    # the 2 mm offset: τ = (0, 0, h) × F = (−h Fy, h Fx, 0)
    alpha = [w / DT for w in body.angular_velocity]
    assert alpha[0] == pytest.approx(-model.AERO_H * force[1] / model.INERTIA[0], rel=1e-6, abs=1e-9)
    assert alpha[1] == pytest.approx(model.AERO_H * force[0] / model.INERTIA[1], rel=1e-6, abs=1e-9)


def test_motor_cut_decays_with_50_ms_then_falls(tello):
    body = RigidBody(position=[0.0, 0.0, 50.0])
    rotors = spinning(model.HOVER_OMEGA)
    rotors.setpoint_rad_s[:] = [0.0] * 4
    rotors.armed = False
    samples = []
    for n in range(1, 241):
        vz_before = body.velocity[2]
        step_motors(rotors, tello, model.RHO0, DT)
        step_body(body, rotors, tello, model.RHO0, (0.0, 0.0, 0.0), DT)
        samples.append((n * DT, rotors.speed_rad_s[0], sum(rotors.thrust_n), body.acceleration[2], vz_before))
    for t, w, thrust, _, _ in samples[:48]:
        assert w == pytest.approx(model.HOVER_OMEGA * math.exp(-t / model.TAU_DOWN), rel=1e-9)
    t12, _, thrust12, _, _ = samples[11]  # 50 ms: residual thrust e⁻² of the weight
    assert thrust12 == pytest.approx(model.MASS * model.G * math.exp(-2 * t12 / model.TAU_DOWN), rel=1e-6)
    assert thrust12 > 0.1 * model.MASS * model.G
    t, w, thrust, az, vz = samples[-1]  # after 1 s: free fall slowed only by drag
    drag = 0.5 * model.RHO0 * vz * vz * model.CDA[2]
    assert thrust < 1e-6
    assert az == pytest.approx(-model.G + drag / model.MASS, rel=1e-3)


def test_spin_up_reaches_63_percent_at_35_ms(tello):
    rotors = spinning(0.0)
    target = 2000.0
    rotors.setpoint_rad_s[:] = [target] * 4
    for _ in range(7):
        step_motors(rotors, tello, model.RHO0, model.TAU_UP / 7)
    assert rotors.speed_rad_s[0] / target == pytest.approx(1 - math.exp(-1), rel=1e-9)
    assert 0.632 < rotors.speed_rad_s[0] / target < 0.633


def test_battery_curve(tello):
    assert pack.open_circuit_voltage(tello.physics, 1.0) == pytest.approx(4.35)
    assert pack.open_circuit_voltage(tello.physics, 0.5) == pytest.approx(3.35 + 0.55 * 0.5 + 0.45 * 0.5 ** 8)
    assert pack.open_circuit_voltage(tello.physics, 0.0) == pytest.approx(3.35)
    # loaded voltage under current: V_l = V_oc − R I with I = P / V_l
    for power in (5.0, 18.66, 40.0):
        v = pack.loaded_voltage(tello.physics, 4.0, power)
        assert v == pytest.approx(4.0 - 0.035 * power / v, rel=1e-12)
    assert pack.loaded_voltage(tello.physics, 3.1, 40.0) == 3.0  # clamped at ≥ 3.0 V


def test_max_speed_follows_loaded_voltage(tello):
    assert pack.max_motor_speed(tello.physics, 3.8) == pytest.approx(model.MAX_RPM * model.RPM)
    assert pack.max_motor_speed(tello.physics, 3.0) == pytest.approx(model.MAX_RPM * model.RPM * 3.0 / 3.8)


def test_energy_integration_over_time(tello):
    bat = Battery()
    rotors = spinning(model.HOVER_OMEGA)
    pack.fill(bat.state, rotors.state, tello.physics)
    rotors.thrust_n[:] = [model.MASS * model.G / 4] * 4
    p = pack.electrical_power(tello.physics, rotors.thrust_n, rotors.speed_rad_s, model.RHO0)
    for _ in range(240 * 60):
        pack.step_battery(bat.state, rotors.state, tello.physics, model.RHO0, DT)
    assert bat.energy_j == pytest.approx(model.ENERGY_WH * 3600 - p * 60.0, rel=1e-9)
    assert bat.energy_j / bat.capacity_j == pytest.approx(1 - p * 60 / (model.ENERGY_WH * 3600), rel=1e-9)


def test_density_scales_thrust_and_induced_power(tello):
    w = 1500.0
    assert rotor_thrust(tello.physics, w, model.RHO0 / 2) == pytest.approx(rotor_thrust(tello.physics, w, model.RHO0) / 2)
    thrust = np.full(4, 0.2)
    zero = np.zeros(4)  # no profile term: induced + electronics only
    induced = lambda rho: pack.electrical_power(tello.physics, thrust, zero, rho) - 2.5  # noqa: E731
    assert induced(model.RHO0 / 2) == pytest.approx(math.sqrt(2) * induced(model.RHO0), rel=1e-9)
    disc = math.pi * (model.PROP_D / 2) ** 2
    assert induced(model.RHO0) == pytest.approx(4 * 0.2 ** 1.5 / math.sqrt(2 * model.RHO0 * disc) / 0.4, rel=1e-9)


def test_zero_energy_disarms(make_sim):
    from components.flight import Battery as B
    sim = make_sim(level=None, position=(0.0, 0.0, 100.0))
    sim.pad.rt = 1.0
    sim.run(1.0)
    (bat,) = sim.components(B)
    bat.energy_j = 1.0  # about 1/19 s of hover left
    sim.run(0.5)
    t = sim.telemetry()
    assert t.battery_fraction == 0.0
    assert not t.armed
    assert t.rpm[0] < 16436 * math.exp(-0.3 / model.TAU_DOWN) * 1.01  # spinning down
    sim.run(1.0)
    assert t.motor_power > 0 and not sim.telemetry().armed  # MotorPower alone does not re-arm an empty pack
    assert sim.telemetry().velocity[2] < -5.0
