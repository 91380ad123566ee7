"""The stabilised velocity and altitude controller of MANUAL STABILISED (docs/model.md#stabilised-manual-flight).

Setpoints go velocity → acceleration → attitude → rates → torques → rotor thrusts:

* horizontal: a cruise reference slews toward the velocity setpoint with limited acceleration
  and jerk, and its acceleration is fed forward:
      a = a_ref + Kv (v_ref − a_ref/attitude_gain + v_pos − v) + ∫ Ki (…) + drag ff at v_ref,
  so the drone follows it closely and the integrator can learn on the tracking error all the
  time: it cancels a constant wind in cruise, braking and hover (the bounded integrator). It
  leaves out only the part along a changing reference (the drone's lag is no disturbance) and
  the part that would push a saturated output further (anti-windup). v_pos is the position
  term: without a travel direction, toward the hovering point; in a manual cruise, back onto
  the line of travel (only across it), which starts where the direction was chosen and follows
  the reference's turn, so a crosswind or a gust never carries the drone aside for good;
* vertical: with an altitude target, a square-root braking profile gives the vertical speed
  setpoint (constant planned deceleration: gravity's share going up, the thrust margin's going
  down; linear near the target), limited to ±3 m/s separately from the horizontal 8 m/s, and
  its deceleration is fed forward; a velocity target is used as is;
* the thrust vector m (a_xy, a_z + g) sets the attitude (tilt ≤ 25°, moved with a jerk
  limit so the attitude never overshoots) and the collective. Under thrust saturation the
  vertical part is served first, then the horizontal one: the drone keeps its altitude and
  attitude before its horizontal speed; when the tilt runs out, the correction across the
  travel axis is served before the change of speed along it;
* the heading setpoint turns with a limited yaw acceleration; when the yaw stick is released
  the drone brakes as its rotors' reaction torques allow and holds the heading it stops at.

The outer loops run every `outer_divider` ticks (PX4 runs them slower than the attitude and
rate loops too); the inner loops every tick. The controller reads the exact world state (no
sensor model, docs/model.md#stabilised-manual-flight). State lives in the controller array `ctl` (flight/layout.py).
"""

from __future__ import annotations

import math

from flight.control.cascade import from_attitude
from flight.jit import njit
from flight.layout import (
    ACC_REF, ALT_LINEAR_SPEED, ATT_GAIN, BRAKE_DECEL, CDA, COUNTDOWN, FORCE, GRAVITY, HEADING,
    INERTIA, I_WINDOW, KI_VEL, KI_VZ, K_ALT, K_POS, K_VEL, K_VZ, LAST_ACC, LAST_ACC_SET, LINE_DIR,
    LINE_POS, LINE_SET, MASS, MAX_H_SPEED, MAX_JERK, MAX_V_SPEED, MAX_YAW_ACC, OMEGA, OUTER_DIVIDER,
    POS, POS_SPEED_LIMIT, QUAT, Q_SP, RATE_P, REACTION, REF_ACC, REF_JERK, TAN_MAX_TILT,
    TRANSLATION_SHARE, T_ALT, T_HOLD_ALT, T_HOLD_LINE, T_HOLD_POS, T_POS, T_VEL, T_YAW_RATE, VEL,
    VEL_INTEGRAL, VEL_I_LIMIT, VEL_REF, VEL_REF_SET, VZ_INTEGRAL, VZ_I_LIMIT, VZ_SP, V_BRAKE_SHARE,
    YAW_BRAKE, YAW_BRAKE_SHARE, YAW_LOCK_RATE, YAW_RATE_SP, YAW_STOPPING, YAW_STOP_AT, YAW_STOP_DIR,
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
    # x_b = y_c × z (y_c = the heading's left on the ground), y_b = z × x_b: the nose stays in
    # the vertical plane of the heading, so the nose seen from above points along yaw_rad
    # however the drone leans (as PX4 builds it)
    xx, xy, xz = cx * zz, cy * zz, -cy * zy - cx * zx
    nx = math.sqrt(xx * xx + xy * xy + xz * xz)
    xx, xy, xz = xx / nx, xy / nx, xz / nx
    yx, yy, yz = zy * xz - zz * xy, zz * xx - zx * xz, zx * xy - zy * xx
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
def vertical_speed_for(p, altitude_error_m, decel):
    """Square-root braking profile toward an altitude target, limited to ±max vertical.

    Returns the vertical speed setpoint and the profile's slope d(speed)/d(error) there (1/s),
    from which the controller feeds the profile's deceleration forward.
    """
    e = altitude_error_m
    # the linear part ends at `alt_linear_speed`: above it the planned deceleration holds
    k = max(p[K_ALT], decel / p[ALT_LINEAR_SPEED])
    # linear near the target, constant deceleration further away (continuous at e = decel/k²)
    linear_limit = decel / (k * k)
    if abs(e) <= linear_limit:
        v = k * e
        slope = k
    else:
        v = math.copysign(math.sqrt(2.0 * decel * (abs(e) - 0.5 * linear_limit)), e)
        slope = decel / abs(v)
    vmax = p[MAX_V_SPEED]
    if abs(v) > vmax:
        return math.copysign(vmax, v), 0.0
    return v, slope


@njit
def yaw_stop(ctl, p, body, max_thrust_n):
    """The yaw stick was released: stop as the rotors can, then hold the heading reached.

    Only the rotors' reaction torques brake a yaw. The stop is planned once, with a share of the
    largest yaw deceleration they give while carrying the present collective; the yaw-rate
    setpoint then follows the square-root profile to the planned heading and the heading
    setpoint follows the drone, so the attitude loop never pulls it back. The heading is
    locked where the drone is once it turns slower than the lock rate.
    """
    x, y, z, w = body[QUAT], body[QUAT + 1], body[QUAT + 2], body[QUAT + 3]
    heading = math.atan2(2.0 * (x * y + w * z), 1.0 - 2.0 * (y * y + z * z))
    # yaw rate about world Z: third row of the rotation matrix · body rates
    rate = (2.0 * (x * z - w * y) * body[OMEGA] + 2.0 * (y * z + w * x) * body[OMEGA + 1]
            + (1.0 - 2.0 * (x * x + y * y)) * body[OMEGA + 2])
    if ctl[YAW_STOPPING] <= 0.0:
        # two diagonal rotors up to full thrust (or the whole collective), the other two down
        collective = p[MASS] * max(ctl[FORCE + 2], 0.0)
        torque = p[REACTION] * (4.0 * min(max_thrust_n, 0.5 * collective) - collective)
        alpha = max(p[YAW_BRAKE_SHARE] * torque / p[INERTIA + 2], 1e-3)
        ctl[YAW_STOPPING] = 1.0
        ctl[YAW_STOP_AT] = heading + rate * abs(rate) / (2.0 * alpha)
        ctl[YAW_STOP_DIR] = 1.0 if rate >= 0.0 else -1.0
        ctl[YAW_BRAKE] = alpha
    left = wrap_angle(ctl[YAW_STOP_AT] - heading) * ctl[YAW_STOP_DIR]
    # the profile's deceleration, fed forward through the rate loop's proportional gain (a rate
    # setpoint that much below the profile asks for it), never asking to turn back
    lead = ctl[YAW_BRAKE] / p[RATE_P + 2]
    profile = ctl[YAW_STOP_DIR] * max(math.sqrt(2.0 * ctl[YAW_BRAKE] * left) - lead, 0.0) if left > 0.0 else 0.0
    ctl[HEADING] = heading
    ctl[YAW_RATE_SP] = profile
    if abs(rate) < p[YAW_LOCK_RATE] and abs(profile) < p[YAW_LOCK_RATE]:
        ctl[YAW_STOPPING] = 0.0
        ctl[YAW_RATE_SP] = 0.0


@njit
def stabilised_outer(ctl, p, body, targets, density_kg_m3, max_thrust_n, dt_s):
    """Position, velocity and altitude loops → ctl[FORCE] (acceleration + g) and ctl[Q_SP]."""
    m = p[MASS]
    g = p[GRAVITY]
    yaw_command = targets[T_YAW_RATE]
    if yaw_command != 0.0 or (ctl[YAW_STOPPING] <= 0.0 and ctl[YAW_RATE_SP] == 0.0):
        # heading: the setpoint turns with a limited yaw acceleration
        ctl[YAW_STOPPING] = 0.0
        step = p[MAX_YAW_ACC] * dt_s
        yaw_rate = ctl[YAW_RATE_SP] + min(max(yaw_command - ctl[YAW_RATE_SP], -step), step)
        ctl[YAW_RATE_SP] = yaw_rate
        ctl[HEADING] = wrap_angle(ctl[HEADING] + yaw_rate * dt_s)
    else:
        yaw_stop(ctl, p, body, max_thrust_n)

    # horizontal: the cruise reference slews toward the setpoint (limited on its own: a climb
    # never reduces it) at a planned acceleration, fed forward, so the drone follows it closely
    # and the integrator can learn on the tracking error all the time
    vmax_h = p[MAX_H_SPEED]
    tx, ty = targets[T_VEL], targets[T_VEL + 1]
    tn = math.hypot(tx, ty)
    if tn > vmax_h:
        tx, ty = tx * vmax_h / tn, ty * vmax_h / tn
        tn = vmax_h
    if ctl[VEL_REF_SET] <= 0.0:
        ctl[VEL_REF], ctl[VEL_REF + 1] = body[VEL], body[VEL + 1]
        ctl[ACC_REF] = ctl[ACC_REF + 1] = 0.0
        ctl[VEL_REF_SET] = 1.0
    rx, ry = ctl[VEL_REF], ctl[VEL_REF + 1]
    fx, fy = ctl[ACC_REF], ctl[ACC_REF + 1]
    dx, dy = tx - rx, ty - ry
    dn = math.hypot(dx, dy)
    # jerk-limited: the acceleration toward the setpoint is what can still be ramped down to
    # zero on arrival, |a| = √(2 j d), at most the planned acceleration
    jerk_step = p[REF_JERK] * dt_s
    qx = qy = 0.0  # the axis along which the speed changes, or is kept
    want_x = want_y = 0.0
    if dn > 0.0:
        qx, qy = dx / dn, dy / dn
        a_want = min(p[REF_ACC], math.sqrt(2.0 * p[REF_JERK] * dn))
        want_x, want_y = qx * a_want, qy * a_want
    gx, gy = want_x - fx, want_y - fy
    gn = math.hypot(gx, gy)
    if gn > jerk_step:
        gx, gy = gx * jerk_step / gn, gy * jerk_step / gn
    fx, fy = fx + gx, fy + gy
    nx, ny = rx + fx * dt_s, ry + fy * dt_s
    if dn <= jerk_step * dt_s or (tx - nx) * dx + (ty - ny) * dy <= 0.0:
        nx, ny = tx, ty  # arrived
        fx = fy = 0.0
    rx, ry = nx, ny
    ctl[VEL_REF], ctl[VEL_REF + 1] = rx, ry
    ctl[ACC_REF], ctl[ACC_REF + 1] = fx, fy
    changing = fx != 0.0 or fy != 0.0
    if not changing and tn > 0.0:
        qx, qy = tx / tn, ty / tn

    # position terms: the hovering point, or the line of travel (only across it)
    px = py = 0.0
    if targets[T_HOLD_POS] > 0.0:
        ctl[LINE_SET] = 0.0
        px = p[K_POS] * (targets[T_POS] - body[POS])
        py = p[K_POS] * (targets[T_POS + 1] - body[POS + 1])
    elif targets[T_HOLD_LINE] > 0.0 and tn > 0.0:
        ux, uy = tx / tn, ty / tn
        if ctl[LINE_SET] <= 0.0 or ux * ctl[LINE_DIR] + uy * ctl[LINE_DIR + 1] < 1.0 - 1e-9:
            # a new direction: its line starts here; the reference's turn is part of it
            ctl[LINE_POS], ctl[LINE_POS + 1] = body[POS], body[POS + 1]
            ctl[LINE_DIR], ctl[LINE_DIR + 1] = ux, uy
            ctl[LINE_SET] = 1.0
        lx, ly = ctl[LINE_POS] - body[POS], ctl[LINE_POS + 1] - body[POS + 1]
        along = lx * ux + ly * uy
        px, py = p[K_POS] * (lx - along * ux), p[K_POS] * (ly - along * uy)
        ctl[LINE_POS] += rx * dt_s
        ctl[LINE_POS + 1] += ry * dt_s
    else:
        ctl[LINE_SET] = 0.0
    pn = math.hypot(px, py)
    limit = p[POS_SPEED_LIMIT]
    if pn > limit:
        px, py = px * limit / pn, py * limit / pn
    # the tilt takes about 1/attitude_gain to follow an acceleration: the velocity the drone can
    # have now lags the reference by that much while it changes
    lag_s = 1.0 / p[ATT_GAIN]
    sx, sy = rx - fx * lag_s + px, ry - fy * lag_s + py
    sn = math.hypot(sx, sy)
    if sn > vmax_h:
        sx, sy = sx * vmax_h / sn, sy * vmax_h / sn
    # vertical setpoint, limited separately. Toward an altitude target the braking profile
    # plans with what brakes the motion: gravity going up, the thrust margin going down; its
    # deceleration is fed forward along the present motion, so the stop follows the plan
    a_full = 4.0 * max_thrust_n / m
    az_ff = 0.0
    if targets[T_HOLD_ALT] > 0.0:
        e_alt = targets[T_ALT] - body[POS + 2]
        decel = p[BRAKE_DECEL] if e_alt > 0.0 else max(p[V_BRAKE_SHARE] * (a_full - g), 0.1 * g)
        vz_sp, slope = vertical_speed_for(p, e_alt, decel)
        if vz_sp * body[VEL + 2] > 0.0:
            az_ff = -slope * body[VEL + 2]
    else:
        vz_sp = min(max(targets[T_VEL + 2], -p[MAX_V_SPEED]), p[MAX_V_SPEED])
    ctl[VZ_SP] = vz_sp

    # vertical acceleration (served first), with drag feed-forward at the setpoint
    ez = vz_sp - body[VEL + 2]
    az = az_ff + p[K_VZ] * ez + ctl[VZ_INTEGRAL] + 0.5 * density_kg_m3 * abs(vz_sp) * p[CDA + 2] * vz_sp / m
    # horizontal acceleration with drag feed-forward at the setpoint (still air)
    ex, ey = sx - body[VEL], sy - body[VEL + 1]
    drag_ff = 0.5 * density_kg_m3 * math.hypot(rx, ry) * p[CDA] / m
    ax = fx + p[K_VEL] * ex + ctl[VEL_INTEGRAL] + drag_ff * rx
    ay = fy + p[K_VEL] * ey + ctl[VEL_INTEGRAL + 1] + drag_ff * ry
    wanted_x, wanted_y = ax, ay

    # the vertical may use all the thrust there is; horizontal acceleration only what is left
    # of the share not kept for attitude torques
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
        along = ax * qx + ay * qy  # 0 without a travel axis: then all is scaled alike
        cx, cy = ax - along * qx, ay - along * qy
        cn = math.hypot(cx, cy)
        if cn >= a_h_max:  # no room at all (a_h_max = 0: no thrust yet) leaves nothing sideways
            k = a_h_max / cn if cn > 0.0 else 0.0
            ax, ay = cx * k, cy * k
        else:
            along = math.copysign(min(abs(along), math.sqrt(a_h_max * a_h_max - cn * cn)), along)
            ax, ay = cx + along * qx, cy + along * qy
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

    # The integrators are for steady disturbances (wind, a sagging battery). The vertical one
    # learns only near its setpoint and while the output is not saturated, so climbing or
    # braking never winds it up. The horizontal one follows the reference, whose tracking error
    # stays small, so it learns all the time: only the part of the error that would push a
    # saturated output further is left out (anti-windup), so a wind across a saturated
    # acceleration is still learnt.
    window = p[I_WINDOW]
    if abs(ez) < window and (not z_saturated or ctl[VZ_INTEGRAL] * ez < 0.0):
        lim = p[VZ_I_LIMIT]
        ctl[VZ_INTEGRAL] = min(max(ctl[VZ_INTEGRAL] + p[KI_VZ] * ez * dt_s, -lim), lim)
    if changing:
        # the drone's lag behind a changing reference is no steady disturbance
        along = ex * qx + ey * qy
        ex, ey = ex - along * qx, ey - along * qy
    if xy_saturated:
        wn = math.hypot(wanted_x, wanted_y)
        if wn > 0.0:
            push = (ex * wanted_x + ey * wanted_y) / wn
            if push > 0.0:
                ex, ey = ex - push * wanted_x / wn, ey - push * wanted_y / wn
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
    if targets[T_YAW_RATE] == 0.0 and ctl[YAW_RATE_SP] != 0.0 and ctl[YAW_STOPPING] <= 0.0:
        ctl[COUNTDOWN] = 0.0  # the yaw stick was just released: start braking this tick
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
