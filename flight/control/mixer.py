"""Control allocation: collective thrust and body torques → four rotor thrusts.

The allocation uses the X and Y lever arms separately (the Tello frame is not square):
    ΣT = T,  Σ yᵢTᵢ = τx,  −Σ xᵢTᵢ = τy,  −Σ spinᵢ·k·Tᵢ = τz,
inverted once per vehicle. When a rotor would leave [0, T_max], torques are reduced to fit
the thrust available — yaw first, then roll and pitch — never the collective beyond its
own bounds (MODEL §10).
"""

from __future__ import annotations

import numpy as np

from flight.vehicle import Vehicle


class Mixer:
    """Allocates (T, τx, τy, τz) to four rotor thrusts within [0, max_thrust_n]."""

    def __init__(self, vehicle: Vehicle) -> None:
        k = vehicle.reaction_torque_ratio_m
        b = np.array([
            [1.0] * 4,
            [r.y_m for r in vehicle.rotors],
            [-r.x_m for r in vehicle.rotors],
            [-r.spin * k for r in vehicle.rotors],
        ])
        inv = np.linalg.inv(b)
        # columns as plain float tuples: the per-tick path stays in Python floats
        self._collective = tuple(float(v) for v in inv[:, 0])
        self._roll = tuple(float(v) for v in inv[:, 1])
        self._pitch = tuple(float(v) for v in inv[:, 2])
        self._yaw = tuple(float(v) for v in inv[:, 3])
        self.torque_scale = (1.0, 1.0)  # (roll/pitch, yaw) factors applied at the last mix

    def mix(self, collective_n: float, torque_nm, max_thrust_n: float) -> list[float]:
        """Rotor thrusts in newtons; torques scaled down when a rotor would saturate."""
        collective_n = min(max(collective_n, 0.0), 4.0 * max_thrust_n)
        tx, ty, tz = torque_nm
        base = [c * collective_n for c in self._collective]
        rp = [a * tx + b * ty for a, b in zip(self._roll, self._pitch)]
        yaw = [c * tz for c in self._yaw]
        s_rp = _fit(base, rp, max_thrust_n)
        with_rp = [b + s_rp * d for b, d in zip(base, rp)]
        s_yaw = _fit(with_rp, yaw, max_thrust_n)
        self.torque_scale = (s_rp, s_yaw)
        return [min(max(b + s_yaw * d, 0.0), max_thrust_n) for b, d in zip(with_rp, yaw)]


def _fit(base, delta, upper: float) -> float:
    """Largest s in [0, 1] with 0 ≤ base + s·delta ≤ upper for every rotor."""
    s = 1.0
    for b, d in zip(base, delta):
        if d > 0.0:
            room = upper - b
            if room < s * d:
                s = max(0.0, room / d)
        elif d < 0.0:
            if b + s * d < 0.0:
                s = max(0.0, -b / d)
    return s
