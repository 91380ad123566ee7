"""Body-rate controller: rate error → torque, PI with a bounded integrator (PX4 RateControl).

    α = Kp ⊙ (ω_sp − ω) + ∫ Ki ⊙ (ω_sp − ω) dt      (angular acceleration, rad/s²)
    τ = I α + ω × I ω                              (N·m, gyroscopic term fed forward)

Gains are in angular acceleration per rate error so they carry over between airframes of
different inertia. The integrator is there for steady moments (the drag acting above the
centre of mass grows as a banked drone speeds up): it learns only on rate errors below
`rate_i_window`, so the transient of a stick step never winds it up and it can be quick. Its
contribution is bounded by `rate_i_limit` (rad/s²) and it is frozen while the mixer had to
cut torque (anti wind-up). State lives in the controller
array `ctl` (flight/layout.py).
"""

from __future__ import annotations

from flight.jit import njit
from flight.layout import (
    INERTIA, OMEGA, RATE_I, RATE_I_LIMIT, RATE_I_WINDOW, RATE_INTEGRAL, RATE_P, RATE_SP, TORQUE,
)


@njit
def rate_update(ctl, p, body, sp_x, sp_y, sp_z, dt_s, saturated):
    """Torque (N·m, body) to track the body-rate setpoint (rad/s)."""
    lim = p[RATE_I_LIMIT]
    sp = (sp_x, sp_y, sp_z)
    alpha = [0.0, 0.0, 0.0]
    for i in range(3):
        err = sp[i] - body[OMEGA + i]
        if not saturated and abs(err) < p[RATE_I_WINDOW]:
            v = ctl[RATE_INTEGRAL + i] + p[RATE_I + i] * err * dt_s
            ctl[RATE_INTEGRAL + i] = lim if v > lim else (-lim if v < -lim else v)
        alpha[i] = p[RATE_P + i] * err + ctl[RATE_INTEGRAL + i]
    ix, iy, iz = p[INERTIA], p[INERTIA + 1], p[INERTIA + 2]
    wx, wy, wz = body[OMEGA], body[OMEGA + 1], body[OMEGA + 2]
    # ω × Iω cancels the gyroscopic coupling the plant adds
    tx = ix * alpha[0] + (wy * iz * wz - wz * iy * wy)
    ty = iy * alpha[1] + (wz * ix * wx - wx * iz * wz)
    tz = iz * alpha[2] + (wx * iy * wy - wy * ix * wx)
    for i, v in enumerate((sp_x, sp_y, sp_z)):
        ctl[RATE_SP + i] = v
    ctl[TORQUE] = tx
    ctl[TORQUE + 1] = ty
    ctl[TORQUE + 2] = tz
    return tx, ty, tz
