"""Control allocation: collective thrust and body torques → four rotor thrusts.

The allocation uses the X and Y lever arms separately (the Tello frame is not square):
    ΣT = T,  Σ yᵢTᵢ = τx,  −Σ xᵢTᵢ = τy,  −Σ spinᵢ·k·Tᵢ = τz,
inverted once per vehicle (the gains' `mix` row, derived in components/layout.py). When a
rotor would leave [0, T_max], torques are reduced to fit the thrust available — yaw first,
then roll and pitch — never the collective beyond its own bounds (docs/model.md#laboratory-models-angle-and-acro).
"""

from __future__ import annotations

from components.layout import MIX, TORQUE_SCALE_RP, TORQUE_SCALE_YAW
from flight.jit import njit


@njit
def _fit(b0, b1, b2, b3, d0, d1, d2, d3, upper):
    """Largest s in [0, 1] with 0 ≤ bᵢ + s·dᵢ ≤ upper for every rotor."""
    s = 1.0
    for b, d in ((b0, d0), (b1, d1), (b2, d2), (b3, d3)):
        if d > 0.0:
            room = upper - b
            if room < s * d:
                s = room / d if room > 0.0 else 0.0
        elif d < 0.0:
            if b + s * d < 0.0:
                s = -b / d if b > 0.0 else 0.0
    return s


@njit
def mix(loop_state, gains, collective_n, tx, ty, tz, max_thrust_n):
    """Rotor thrusts (N, a 4-tuple) for a collective and body torques (N·m); the torque factors
    applied are left in loop_state[TORQUE_SCALE_RP], loop_state[TORQUE_SCALE_YAW]."""
    upper = max_thrust_n
    c = min(max(collective_n, 0.0), 4.0 * upper)
    b0, b1, b2, b3 = gains[MIX] * c, gains[MIX + 4] * c, gains[MIX + 8] * c, gains[MIX + 12] * c
    r0 = gains[MIX + 1] * tx + gains[MIX + 2] * ty
    r1 = gains[MIX + 5] * tx + gains[MIX + 6] * ty
    r2 = gains[MIX + 9] * tx + gains[MIX + 10] * ty
    r3 = gains[MIX + 13] * tx + gains[MIX + 14] * ty
    s_rp = _fit(b0, b1, b2, b3, r0, r1, r2, r3, upper)
    b0, b1, b2, b3 = b0 + s_rp * r0, b1 + s_rp * r1, b2 + s_rp * r2, b3 + s_rp * r3
    y0, y1, y2, y3 = gains[MIX + 3] * tz, gains[MIX + 7] * tz, gains[MIX + 11] * tz, gains[MIX + 15] * tz
    s_yaw = _fit(b0, b1, b2, b3, y0, y1, y2, y3, upper)
    loop_state[TORQUE_SCALE_RP] = s_rp
    loop_state[TORQUE_SCALE_YAW] = s_yaw
    # the clamp only removes rounding: the fit keeps every rotor in range
    return (min(max(b0 + s_yaw * y0, 0.0), upper), min(max(b1 + s_yaw * y1, 0.0), upper),
            min(max(b2 + s_yaw * y2, 0.0), upper), min(max(b3 + s_yaw * y3, 0.0), upper))
