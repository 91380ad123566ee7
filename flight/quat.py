"""Quaternion helpers on plain floats, (x, y, z, w) order — the same order as pyrr.

A quaternion q maps body vectors to world vectors: v_world = q ⊗ v_body ⊗ q*. Plain floats
rather than numpy: one sub-step handles a handful of 3-vectors, where numpy's per-call cost
dominates (see `donify bench`).
"""

from __future__ import annotations

import math


def rotate_components(x, y, z, w, vx, vy, vz):
    """Rotate (vx, vy, vz) by the quaternion (x, y, z, w): the one implementation, on scalars,
    that both plain Python and the compiled dynamics use."""
    # t = 2 q_vec × v ; v' = v + w t + q_vec × t
    tx = 2.0 * (y * vz - z * vy)
    ty = 2.0 * (z * vx - x * vz)
    tz = 2.0 * (x * vy - y * vx)
    return (vx + w * tx + (y * tz - z * ty),
            vy + w * ty + (z * tx - x * tz),
            vz + w * tz + (x * ty - y * tx))


def rotate(q, v):
    """Body → world: q ⊗ v ⊗ q*."""
    return rotate_components(q[0], q[1], q[2], q[3], v[0], v[1], v[2])


def rotate_inverse(q, v):
    """World → body: q* ⊗ v ⊗ q."""
    return rotate_components(-q[0], -q[1], -q[2], q[3], v[0], v[1], v[2])


def multiply(a, b):
    """Hamilton product a ⊗ b."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


def normalise(q):
    x, y, z, w = q
    n = math.sqrt(x * x + y * y + z * z + w * w)
    return (x / n, y / n, z / n, w / n)


def from_axis_angle(axis, angle_rad):
    ax, ay, az = axis
    n = math.sqrt(ax * ax + ay * ay + az * az)
    s = math.sin(0.5 * angle_rad) / n
    return (ax * s, ay * s, az * s, math.cos(0.5 * angle_rad))


def from_euler(roll_rad, pitch_rad, yaw_rad):
    """Z-Y-X (yaw, then pitch, then roll) Euler angles → quaternion."""
    cr, sr = math.cos(0.5 * roll_rad), math.sin(0.5 * roll_rad)
    cp, sp = math.cos(0.5 * pitch_rad), math.sin(0.5 * pitch_rad)
    cy, sy = math.cos(0.5 * yaw_rad), math.sin(0.5 * yaw_rad)
    return (sr * cp * cy - cr * sp * sy,
            cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy,
            cr * cp * cy + sr * sp * sy)


def to_euler(q):
    """Quaternion → (roll, pitch, yaw) in radians, Z-Y-X convention.

    Right-handed about the body axes: positive roll (about X, forward) lowers the right side,
    positive pitch (about Y, left) lowers the nose, positive yaw (about Z, up) turns
    counter-clockwise seen from above.
    """
    x, y, z, w = q
    roll = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
    s = 2.0 * (w * y - z * x)
    pitch = math.copysign(math.pi / 2, s) if abs(s) >= 1.0 else math.asin(s)
    yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    return roll, pitch, yaw
