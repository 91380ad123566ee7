"""The stabilised velocity and altitude controller of MANUAL STABILISED (MODEL §6).

Setpoints go velocity → acceleration → attitude → rates → torques → rotor thrusts:

* horizontal: a = Kv (v_sp − v) + ∫ Ki (v_sp − v) + drag feed-forward at v_sp (still air);
  the bounded integrator cancels a constant wind; without a travel direction a proportional
  position loop holds the hovering point;
* vertical: with an altitude target, a square-root braking profile gives the vertical speed
  setpoint (constant planned deceleration, linear near the target), limited to ±3 m/s
  separately from the horizontal 8 m/s; a velocity target is used as is;
* the thrust vector m (a_xy, a_z + g) sets the attitude (tilt ≤ 25°, moved with a jerk
  limit so the attitude never overshoots) and the collective. Under thrust saturation the
  vertical part is served first, then the horizontal one: the drone keeps its altitude and
  attitude before its horizontal speed;
* the heading setpoint turns with a limited yaw acceleration that the rotors' small yaw
  torque can follow.

The outer loops run every `outer_divider` ticks (PX4 runs them slower than the attitude and
rate loops too); the inner loops every tick. The controller reads the exact world state (no
sensor model, MODEL §6). State lives in the controller array `ctl` (flight/layout.py).
"""

from __future__ import annotations

import math

from flight.control.cascade import from_attitude
from flight.jit import njit
from flight.layout import (
    BRAKE_DECEL, CDA, COUNTDOWN, FORCE, GRAVITY, HEADING, I_WINDOW, K_ALT, K_POS, K_VEL, K_VZ,
    KI_VEL, KI_VZ, LAST_ACC, LAST_ACC_SET, MASS, MAX_H_SPEED, MAX_JERK, MAX_V_SPEED, MAX_YAW_ACC,
    OUTER_DIVIDER, POS, POS_SPEED_LIMIT, Q_SP, QUAT, T_ALT, T_HOLD_ALT, T_HOLD_POS, T_POS, T_VEL,
    T_YAW_RATE, TAN_MAX_TILT, TRANSLATION_SHARE, VEL, VEL_I_LIMIT, VEL_INTEGRAL, VZ_I_LIMIT,
    VZ_INTEGRAL, VZ_SP, YAW_RATE_SP,
)


@njit
def wrap_angle(a):
    """Angle in [-π, π)."""
    return (a + math.pi) % (2.0 * math.pi) - math.pi


@njit
def attitude_from_thrust_direction(fx, fy, fz, yaw_rad):
    """Quaternion whose body Z points along f and whose heading is yaw_rad."""
    n = math.sqrt(fx * fx + fy * fy + fz * fz)
    zx, zy, zz = fx / n, fy / n, fz / n
    cx, cy = math.cos(yaw_rad), math.sin(yaw_rad)
    # y_b = z × x_c (x_c = heading on the ground), x_b = y_b × z
    yx, yy, yz = -zz * cy, zz * cx, zx * cy - zy * cx
    ny = math.sqrt(yx * yx + yy * yy + yz * yz)
    yx, yy, yz = yx / ny, yy / ny, yz / ny
    xx, xy, xz = yy * zz - yz * zy, yz * zx - yx * zz, yx * zy - yy * zx
    # rotation matrix with columns (x_b, y_b, z_b) → quaternion
    m00, m01, m02 = xx, yx, zx
    m10, m11, m12 = xy, yy, zy
    m20, m21, m22 = xz, yz, zz
    tr = m00 + m11 + m22
    if tr > 0.0:
        s = math.sqrt(tr + 1.0) * 2.0
        return ((m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s)
    if m00 > m11 and m00 > m22:
        s = math.sqrt(1.0 + m00 - m11 - m22) * 2.0
        return (0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s)
    if m11 > m22:
        s = math.sqrt(1.0 + m11 - m00 - m22) * 2.0
        return ((m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s)
    s = math.sqrt(1.0 + m22 - m00 - m11) * 2.0
    return ((m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s)


@njit
def vertical_speed_for(p, altitude_error_m):
    """Square-root braking profile toward an altitude target, limited to ±max vertical."""
    e = altitude_error_m
    decel = p[BRAKE_DECEL]
    k = p[K_ALT]
    # linear near the target, constant deceleration further away (continuous at e = decel/k²)
    linear_limit = decel / (k * k)
    if abs(e) <= linear_limit:
        v = k * e
    else:
        v = math.copysign(math.sqrt(2.0 * decel * (abs(e) - 0.5 * linear_limit)), e)
    return min(max(v, -p[MAX_V_SPEED]), p[MAX_V_SPEED])


@njit
def stabilised_outer(ctl, p, body, targets, density_kg_m3, max_thrust_n, dt_s):
    """Position, velocity and altitude loops → ctl[FORCE] (acceleration + g) and ctl[Q_SP]."""
    # heading: the setpoint turns with a limited yaw acceleration
    step = p[MAX_YAW_ACC] * dt_s
    yaw_rate = ctl[YAW_RATE_SP] + min(max(targets[T_YAW_RATE] - ctl[YAW_RATE_SP], -step), step)
    ctl[YAW_RATE_SP] = yaw_rate
    ctl[HEADING] = wrap_angle(ctl[HEADING] + yaw_rate * dt_s)
    m = p[MASS]
    g = p[GRAVITY]

    # horizontal velocity setpoint, limited on its own (a climb never reduces it)
    sx, sy = targets[T_VEL], targets[T_VEL + 1]
    if targets[T_HOLD_POS] > 0.0:
        px = p[K_POS] * (targets[T_POS] - body[POS])
        py = p[K_POS] * (targets[T_POS + 1] - body[POS + 1])
        pn = math.hypot(px, py)
        limit = p[POS_SPEED_LIMIT]
        if pn > limit:
            px, py = px * limit / pn, py * limit / pn
        sx, sy = sx + px, sy + py
    sn = math.hypot(sx, sy)
    vmax_h = p[MAX_H_SPEED]
    if sn > vmax_h:
        sx, sy = sx * vmax_h / sn, sy * vmax_h / sn
        sn = vmax_h
    # vertical setpoint, limited separately
    if targets[T_HOLD_ALT] > 0.0:
        vz_sp = vertical_speed_for(p, targets[T_ALT] - body[POS + 2])
    else:
        vz_sp = min(max(targets[T_VEL + 2], -p[MAX_V_SPEED]), p[MAX_V_SPEED])
    ctl[VZ_SP] = vz_sp

    # vertical acceleration (served first), with drag feed-forward at the setpoint
    ez = vz_sp - body[VEL + 2]
    az = p[K_VZ] * ez + ctl[VZ_INTEGRAL] + 0.5 * density_kg_m3 * abs(vz_sp) * p[CDA + 2] * vz_sp / m
    # horizontal acceleration with drag feed-forward at the setpoint (still air)
    ex, ey = sx - body[VEL], sy - body[VEL + 1]
    drag_ff = 0.5 * density_kg_m3 * sn * p[CDA] / m
    ax = p[K_VEL] * ex + ctl[VEL_INTEGRAL] + drag_ff * sx
    ay = p[K_VEL] * ey + ctl[VEL_INTEGRAL + 1] + drag_ff * sy

    # the vertical may use all the thrust there is; horizontal acceleration only what is left
    # of the share not kept for attitude torques
    a_full = 4.0 * max_thrust_n / m
    fz = az + g
    z_saturated = fz > a_full or fz < 0.0
    fz = min(max(fz, 0.05 * g), a_full) if a_full > 0.05 * g else a_full
    # the tilt limit and the remaining thrust bound the horizontal acceleration
    a_h = math.hypot(ax, ay)
    a_shared = a_full * p[TRANSLATION_SHARE]
    room = a_shared * a_shared - fz * fz
    a_h_max = min(fz * p[TAN_MAX_TILT], math.sqrt(room) if room > 0.0 else 0.0)
    xy_saturated = a_h > a_h_max
    if xy_saturated:
        ax, ay = ax * a_h_max / a_h, ay * a_h_max / a_h
    # jerk limit: the tilt setpoint moves smoothly, so the attitude never overshoots 25°
    if ctl[LAST_ACC_SET] > 0.0:
        dax, day = ax - ctl[LAST_ACC], ay - ctl[LAST_ACC + 1]
        change = math.hypot(dax, day)
        max_change = p[MAX_JERK] * dt_s
        if change > max_change:
            ax = ctl[LAST_ACC] + dax * max_change / change
            ay = ctl[LAST_ACC + 1] + day * max_change / change
            xy_saturated = True
    ctl[LAST_ACC] = ax
    ctl[LAST_ACC + 1] = ay
    ctl[LAST_ACC_SET] = 1.0

    # The integrators are for steady disturbances (wind, a sagging battery): they learn only
    # near the setpoint and while the output is not saturated, so accelerating or braking
    # never winds them up.
    window = p[I_WINDOW]
    if abs(ez) < window and (not z_saturated or ctl[VZ_INTEGRAL] * ez < 0.0):
        lim = p[VZ_I_LIMIT]
        ctl[VZ_INTEGRAL] = min(max(ctl[VZ_INTEGRAL] + p[KI_VZ] * ez * dt_s, -lim), lim)
    if not xy_saturated and ex * ex + ey * ey < window * window:
        lim = p[VEL_I_LIMIT]
        ix = ctl[VEL_INTEGRAL] + p[KI_VEL] * dt_s * ex
        iy = ctl[VEL_INTEGRAL + 1] + p[KI_VEL] * dt_s * ey
        n = math.hypot(ix, iy)
        if n > lim:
            ix, iy = ix * lim / n, iy * lim / n
        ctl[VEL_INTEGRAL] = ix
        ctl[VEL_INTEGRAL + 1] = iy

    ctl[FORCE] = ax
    ctl[FORCE + 1] = ay
    ctl[FORCE + 2] = fz
    if fz > 0.0:
        q = attitude_from_thrust_direction(ax, ay, fz, ctl[HEADING])
        for i in range(4):
            ctl[Q_SP + i] = q[i]


@njit
def stabilised_update(ctl, p, body, targets, density_kg_m3, max_thrust_n, dt_s):
    """Rotor thrusts (N, a 4-tuple) for the setpoints in `targets` (flight/layout.py T_*)."""
    if ctl[COUNTDOWN] <= 0.0:
        ctl[COUNTDOWN] = p[OUTER_DIVIDER]
        stabilised_outer(ctl, p, body, targets, density_kg_m3, max_thrust_n, dt_s * p[OUTER_DIVIDER])
    ctl[COUNTDOWN] -= 1.0
    ax, ay, fz = ctl[FORCE], ctl[FORCE + 1], ctl[FORCE + 2]
    q = (body[QUAT], body[QUAT + 1], body[QUAT + 2], body[QUAT + 3])
    if fz <= 0.0:
        return from_attitude(ctl, p, body, q, 0.0, max_thrust_n, dt_s, 0.0, True)
    # collective along the present body Z, every tick: no extra lift while the attitude catches up
    x, y, z, w = q
    along = (ax * 2.0 * (x * z + w * y) + ay * 2.0 * (y * z - w * x) + fz * (1.0 - 2.0 * (x * x + y * y))) * p[MASS]
    q_sp = (ctl[Q_SP], ctl[Q_SP + 1], ctl[Q_SP + 2], ctl[Q_SP + 3])
    return from_attitude(ctl, p, body, q_sp, max(along, 0.0), max_thrust_n, dt_s, ctl[YAW_RATE_SP], True)
