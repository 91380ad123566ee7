"""The rigid-body and rotor dynamics (docs/model.md#equations-of-motion), one sub-step at a time.

Right-handed frames: body X forward, Y left, Z up; world Z up. Motors 0 front-right,
1 rear-right, 2 rear-left, 3 front-left. Per sub-step (≤ 1/240 s):

* each motor speed follows its setpoint with a first-order response, 35 ms rising and 50 ms
  falling (exact exponential discretisation), limited by the voltage-limited maximum;
* thrust Tᵢ = hᵢ kT ωᵢ² ρ/ρ₀ (hᵢ the rotor's health, 1 intact: flight/damage.py); moment rᵢ × (0, 0, Tᵢ); reaction torque −spinᵢ · 0.004 · Tᵢ
  about body Z (equal speeds cancel);
* drag in body axes F = −½ ρ |v_rel| (CdA ⊙ v_rel), v_rel = v − wind, applied 2 mm above the
  centre of mass; angular damping −(c₁ + c₂|ω|) ρ/ρ₀ ω;
* an external wrench (components.flight.ExternalWrench: a mod's tether, magnet, downdraft),
  when the entity has one: its force joins the others in m a, its torque in I dω/dt;
* I dω/dt = τ − ω × Iω; the quaternion turns by the mid-step angular velocity;
* x += v dt + ½ a dt², v += a dt with a from the start-of-step state, which reproduces
  analytic free fall exactly.

Contacts and ground support belong to the collision system: there is no altitude floor here.

The functions work on the flat arrays of components/layout.py (`body` = RigidBody.state,
`rotors` = Rotors.state, `battery` = Battery.state, `physics` = Vehicle.physics, `wrench` =
ExternalWrench.state) and are compiled (flight/jit.py). They read the vehicle's physics only,
never its controller gains.
"""

from __future__ import annotations

import math

from components.layout import (
    ACCELERATION, AERO_CENTRE_HEIGHT, ANGULAR_DAMPING_LINEAR, ANGULAR_DAMPING_QUADRATIC, ANGULAR_VELOCITY, ARMED,
    DRAG_AREA, FORCE, GRAVITY, HEALTH, IN_BODY_FRAME, INERTIA, MASS, MAX_SPEED, MOTOR_SPIN, MOTOR_TIME_CONSTANT_DOWN,
    MOTOR_TIME_CONSTANT_UP, POSITION, PREVIOUS_POSITION, PREVIOUS_QUATERNION, QUATERNION, REACTION_TORQUE_RATIO,
    REFERENCE_AIR_DENSITY, ROTOR_X, ROTOR_Y, SETPOINT, SPEED, THRUST, THRUST_COEFFICIENT, TORQUE, VELOCITY,
)
from flight import quat
from flight.battery import step_battery
from flight.jit import njit

_rotate = njit(quat.rotate_components)


@njit
def rotor_thrust(physics, speed_rad_s: float, density_kg_m3: float) -> float:
    """Tᵢ = kT ω² ρ/ρ₀ in newtons."""
    return physics[THRUST_COEFFICIENT] * speed_rad_s * speed_rad_s * density_kg_m3 / physics[REFERENCE_AIR_DENSITY]


@njit
def speed_for_thrust(physics, thrust_n: float, density_kg_m3: float) -> float:
    """Inverse of `rotor_thrust`; in vacuum any positive thrust asks for full speed."""
    if thrust_n <= 0.0:
        return 0.0
    k = physics[THRUST_COEFFICIENT] * density_kg_m3 / physics[REFERENCE_AIR_DENSITY]
    if k <= 0.0:
        return math.inf
    return math.sqrt(thrust_n / k)


@njit
def step_motors(rotors, physics, density_kg_m3: float, dt_s: float) -> None:
    """Move each motor speed toward its (limited) setpoint and compute produced thrust."""
    up = 1.0 - math.exp(-dt_s / physics[MOTOR_TIME_CONSTANT_UP])
    down = 1.0 - math.exp(-dt_s / physics[MOTOR_TIME_CONSTANT_DOWN])
    limit = rotors[MAX_SPEED] if rotors[ARMED] > 0.0 else 0.0
    k = physics[THRUST_COEFFICIENT] * density_kg_m3 / physics[REFERENCE_AIR_DENSITY]
    for i in range(4):
        target = rotors[SETPOINT + i]
        if target > limit:
            target = limit
        elif target < 0.0:
            target = 0.0
        w = rotors[SPEED + i]
        w += (target - w) * (up if target > w else down)
        rotors[SPEED + i] = w
        rotors[THRUST + i] = k * w * w * rotors[HEALTH + i]


@njit
def step_body(body, rotors, physics, density_kg_m3: float, wind_m_s, dt_s: float, wrench=None) -> None:
    """Advance the rigid body one sub-step under thrust, drag, damping, gravity and the
    external wrench (an ExternalWrench's state array; None, the default: no outside force).

    Without a wrench the branches that read it are removed when the function is compiled
    (numba prunes `wrench is not None` on an omitted argument), so the common case costs and
    computes exactly what it did before the wrench existed.
    """
    total = 0.0
    tau_x = 0.0
    tau_y = 0.0
    tau_z = 0.0
    for i in range(4):
        t = rotors[THRUST + i]
        total += t
        tau_x += physics[ROTOR_Y + i] * t  # rᵢ × (0, 0, Tᵢ)
        tau_y -= physics[ROTOR_X + i] * t
        tau_z -= physics[REACTION_TORQUE_RATIO] * physics[MOTOR_SPIN + i] * t

    x, y, z, w = body[QUATERNION], body[QUATERNION + 1], body[QUATERNION + 2], body[QUATERNION + 3]
    # quadratic drag on the relative airspeed, in body axes
    rx, ry, rz = _rotate(-x, -y, -z, w, body[VELOCITY] - wind_m_s[0], body[VELOCITY + 1] - wind_m_s[1],
                         body[VELOCITY + 2] - wind_m_s[2])
    k = -0.5 * density_kg_m3 * math.sqrt(rx * rx + ry * ry + rz * rz)
    fx, fy, fz = k * physics[DRAG_AREA] * rx, k * physics[DRAG_AREA + 1] * ry, k * physics[DRAG_AREA + 2] * rz
    h = physics[AERO_CENTRE_HEIGHT]
    tau_x -= h * fy  # r × F with r = (0, 0, h)
    tau_y += h * fx

    wx, wy, wz = body[ANGULAR_VELOCITY], body[ANGULAR_VELOCITY + 1], body[ANGULAR_VELOCITY + 2]
    c1, c2 = physics[ANGULAR_DAMPING_LINEAR], physics[ANGULAR_DAMPING_QUADRATIC]
    damping = (c1 + c2 * math.sqrt(wx * wx + wy * wy + wz * wz)) * density_kg_m3 / physics[REFERENCE_AIR_DENSITY]
    tau_x -= damping * wx
    tau_y -= damping * wy
    tau_z -= damping * wz

    if wrench is not None:
        ex, ey, ez = wrench[FORCE], wrench[FORCE + 1], wrench[FORCE + 2]
        if wrench[IN_BODY_FRAME] > 0.0:
            ex, ey, ez = _rotate(x, y, z, w, ex, ey, ez)  # the force to world axes
            tx, ty, tz = wrench[TORQUE], wrench[TORQUE + 1], wrench[TORQUE + 2]
        else:  # the torque to body axes
            tx, ty, tz = _rotate(-x, -y, -z, w, wrench[TORQUE], wrench[TORQUE + 1], wrench[TORQUE + 2])
        tau_x += tx
        tau_y += ty
        tau_z += tz

    ix, iy, iz = physics[INERTIA], physics[INERTIA + 1], physics[INERTIA + 2]
    # I dω/dt = τ − ω × (I ω)
    nx = wx + (tau_x - (wy * iz * wz - wz * iy * wy)) / ix * dt_s
    ny = wy + (tau_y - (wz * ix * wx - wx * iz * wz)) / iy * dt_s
    nz = wz + (tau_z - (wx * iy * wy - wy * ix * wx)) / iz * dt_s

    # translation, from the start-of-step attitude
    m = physics[MASS]
    gx, gy, gz = _rotate(x, y, z, w, fx, fy, fz + total)
    if wrench is not None:
        gx += ex
        gy += ey
        gz += ez
    half_dt2 = 0.5 * dt_s * dt_s
    acc = (gx / m, gy / m, gz / m - physics[GRAVITY])
    for i in range(3):
        body[PREVIOUS_POSITION + i] = body[POSITION + i]
        body[ACCELERATION + i] = acc[i]
        body[POSITION + i] += body[VELOCITY + i] * dt_s + acc[i] * half_dt2
        body[VELOCITY + i] += acc[i] * dt_s

    # attitude: turn by the mid-step body rate, q ⊗ exp(½ ω_mid dt)
    for i in range(4):
        body[PREVIOUS_QUATERNION + i] = body[QUATERNION + i]
    mx, my, mz = 0.5 * (wx + nx), 0.5 * (wy + ny), 0.5 * (wz + nz)
    n = math.sqrt(mx * mx + my * my + mz * mz)
    if n * dt_s > 1e-12:
        half = 0.5 * n * dt_s
        s = math.sin(half) / n
        dx, dy, dz, dw = mx * s, my * s, mz * s, math.cos(half)
        qx = w * dx + x * dw + y * dz - z * dy
        qy = w * dy - x * dz + y * dw + z * dx
        qz = w * dz + x * dy - y * dx + z * dw
        qw = w * dw - x * dx - y * dy - z * dz
        norm = math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
        body[QUATERNION] = qx / norm
        body[QUATERNION + 1] = qy / norm
        body[QUATERNION + 2] = qz / norm
        body[QUATERNION + 3] = qw / norm
    body[ANGULAR_VELOCITY] = nx
    body[ANGULAR_VELOCITY + 1] = ny
    body[ANGULAR_VELOCITY + 2] = nz


@njit
def step_dynamics(body, rotors, battery, physics, density_kg_m3: float, wind_m_s, dt_s: float) -> None:
    """One sub-step of the whole vehicle: battery draw, motor response, rigid body."""
    step_battery(battery, rotors, physics, density_kg_m3, dt_s)
    step_motors(rotors, physics, density_kg_m3, dt_s)
    step_body(body, rotors, physics, density_kg_m3, wind_m_s, dt_s)


@njit
def step_dynamics_with_wrench(body, rotors, battery, physics, density_kg_m3: float, wind_m_s, dt_s: float,
                              wrench) -> None:
    """`step_dynamics` with an external wrench (an ExternalWrench's state array) on the body.

    A separate entry point rather than an optional argument: the common case, no wrench,
    passes through numba's dispatcher without an omitted argument to type at every call."""
    step_battery(battery, rotors, physics, density_kg_m3, dt_s)
    step_motors(rotors, physics, density_kg_m3, dt_s)
    step_body(body, rotors, physics, density_kg_m3, wind_m_s, dt_s, wrench)
