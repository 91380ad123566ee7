"""Body-rate controller: rate error → torque, PI with a bounded integrator (PX4 RateControl).

    α = Kp ⊙ (ω_sp − ω) + ∫ Ki ⊙ (ω_sp − ω) dt      (angular acceleration, rad/s²)
    τ = I α + ω × I ω                              (N·m, gyroscopic term fed forward)

Gains are in angular acceleration per rate error so they carry over between airframes of
different inertia. The integrator contribution is bounded by `i_limit` (rad/s²) and frozen
while the mixer had to cut torque (anti wind-up).
"""

from __future__ import annotations


class RateController:
    """Args:
        inertia_kgm2: principal inertias X, Y, Z.
        gain_p: proportional gains X, Y, Z in 1/s.
        gain_i: integral gains X, Y, Z in 1/s².
        i_limit: bound of the integral term in rad/s².
    """

    def __init__(self, inertia_kgm2, gain_p, gain_i, i_limit: float) -> None:
        self.inertia = tuple(inertia_kgm2)
        self.gain_p = tuple(gain_p)
        self.gain_i = tuple(gain_i)
        self.i_limit = i_limit
        self.integral = [0.0, 0.0, 0.0]  # rad/s²

    def reset(self) -> None:
        self.integral = [0.0, 0.0, 0.0]

    def update(self, rate, rate_sp, dt_s: float, saturated: bool = False) -> tuple[float, float, float]:
        """Torque (N·m, body) to track `rate_sp` (rad/s, body) from `rate`."""
        out = []
        lim = self.i_limit
        for i in range(3):
            err = rate_sp[i] - rate[i]
            if not saturated:
                v = self.integral[i] + self.gain_i[i] * err * dt_s
                self.integral[i] = lim if v > lim else (-lim if v < -lim else v)
            out.append(self.inertia[i] * (self.gain_p[i] * err + self.integral[i]))
        ix, iy, iz = self.inertia
        wx, wy, wz = rate
        # ω × Iω cancels the gyroscopic coupling the plant adds
        out[0] += wy * iz * wz - wz * iy * wy
        out[1] += wz * ix * wx - wx * iz * wz
        out[2] += wx * iy * wy - wy * ix * wx
        return out[0], out[1], out[2]
