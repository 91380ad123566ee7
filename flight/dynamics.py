"""The rigid-body and rotor dynamics (docs/model.md#equations-of-motion), one sub-step at a time.

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

The functions work on the flat arrays of flight/layout.py (`body` = RigidBody.state,
`rotors` = Rotors.state, `p` = Vehicle.packed) and are compiled (flight/jit.py).
"""

from __future__ import annotations

import math

from flight import quat
from flight.battery import step_battery
from flight.jit import njit
from flight.layout import (
    ACC, AERO_H, ARMED, CDA, DAMP_LIN, DAMP_QUAD, GRAVITY, INERTIA, KT, MASS, MAX_SPEED, OMEGA,
    POS, PREV_POS, PREV_QUAT, QUAT, REACTION, RHO0, ROTOR_SPIN, ROTOR_X, ROTOR_Y, SETPOINT, SPEED, TAU_DOWN,
    TAU_UP, THRUST, VEL,
)

_rotate = njit(quat.rotate_components)


@njit
def rotor_thrust(p, speed_rad_s: float, density_kg_m3: float) -> float:
    """Tᵢ = kT ω² ρ/ρ₀ in newtons."""
    return p[KT] * speed_rad_s * speed_rad_s * density_kg_m3 / p[RHO0]


@njit
def speed_for_thrust(p, thrust_n: float, density_kg_m3: float) -> float:
    """Inverse of `rotor_thrust`; in vacuum any positive thrust asks for full speed."""
    if thrust_n <= 0.0:
        return 0.0
    k = p[KT] * density_kg_m3 / p[RHO0]
    if k <= 0.0:
        return math.inf
    return math.sqrt(thrust_n / k)


@njit
def step_motors(rotors, p, density_kg_m3: float, dt_s: float) -> None:
    """Move each motor speed toward its (limited) setpoint and compute produced thrust."""
    up = 1.0 - math.exp(-dt_s / p[TAU_UP])
    down = 1.0 - math.exp(-dt_s / p[TAU_DOWN])
    limit = rotors[MAX_SPEED] if rotors[ARMED] > 0.0 else 0.0
    k = p[KT] * density_kg_m3 / p[RHO0]
    for i in range(4):
        target = rotors[SETPOINT + i]
        if target > limit:
            target = limit
        elif target < 0.0:
            target = 0.0
        w = rotors[SPEED + i]
        w += (target - w) * (up if target > w else down)
        rotors[SPEED + i] = w
        rotors[THRUST + i] = k * w * w


@njit
def step_body(body, rotors, p, density_kg_m3: float, wind_m_s, dt_s: float) -> None:
    """Advance the rigid body one sub-step under thrust, drag, damping and gravity."""
    total = 0.0
    tau_x = 0.0
    tau_y = 0.0
    tau_z = 0.0
    for i in range(4):
        t = rotors[THRUST + i]
        total += t
        tau_x += p[ROTOR_Y + i] * t  # rᵢ × (0, 0, Tᵢ)
        tau_y -= p[ROTOR_X + i] * t
        tau_z -= p[REACTION] * p[ROTOR_SPIN + i] * t

    x, y, z, w = body[QUAT], body[QUAT + 1], body[QUAT + 2], body[QUAT + 3]
    # quadratic drag on the relative airspeed, in body axes
    rx, ry, rz = _rotate(-x, -y, -z, w, body[VEL] - wind_m_s[0], body[VEL + 1] - wind_m_s[1], body[VEL + 2] - wind_m_s[2])
    k = -0.5 * density_kg_m3 * math.sqrt(rx * rx + ry * ry + rz * rz)
    fx, fy, fz = k * p[CDA] * rx, k * p[CDA + 1] * ry, k * p[CDA + 2] * rz
    h = p[AERO_H]
    tau_x -= h * fy  # r × F with r = (0, 0, h)
    tau_y += h * fx

    wx, wy, wz = body[OMEGA], body[OMEGA + 1], body[OMEGA + 2]
    damping = (p[DAMP_LIN] + p[DAMP_QUAD] * math.sqrt(wx * wx + wy * wy + wz * wz)) * density_kg_m3 / p[RHO0]
    tau_x -= damping * wx
    tau_y -= damping * wy
    tau_z -= damping * wz

    ix, iy, iz = p[INERTIA], p[INERTIA + 1], p[INERTIA + 2]
    # I dω/dt = τ − ω × (I ω)
    nx = wx + (tau_x - (wy * iz * wz - wz * iy * wy)) / ix * dt_s
    ny = wy + (tau_y - (wz * ix * wx - wx * iz * wz)) / iy * dt_s
    nz = wz + (tau_z - (wx * iy * wy - wy * ix * wx)) / iz * dt_s

    # translation, from the start-of-step attitude
    m = p[MASS]
    gx, gy, gz = _rotate(x, y, z, w, fx, fy, fz + total)
    half_dt2 = 0.5 * dt_s * dt_s
    acc = (gx / m, gy / m, gz / m - p[GRAVITY])
    for i in range(3):
        body[PREV_POS + i] = body[POS + i]
        body[ACC + i] = acc[i]
        body[POS + i] += body[VEL + i] * dt_s + acc[i] * half_dt2
        body[VEL + i] += acc[i] * dt_s

    # attitude: turn by the mid-step body rate, q ⊗ exp(½ ω_mid dt)
    for i in range(4):
        body[PREV_QUAT + i] = body[QUAT + i]
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
        body[QUAT] = qx / norm
        body[QUAT + 1] = qy / norm
        body[QUAT + 2] = qz / norm
        body[QUAT + 3] = qw / norm
    body[OMEGA] = nx
    body[OMEGA + 1] = ny
    body[OMEGA + 2] = nz


@njit
def step_dynamics(body, rotors, battery, p, density_kg_m3: float, wind_m_s, dt_s: float) -> None:
    """One sub-step of the whole vehicle: battery draw, motor response, rigid body."""
    step_battery(battery, rotors, p, density_kg_m3, dt_s)
    step_motors(rotors, p, density_kg_m3, dt_s)
    step_body(body, rotors, p, density_kg_m3, wind_m_s, dt_s)
