"""Attitude controller: attitude error → body-rate setpoint (PX4 AttitudeControl).

As in PX4, the thrust direction (tilt) is corrected with priority: a "reduced" setpoint
turns the present body Z onto the desired one by the shortest arc; the heading correction
is then blended in with the weight yaw_gain / gain, so a slow yaw never disturbs the tilt.
The error quaternion q⁻¹ ⊗ q_sp gives a body rotation vector; gains are in 1/s and the result
is limited to the maximum body rates. A world yaw-rate feed-forward is added in body axes.
"""

from __future__ import annotations

import math

from flight import quat


def _shortest_arc(a, b):
    """Quaternion turning unit vector a onto unit vector b by the shortest way."""
    ax, ay, az = a
    bx, by, bz = b
    cx, cy, cz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
    d = ax * bx + ay * by + az * bz
    w = 1.0 + d
    if w < 1e-9:  # opposite vectors: any perpendicular axis
        return (1.0, 0.0, 0.0, 0.0) if abs(ax) < 0.9 else (0.0, 1.0, 0.0, 0.0)
    return quat.normalise((cx, cy, cz, w))


class AttitudeController:
    def __init__(self, gain: float, yaw_gain: float, max_rate_rad_s) -> None:
        self.gain = gain
        self.yaw_gain = yaw_gain
        self.yaw_weight = min(1.0, max(0.0, yaw_gain / gain))
        self.max_rate = tuple(max_rate_rad_s)

    def update(self, q, q_sp, yaw_rate_ff: float = 0.0, about_thrust_axis: bool = False) -> tuple[float, float, float]:
        """Body-rate setpoint in rad/s.

        Args:
            yaw_rate_ff: heading rate fed forward, rad/s.
            about_thrust_axis: turn about the body Z axis (the thrust direction stays put, as
                the stabilised controller wants) rather than about world Z (Angle mode, where
                the tilt is relative to the heading and turns with it).
        """
        ez_now = quat.rotate(q, (0.0, 0.0, 1.0))
        ez_sp = quat.rotate(q_sp, (0.0, 0.0, 1.0))
        q_red = quat.multiply(_shortest_arc(ez_now, ez_sp), q)
        # blend the heading part of the full setpoint back in, with the yaw weight
        rx, ry, rz, rw = q_red
        mx, my, mz, mw = quat.multiply((-rx, -ry, -rz, rw), q_sp)
        if mw < 0.0:
            mx, my, mz, mw = -mx, -my, -mz, -mw
        mw = min(1.0, max(-1.0, mw))
        mz = min(1.0, max(-1.0, mz))
        k = self.yaw_weight
        q_sp = quat.multiply(q_red, (0.0, 0.0, math.sin(k * math.asin(mz)), math.cos(k * math.acos(mw))))
        x, y, z, w = q
        ex, ey, ez, ew = quat.multiply((-x, -y, -z, w), q_sp)
        if ew < 0.0:
            ex, ey, ez, ew = -ex, -ey, -ez, -ew
        g = self.gain
        rates = [2.0 * g * ex, 2.0 * g * ey, 2.0 * g * ez]
        if yaw_rate_ff:
            if about_thrust_axis:
                rates[2] += yaw_rate_ff
            else:
                ff = quat.rotate_inverse(q, (0.0, 0.0, yaw_rate_ff))
                rates = [rates[0] + ff[0], rates[1] + ff[1], rates[2] + ff[2]]
        m = self.max_rate
        return (min(max(rates[0], -m[0]), m[0]), min(max(rates[1], -m[1]), m[1]), min(max(rates[2], -m[2]), m[2]))
