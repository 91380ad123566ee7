"""Attitude controller: attitude error → body-rate setpoint (PX4 AttitudeControl).

As in PX4, the thrust direction (tilt) is corrected with priority: a "reduced" setpoint
turns the present body Z onto the desired one by the shortest arc; the heading correction
is then blended in with the weight yaw_gain / gain, so a slow yaw never disturbs the tilt.
The error quaternion q⁻¹ ⊗ q_sp gives a body rotation vector; gains are in 1/s and the result
is limited to the maximum body rates. A heading-rate feed-forward is added. It reads only
the gains (`attitude_gain`, `yaw_weight`, `max_rate`) and holds no state.
"""

from __future__ import annotations

import math

from components.layout import ATTITUDE_GAIN, MAX_RATE, YAW_WEIGHT
from flight import quat
from flight.jit import njit

_multiply = njit(quat.multiply)
_rotate = njit(quat.rotate_components)


@njit
def attitude_update(gains, q, q_sp, yaw_rate_ff, about_thrust_axis):
    """Body-rate setpoint (rad/s, a 3-tuple) from attitude q toward q_sp (both 4-tuples).

    Args:
        yaw_rate_ff: heading rate fed forward, rad/s.
        about_thrust_axis: turn about the body Z axis (the thrust direction stays put, as the
            stabilised controller wants) rather than about world Z (Angle mode, where the tilt
            is relative to the heading and turns with it).
    """
    x, y, z, w = q
    # body Z now and wanted, in world axes (third columns of the rotation matrices)
    ax, ay, az = 2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y)
    sx, sy, sz, sw = q_sp
    bx, by, bz = 2.0 * (sx * sz + sw * sy), 2.0 * (sy * sz - sw * sx), 1.0 - 2.0 * (sx * sx + sy * sy)
    # shortest arc from the present to the wanted thrust axis, applied to q: the reduced setpoint
    aw = 1.0 + ax * bx + ay * by + az * bz
    if aw > 1e-6:
        cx, cy, cz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
        n = math.sqrt(cx * cx + cy * cy + cz * cz + aw * aw)
        q_red = _multiply((cx / n, cy / n, cz / n, aw / n), q)
    else:  # thrust axis to be reversed: no meaningful reduced setpoint (PX4 does the same)
        q_red = q_sp
    # blend the heading part of the full setpoint back in, with the yaw weight
    rx, ry, rz, rw = q_red
    mx, my, mz, mw = _multiply((-rx, -ry, -rz, rw), q_sp)
    if mw < 0.0:
        mz, mw = -mz, -mw
    mw = min(mw, 1.0)
    mz = min(max(mz, -1.0), 1.0)
    k = gains[YAW_WEIGHT]
    target = _multiply(q_red, (0.0, 0.0, math.sin(k * math.asin(mz)), math.cos(k * math.acos(mw))))
    ex, ey, ez, ew = _multiply((-x, -y, -z, w), target)
    if ew < 0.0:
        ex, ey, ez = -ex, -ey, -ez
    g = 2.0 * gains[ATTITUDE_GAIN]
    rate_x, rate_y, rate_z = g * ex, g * ey, g * ez
    if yaw_rate_ff != 0.0:
        if about_thrust_axis:
            rate_z += yaw_rate_ff
        else:  # world Z expressed in body axes
            fx, fy, fz = _rotate(-x, -y, -z, w, 0.0, 0.0, yaw_rate_ff)
            rate_x += fx
            rate_y += fy
            rate_z += fz
    return (min(max(rate_x, -gains[MAX_RATE]), gains[MAX_RATE]),
            min(max(rate_y, -gains[MAX_RATE + 1]), gains[MAX_RATE + 1]),
            min(max(rate_z, -gains[MAX_RATE + 2]), gains[MAX_RATE + 2]))
