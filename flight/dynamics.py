"""The rigid-body and rotor dynamics of MODEL §2–§3, one fixed sub-step at a time.

Right-handed frames: body X forward, Y left, Z up; world Z up. Motors 0 front-right,
1 rear-right, 2 rear-left, 3 front-left. Per sub-step (≤ 1/240 s):

* each motor speed follows its setpoint with a first-order response, 35 ms rising and 50 ms
  falling (exact exponential discretisation), limited by the voltage-limited maximum;
* thrust Tᵢ = kT ωᵢ² ρ/ρ₀; moment rᵢ × (0, 0, Tᵢ); reaction torque −spinᵢ · 0.004 · Tᵢ
  about body Z (equal speeds cancel);
* drag in body axes F = −½ ρ |v_rel| (CdA ⊙ v_rel), v_rel = v − wind, applied 2 mm above the
  centre of mass; angular damping −(c₁ + c₂|ω|) ρ/ρ₀ ω;
* I dω/dt = τ − ω × Iω; the quaternion turns by the mid-step angular velocity;
* x += v dt + ½ a dt², v += a dt with a from the start-of-step state, which reproduces
  analytic free fall exactly.

Contacts and ground support belong to the collision system: there is no altitude floor here.
"""

from __future__ import annotations

import math

from components.flight import RigidBody, Rotors
from flight import quat
from flight.vehicle import Vehicle


def rotor_thrust(vehicle: Vehicle, speed_rad_s: float, density_kg_m3: float) -> float:
    """Tᵢ = kT ω² ρ/ρ₀ in newtons."""
    return vehicle.thrust_coefficient * speed_rad_s * speed_rad_s * density_kg_m3 / vehicle.reference_air_density_kg_m3


def speed_for_thrust(vehicle: Vehicle, thrust_n: float, density_kg_m3: float) -> float:
    """Inverse of `rotor_thrust`; in vacuum any positive thrust asks for full speed."""
    if thrust_n <= 0.0:
        return 0.0
    k = vehicle.thrust_coefficient * density_kg_m3 / vehicle.reference_air_density_kg_m3
    if k <= 0.0:
        return math.inf
    return math.sqrt(thrust_n / k)


def step_motors(rotors: Rotors, vehicle: Vehicle, density_kg_m3: float, dt_s: float) -> None:
    """Move each motor speed toward its (limited) setpoint and compute produced thrust."""
    up = 1.0 - math.exp(-dt_s / vehicle.motor_tau_up_s)
    down = 1.0 - math.exp(-dt_s / vehicle.motor_tau_down_s)
    limit = rotors.max_speed_rad_s if rotors.armed else 0.0
    k = vehicle.thrust_coefficient * density_kg_m3 / vehicle.reference_air_density_kg_m3
    speeds = rotors.speed_rad_s
    setpoints = rotors.setpoint_rad_s
    thrust = rotors.thrust_n
    for i in range(4):
        target = setpoints[i]
        if target > limit:
            target = limit
        elif target < 0.0:
            target = 0.0
        w = speeds[i]
        w += (target - w) * (up if target > w else down)
        speeds[i] = w
        thrust[i] = k * w * w


def step_body(body: RigidBody, rotors: Rotors, vehicle: Vehicle, density_kg_m3: float,
              wind_m_s, dt_s: float) -> None:
    """Advance the rigid body one sub-step under thrust, drag, damping and gravity."""
    t0, t1, t2, t3 = rotors.thrust_n
    r0, r1, r2, r3 = vehicle.rotors
    total = t0 + t1 + t2 + t3
    tau_x = r0.y_m * t0 + r1.y_m * t1 + r2.y_m * t2 + r3.y_m * t3
    tau_y = -(r0.x_m * t0 + r1.x_m * t1 + r2.x_m * t2 + r3.x_m * t3)
    tau_z = -vehicle.reaction_torque_ratio_m * (r0.spin * t0 + r1.spin * t1 + r2.spin * t2 + r3.spin * t3)

    q = body.quaternion
    vel = body.velocity
    # quadratic drag on the relative airspeed, in body axes
    rel_b = quat.rotate_inverse(q, (vel[0] - wind_m_s[0], vel[1] - wind_m_s[1], vel[2] - wind_m_s[2]))
    speed = math.sqrt(rel_b[0] * rel_b[0] + rel_b[1] * rel_b[1] + rel_b[2] * rel_b[2])
    cx, cy, cz = vehicle.drag_area_m2
    k = -0.5 * density_kg_m3 * speed
    fx, fy, fz = k * cx * rel_b[0], k * cy * rel_b[1], k * cz * rel_b[2]
    h = vehicle.aero_centre_height_m
    tau_x -= h * fy  # r × F with r = (0, 0, h)
    tau_y += h * fx

    wx, wy, wz = body.angular_velocity
    wn = math.sqrt(wx * wx + wy * wy + wz * wz)
    damping = (vehicle.angular_damping_linear + vehicle.angular_damping_quadratic * wn) * density_kg_m3 / vehicle.reference_air_density_kg_m3
    tau_x -= damping * wx
    tau_y -= damping * wy
    tau_z -= damping * wz

    ix, iy, iz = vehicle.inertia_kgm2
    # I dω/dt = τ − ω × (I ω)
    ax = (tau_x - (wy * iz * wz - wz * iy * wy)) / ix
    ay = (tau_y - (wz * ix * wx - wx * iz * wz)) / iy
    az = (tau_z - (wx * iy * wy - wy * ix * wx)) / iz
    nx, ny, nz = wx + ax * dt_s, wy + ay * dt_s, wz + az * dt_s

    # translation, from the start-of-step attitude
    m = vehicle.mass_kg
    fw = quat.rotate(q, (fx, fy, fz + total))
    acc = body.acceleration
    acc[0] = fw[0] / m
    acc[1] = fw[1] / m
    acc[2] = fw[2] / m - vehicle.gravity_m_s2
    pos = body.position
    half_dt2 = 0.5 * dt_s * dt_s
    for i in range(3):
        pos[i] += vel[i] * dt_s + acc[i] * half_dt2
        vel[i] += acc[i] * dt_s

    body.quaternion[:] = quat.integrate(q, (0.5 * (wx + nx), 0.5 * (wy + ny), 0.5 * (wz + nz)), dt_s)
    w = body.angular_velocity
    w[0], w[1], w[2] = nx, ny, nz
