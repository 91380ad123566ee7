"""Attitude controller: attitude error → body-rate setpoint (PX4 AttitudeControl, simplified).

The error quaternion q_e = q⁻¹ ⊗ q_sp (shortest way) gives a body-frame rotation vector;
roll/pitch and yaw get separate proportional gains (1/s) and the result is limited to the
maximum body rates.
"""

from __future__ import annotations

from flight import quat


class AttitudeController:
    def __init__(self, gain: float, yaw_gain: float, max_rate_rad_s) -> None:
        self.gain = gain
        self.yaw_gain = yaw_gain
        self.max_rate = tuple(max_rate_rad_s)

    def update(self, q, q_sp, yaw_rate_ff: float = 0.0) -> tuple[float, float, float]:
        """Body-rate setpoint in rad/s. `yaw_rate_ff` is a world yaw rate fed forward."""
        x, y, z, w = q
        ex, ey, ez, ew = quat.multiply((-x, -y, -z, w), q_sp)
        if ew < 0.0:
            ex, ey, ez, ew = -ex, -ey, -ez, -ew
        # 2·vector part ≈ rotation vector for small errors, saturating gracefully for large ones
        rates = [2.0 * self.gain * ex, 2.0 * self.gain * ey, 2.0 * self.yaw_gain * ez]
        if yaw_rate_ff:
            ff = quat.rotate_inverse(q, (0.0, 0.0, yaw_rate_ff))
            rates = [rates[0] + ff[0], rates[1] + ff[1], rates[2] + ff[2]]
        return tuple(min(max(r, -m), m) for r, m in zip(rates, self.max_rate))  # type: ignore[return-value]
