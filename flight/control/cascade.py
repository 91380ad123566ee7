"""The shared inner loops: attitude → rate → torque → mixer → rotor thrusts.

Every flight law ends here: MANUAL STABILISED and the assists produce an attitude setpoint
and a collective thrust, Angle does too, Acro produces body rates directly.
"""

from __future__ import annotations

from flight.control.attitude import attitude_update
from flight.control.mixer import mix
from flight.control.rate import rate_update
from flight.jit import njit
from flight.layout import QUAT, TORQUE_SCALE_RP


@njit
def from_rates(ctl, p, body, rate_x, rate_y, rate_z, collective_n, max_thrust_n, dt_s):
    saturated = ctl[TORQUE_SCALE_RP] < 0.999
    tx, ty, tz = rate_update(ctl, p, body, rate_x, rate_y, rate_z, dt_s, saturated)
    return mix(ctl, p, collective_n, tx, ty, tz, max_thrust_n)


@njit
def from_attitude(ctl, p, body, q_sp, collective_n, max_thrust_n, dt_s, yaw_rate_ff, about_thrust_axis):
    q = (body[QUAT], body[QUAT + 1], body[QUAT + 2], body[QUAT + 3])
    rx, ry, rz = attitude_update(p, q, q_sp, yaw_rate_ff, about_thrust_axis)
    return from_rates(ctl, p, body, rx, ry, rz, collective_n, max_thrust_n, dt_s)
