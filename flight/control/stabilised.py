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
sensor model, docs/model.md#stabilised-manual-flight). It reads the setpoints in `targets`
(the Controller's, components/layout.py TARGETS), the gains, the airframe's mass, drag areas,
reaction torque ratio and inertia (`physics`) and the body's state; its own state lives in
`loop_state` (components/layout.py LOOP_STATE).
"""

from __future__ import annotations

import math

from components.layout import (
    ACC_REF, ACC_SP, ALTITUDE_GAIN, ALTITUDE_LINEAR_SPEED, ANGULAR_VELOCITY, ATTITUDE_GAIN, COUNTDOWN,
    DRAG_AREA, GRAVITY, HEADING, HOLD_ALTITUDE, HOLD_LINE, HOLD_POSITION, HOLD_POSITION_SET, INERTIA,
    INTEGRATOR_WINDOW, LAST_ACC, LAST_ACC_SET, LINE_DIR, LINE_POS, LINE_SET, MASS, MAX_HORIZONTAL_SPEED,
    MAX_JERK, MAX_VERTICAL_SPEED, MAX_YAW_ACCELERATION, OUTER_DIVIDER, POSITION, POSITION_GAIN,
    POSITION_SPEED_LIMIT, QUATERNION, Q_SP, RATE_P, REACTION_TORQUE_RATIO, REFERENCE_ACCELERATION,
    REFERENCE_JERK, TAN_MAX_TILT, TARGET_ALTITUDE, TARGET_VELOCITY, TARGET_YAW_RATE, TRANSLATION_SHARE,
    VELOCITY, VELOCITY_GAIN, VELOCITY_I, VELOCITY_I_LIMIT, VEL_INTEGRAL, VEL_REF, VEL_REF_SET,
    VERTICAL_BRAKE_DECEL, VERTICAL_BRAKE_THRUST_SHARE, VERTICAL_VELOCITY_GAIN, VERTICAL_VELOCITY_I,
    VERTICAL_VELOCITY_I_LIMIT, VZ_INTEGRAL, VZ_SP, YAW_BRAKE, YAW_BRAKE_SHARE, YAW_LOCK_RATE, YAW_RATE_SP,
    YAW_STOPPING, YAW_STOP_AT, YAW_STOP_DIR,
)
from flight.control.cascade import from_attitude
from flight.jit import njit


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
def vertical_speed_for(gains, altitude_error_m, decel):
    """Square-root braking profile toward an altitude target, limited to ±max vertical.

    Returns the vertical speed setpoint and the profile's slope d(speed)/d(error) there (1/s),
    from which the controller feeds the profile's deceleration forward.
    """
    e = altitude_error_m
    # the linear part ends at `alt_linear_speed`: above it the planned deceleration holds
    k = max(gains[ALTITUDE_GAIN], decel / gains[ALTITUDE_LINEAR_SPEED])
    # linear near the target, constant deceleration further away (continuous at e = decel/k²)
    linear_limit = decel / (k * k)
    if abs(e) <= linear_limit:
        v = k * e
        slope = k
    else:
        v = math.copysign(math.sqrt(2.0 * decel * (abs(e) - 0.5 * linear_limit)), e)
        slope = decel / abs(v)
    vmax = gains[MAX_VERTICAL_SPEED]
    if abs(v) > vmax:
        return math.copysign(vmax, v), 0.0
    return v, slope


@njit
def yaw_stop(loop_state, gains, physics, body, max_thrust_n):
    """The yaw stick was released: stop as the rotors can, then hold the heading reached.

    Only the rotors' reaction torques brake a yaw. The stop is planned once, with a share of the
    largest yaw deceleration they give while carrying the present collective; the yaw-rate
    setpoint then follows the square-root profile to the planned heading and the heading
    setpoint follows the drone, so the attitude loop never pulls it back. The heading is
    locked where the drone is once it turns slower than the lock rate.
    """
    x, y, z, w = body[QUATERNION], body[QUATERNION + 1], body[QUATERNION + 2], body[QUATERNION + 3]
    heading = math.atan2(2.0 * (x * y + w * z), 1.0 - 2.0 * (y * y + z * z))
    # yaw rate about world Z: third row of the rotation matrix · body rates
    rate = (2.0 * (x * z - w * y) * body[ANGULAR_VELOCITY] + 2.0 * (y * z + w * x) * body[ANGULAR_VELOCITY + 1]
            + (1.0 - 2.0 * (x * x + y * y)) * body[ANGULAR_VELOCITY + 2])
    if loop_state[YAW_STOPPING] <= 0.0:
        # two diagonal rotors up to full thrust (or the whole collective), the other two down
        collective = physics[MASS] * max(loop_state[ACC_SP + 2], 0.0)
        torque = physics[REACTION_TORQUE_RATIO] * (4.0 * min(max_thrust_n, 0.5 * collective) - collective)
        alpha = max(gains[YAW_BRAKE_SHARE] * torque / physics[INERTIA + 2], 1e-3)
        loop_state[YAW_STOPPING] = 1.0
        loop_state[YAW_STOP_AT] = heading + rate * abs(rate) / (2.0 * alpha)
        loop_state[YAW_STOP_DIR] = 1.0 if rate >= 0.0 else -1.0
        loop_state[YAW_BRAKE] = alpha
    left = wrap_angle(loop_state[YAW_STOP_AT] - heading) * loop_state[YAW_STOP_DIR]
    # the profile's deceleration, fed forward through the rate loop's proportional gain (a rate
    # setpoint that much below the profile asks for it), never asking to turn back
    lead = loop_state[YAW_BRAKE] / gains[RATE_P + 2]
    profile = loop_state[YAW_STOP_DIR] * max(math.sqrt(2.0 * loop_state[YAW_BRAKE] * left) - lead, 0.0) if left > 0.0 else 0.0
    loop_state[HEADING] = heading
    loop_state[YAW_RATE_SP] = profile
    if abs(rate) < gains[YAW_LOCK_RATE] and abs(profile) < gains[YAW_LOCK_RATE]:
        loop_state[YAW_STOPPING] = 0.0
        loop_state[YAW_RATE_SP] = 0.0


@njit
def stabilised_outer(loop_state, gains, physics, body, targets, density_kg_m3, max_thrust_n, dt_s):
    """Position, velocity and altitude loops → loop_state[ACC_SP] (acceleration + g) and loop_state[Q_SP]."""
    m = physics[MASS]
    g = physics[GRAVITY]
    yaw_command = targets[TARGET_YAW_RATE]
    if yaw_command != 0.0 or (loop_state[YAW_STOPPING] <= 0.0 and loop_state[YAW_RATE_SP] == 0.0):
        # heading: the setpoint turns with a limited yaw acceleration
        loop_state[YAW_STOPPING] = 0.0
        step = gains[MAX_YAW_ACCELERATION] * dt_s
        yaw_rate = loop_state[YAW_RATE_SP] + min(max(yaw_command - loop_state[YAW_RATE_SP], -step), step)
        loop_state[YAW_RATE_SP] = yaw_rate
        loop_state[HEADING] = wrap_angle(loop_state[HEADING] + yaw_rate * dt_s)
    else:
        yaw_stop(loop_state, gains, physics, body, max_thrust_n)

    # horizontal: the cruise reference slews toward the setpoint (limited on its own: a climb
    # never reduces it) at a planned acceleration, fed forward, so the drone follows it closely
    # and the integrator can learn on the tracking error all the time
    vmax_h = gains[MAX_HORIZONTAL_SPEED]
    tx, ty = targets[TARGET_VELOCITY], targets[TARGET_VELOCITY + 1]
    tn = math.hypot(tx, ty)
    if tn > vmax_h:
        tx, ty = tx * vmax_h / tn, ty * vmax_h / tn
        tn = vmax_h
    if loop_state[VEL_REF_SET] <= 0.0:
        loop_state[VEL_REF], loop_state[VEL_REF + 1] = body[VELOCITY], body[VELOCITY + 1]
        loop_state[ACC_REF] = loop_state[ACC_REF + 1] = 0.0
        loop_state[VEL_REF_SET] = 1.0
    rx, ry = loop_state[VEL_REF], loop_state[VEL_REF + 1]
    fx, fy = loop_state[ACC_REF], loop_state[ACC_REF + 1]
    dx, dy = tx - rx, ty - ry
    dn = math.hypot(dx, dy)
    # jerk-limited: the acceleration toward the setpoint is what can still be ramped down to
    # zero on arrival, |a| = √(2 j d), at most the planned acceleration
    jerk_step = gains[REFERENCE_JERK] * dt_s
    qx = qy = 0.0  # the axis along which the speed changes, or is kept
    want_x = want_y = 0.0
    if dn > 0.0:
        qx, qy = dx / dn, dy / dn
        a_want = min(gains[REFERENCE_ACCELERATION], math.sqrt(2.0 * gains[REFERENCE_JERK] * dn))
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
    loop_state[VEL_REF], loop_state[VEL_REF + 1] = rx, ry
    loop_state[ACC_REF], loop_state[ACC_REF + 1] = fx, fy
    changing = fx != 0.0 or fy != 0.0
    if not changing and tn > 0.0:
        qx, qy = tx / tn, ty / tn

    # position terms: the hovering point, or the line of travel (only across it)
    px = py = 0.0
    if targets[HOLD_POSITION_SET] > 0.0:
        loop_state[LINE_SET] = 0.0
        px = gains[POSITION_GAIN] * (targets[HOLD_POSITION] - body[POSITION])
        py = gains[POSITION_GAIN] * (targets[HOLD_POSITION + 1] - body[POSITION + 1])
    elif targets[HOLD_LINE] > 0.0 and tn > 0.0:
        ux, uy = tx / tn, ty / tn
        if loop_state[LINE_SET] <= 0.0 or ux * loop_state[LINE_DIR] + uy * loop_state[LINE_DIR + 1] < 1.0 - 1e-9:
            # a new direction: its line starts here; the reference's turn is part of it
            loop_state[LINE_POS], loop_state[LINE_POS + 1] = body[POSITION], body[POSITION + 1]
            loop_state[LINE_DIR], loop_state[LINE_DIR + 1] = ux, uy
            loop_state[LINE_SET] = 1.0
        lx, ly = loop_state[LINE_POS] - body[POSITION], loop_state[LINE_POS + 1] - body[POSITION + 1]
        along = lx * ux + ly * uy
        px, py = gains[POSITION_GAIN] * (lx - along * ux), gains[POSITION_GAIN] * (ly - along * uy)
        loop_state[LINE_POS] += rx * dt_s
        loop_state[LINE_POS + 1] += ry * dt_s
    else:
        loop_state[LINE_SET] = 0.0
    pn = math.hypot(px, py)
    limit = gains[POSITION_SPEED_LIMIT]
    if pn > limit:
        px, py = px * limit / pn, py * limit / pn
    # the tilt takes about 1/attitude_gain to follow an acceleration: the velocity the drone can
    # have now lags the reference by that much while it changes
    lag_s = 1.0 / gains[ATTITUDE_GAIN]
    sx, sy = rx - fx * lag_s + px, ry - fy * lag_s + py
    sn = math.hypot(sx, sy)
    if sn > vmax_h:
        sx, sy = sx * vmax_h / sn, sy * vmax_h / sn
    # vertical setpoint, limited separately. Toward an altitude target the braking profile
    # plans with what brakes the motion: gravity going up, the thrust margin going down; its
    # deceleration is fed forward along the present motion, so the stop follows the plan
    a_full = 4.0 * max_thrust_n / m
    az_ff = 0.0
    if targets[HOLD_ALTITUDE] > 0.0:
        e_alt = targets[TARGET_ALTITUDE] - body[POSITION + 2]
        decel = (gains[VERTICAL_BRAKE_DECEL] if e_alt > 0.0
                 else max(gains[VERTICAL_BRAKE_THRUST_SHARE] * (a_full - g), 0.1 * g))
        vz_sp, slope = vertical_speed_for(gains, e_alt, decel)
        if vz_sp * body[VELOCITY + 2] > 0.0:
            az_ff = -slope * body[VELOCITY + 2]
    else:
        vz_sp = min(max(targets[TARGET_VELOCITY + 2], -gains[MAX_VERTICAL_SPEED]), gains[MAX_VERTICAL_SPEED])
    loop_state[VZ_SP] = vz_sp

    # vertical acceleration (served first), with drag feed-forward at the setpoint
    ez = vz_sp - body[VELOCITY + 2]
    az = (az_ff + gains[VERTICAL_VELOCITY_GAIN] * ez + loop_state[VZ_INTEGRAL]
          + 0.5 * density_kg_m3 * abs(vz_sp) * physics[DRAG_AREA + 2] * vz_sp / m)
    # horizontal acceleration with drag feed-forward at the setpoint (still air)
    ex, ey = sx - body[VELOCITY], sy - body[VELOCITY + 1]
    drag_ff = 0.5 * density_kg_m3 * math.hypot(rx, ry) * physics[DRAG_AREA] / m
    ax = fx + gains[VELOCITY_GAIN] * ex + loop_state[VEL_INTEGRAL] + drag_ff * rx
    ay = fy + gains[VELOCITY_GAIN] * ey + loop_state[VEL_INTEGRAL + 1] + drag_ff * ry
    wanted_x, wanted_y = ax, ay

    # the vertical may use all the thrust there is; horizontal acceleration only what is left
    # of the share not kept for attitude torques
    fz = az + g
    z_saturated = fz > a_full or fz < 0.0
    fz = min(max(fz, 0.05 * g), a_full) if a_full > 0.05 * g else a_full
    # the tilt limit and the remaining thrust bound the horizontal acceleration
    a_h = math.hypot(ax, ay)
    a_shared = a_full * gains[TRANSLATION_SHARE]
    room = a_shared * a_shared - fz * fz
    a_h_max = min(fz * gains[TAN_MAX_TILT], math.sqrt(room) if room > 0.0 else 0.0)
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
    if loop_state[LAST_ACC_SET] > 0.0:
        dax, day = ax - loop_state[LAST_ACC], ay - loop_state[LAST_ACC + 1]
        change = math.hypot(dax, day)
        max_change = gains[MAX_JERK] * dt_s
        if change > max_change:
            ax = loop_state[LAST_ACC] + dax * max_change / change
            ay = loop_state[LAST_ACC + 1] + day * max_change / change
            xy_saturated = True
    loop_state[LAST_ACC] = ax
    loop_state[LAST_ACC + 1] = ay
    loop_state[LAST_ACC_SET] = 1.0

    # The integrators are for steady disturbances (wind, a sagging battery). The vertical one
    # learns only near its setpoint and while the output is not saturated, so climbing or
    # braking never winds it up. The horizontal one follows the reference, whose tracking error
    # stays small, so it learns all the time: only the part of the error that would push a
    # saturated output further is left out (anti-windup), so a wind across a saturated
    # acceleration is still learnt.
    window = gains[INTEGRATOR_WINDOW]
    if abs(ez) < window and (not z_saturated or loop_state[VZ_INTEGRAL] * ez < 0.0):
        lim = gains[VERTICAL_VELOCITY_I_LIMIT]
        loop_state[VZ_INTEGRAL] = min(max(loop_state[VZ_INTEGRAL] + gains[VERTICAL_VELOCITY_I] * ez * dt_s, -lim), lim)
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
    lim = gains[VELOCITY_I_LIMIT]
    ix = loop_state[VEL_INTEGRAL] + gains[VELOCITY_I] * dt_s * ex
    iy = loop_state[VEL_INTEGRAL + 1] + gains[VELOCITY_I] * dt_s * ey
    n = math.hypot(ix, iy)
    if n > lim:
        ix, iy = ix * lim / n, iy * lim / n
    loop_state[VEL_INTEGRAL] = ix
    loop_state[VEL_INTEGRAL + 1] = iy

    loop_state[ACC_SP] = ax
    loop_state[ACC_SP + 1] = ay
    loop_state[ACC_SP + 2] = fz
    if fz > 0.0:
        q = attitude_from_thrust_direction(ax, ay, fz, loop_state[HEADING])
        for i in range(4):
            loop_state[Q_SP + i] = q[i]


@njit
def stabilised_update(loop_state, gains, physics, body, targets, density_kg_m3, max_thrust_n, dt_s):
    """Rotor thrusts (N, a 4-tuple) for the setpoints in `targets` (components/layout.py TARGETS)."""
    if targets[TARGET_YAW_RATE] == 0.0 and loop_state[YAW_RATE_SP] != 0.0 and loop_state[YAW_STOPPING] <= 0.0:
        loop_state[COUNTDOWN] = 0.0  # the yaw stick was just released: start braking this tick
    if loop_state[COUNTDOWN] <= 0.0:
        loop_state[COUNTDOWN] = gains[OUTER_DIVIDER]
        stabilised_outer(loop_state, gains, physics, body, targets, density_kg_m3, max_thrust_n,
                         dt_s * gains[OUTER_DIVIDER])
    loop_state[COUNTDOWN] -= 1.0
    ax, ay, fz = loop_state[ACC_SP], loop_state[ACC_SP + 1], loop_state[ACC_SP + 2]
    q = (body[QUATERNION], body[QUATERNION + 1], body[QUATERNION + 2], body[QUATERNION + 3])
    if fz <= 0.0:
        return from_attitude(loop_state, gains, physics, body, q, 0.0, max_thrust_n, dt_s, 0.0, True)
    # collective along the present body Z, every tick: no extra lift while the attitude catches up
    x, y, z, w = q
    along = (ax * 2.0 * (x * z + w * y) + ay * 2.0 * (y * z - w * x)
             + fz * (1.0 - 2.0 * (x * x + y * y))) * physics[MASS]
    q_sp = (loop_state[Q_SP], loop_state[Q_SP + 1], loop_state[Q_SP + 2], loop_state[Q_SP + 3])
    return from_attitude(loop_state, gains, physics, body, q_sp, max(along, 0.0), max_thrust_n, dt_s,
                         loop_state[YAW_RATE_SP], True)
