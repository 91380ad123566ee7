"""Body-rate controller: rate error → torque, PI with a bounded integrator (PX4 RateControl).

    α = Kp ⊙ (ω_sp − ω) + ∫ Ki ⊙ (ω_sp − ω) dt      (angular acceleration, rad/s²)
    τ = I α + ω × I ω                              (N·m, gyroscopic term fed forward)

Gains are in angular acceleration per rate error so they carry over between airframes of
different inertia. The integrator is there for steady moments (the drag acting above the
centre of mass grows as a banked drone speeds up): it learns only on rate errors below
`rate_i_window`, so the transient of a stick step never winds it up and it can be quick. Its
contribution is bounded by `rate_i_limit` (rad/s²) and it is frozen while the mixer had to
cut torque (anti wind-up). It reads the gains, the airframe's inertia (`physics`) and the
body's rates; its state (integrators, last setpoint and torque) lives in `loop_state`
(components/layout.py LOOP_STATE).
"""

from __future__ import annotations

from components.layout import (
    ANGULAR_VELOCITY, INERTIA, RATE_I, RATE_I_LIMIT, RATE_I_WINDOW, RATE_INTEGRAL, RATE_P, RATE_SP, TORQUE_SP,
)
from flight.jit import njit


@njit
def rate_update(loop_state, gains, physics, body, sp_x, sp_y, sp_z, dt_s, saturated):
    """Torque (N·m, body) to track the body-rate setpoint (rad/s). `saturated`: the mixer cut
    torque last tick, so the integrators hold."""
    lim = gains[RATE_I_LIMIT]
    sp = (sp_x, sp_y, sp_z)
    alpha = [0.0, 0.0, 0.0]
    for i in range(3):
        err = sp[i] - body[ANGULAR_VELOCITY + i]
        if not saturated and abs(err) < gains[RATE_I_WINDOW]:
            v = loop_state[RATE_INTEGRAL + i] + gains[RATE_I + i] * err * dt_s
            loop_state[RATE_INTEGRAL + i] = lim if v > lim else (-lim if v < -lim else v)
        alpha[i] = gains[RATE_P + i] * err + loop_state[RATE_INTEGRAL + i]
    ix, iy, iz = physics[INERTIA], physics[INERTIA + 1], physics[INERTIA + 2]
    wx, wy, wz = body[ANGULAR_VELOCITY], body[ANGULAR_VELOCITY + 1], body[ANGULAR_VELOCITY + 2]
    # ω × Iω cancels the gyroscopic coupling the plant adds
    tx = ix * alpha[0] + (wy * iz * wz - wz * iy * wy)
    ty = iy * alpha[1] + (wz * ix * wx - wx * iz * wz)
    tz = iz * alpha[2] + (wx * iy * wy - wy * ix * wx)
    for i, v in enumerate((sp_x, sp_y, sp_z)):
        loop_state[RATE_SP + i] = v
    loop_state[TORQUE_SP] = tx
    loop_state[TORQUE_SP + 1] = ty
    loop_state[TORQUE_SP + 2] = tz
    return tx, ty, tz
