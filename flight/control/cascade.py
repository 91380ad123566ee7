"""The shared inner loops: attitude → rate → torque → mixer → rotor thrusts.

Every flight law ends here: MANUAL STABILISED and the assists produce an attitude setpoint
and a collective thrust, Angle does too, Acro produces body rates directly. The loops read
the gains, the airframe's inertia (`physics`, for the rate loop's torque) and the body's
attitude and rates, and keep their state in `loop_state`.
"""

from __future__ import annotations

from components.layout import QUATERNION, TORQUE_SCALE_RP
from flight.control.attitude import attitude_update
from flight.control.mixer import mix
from flight.control.rate import rate_update
from flight.jit import njit


@njit
def from_rates(loop_state, gains, physics, body, rate_x, rate_y, rate_z, collective_n, max_thrust_n, dt_s):
    """Rotor thrusts (N, a 4-tuple) for body-rate setpoints (rad/s) and a collective (N)."""
    saturated = loop_state[TORQUE_SCALE_RP] < 0.999  # the mixer cut roll/pitch torque last tick
    tx, ty, tz = rate_update(loop_state, gains, physics, body, rate_x, rate_y, rate_z, dt_s, saturated)
    return mix(loop_state, gains, collective_n, tx, ty, tz, max_thrust_n)


@njit
def from_attitude(loop_state, gains, physics, body, q_sp, collective_n, max_thrust_n, dt_s, yaw_rate_ff,
                  about_thrust_axis):
    """Rotor thrusts (N, a 4-tuple) for an attitude setpoint (a quaternion 4-tuple) and a collective (N)."""
    q = (body[QUATERNION], body[QUATERNION + 1], body[QUATERNION + 2], body[QUATERNION + 3])
    rx, ry, rz = attitude_update(gains, q, q_sp, yaw_rate_ff, about_thrust_axis)
    return from_rates(loop_state, gains, physics, body, rx, ry, rz, collective_n, max_thrust_n, dt_s)
