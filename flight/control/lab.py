"""Laboratory models Angle and Acro: direct collective, not MANUAL STABILISED
(docs/model.md#laboratory-models-angle-and-acro).

Angle: the left stick sets roll (x) and pitch (y) angles up to `angle_max_tilt`; the right
stick's x turns the heading at up to `max_yaw_rate` (stick right → clockwise).
Acro: the left stick sets roll and pitch body rates and the right stick's x the yaw rate,
up to `max_rate`. In both the collective thrust is direct: `collective` ∈ [0, 1] of the
four rotors' thrust at max_motor_speed (22 000 rpm at 3.8 V).
"""

from __future__ import annotations

from flight import quat
from flight.control.cascade import from_attitude, from_rates
from flight.control.stabilised import wrap_angle
from flight.jit import njit
from flight.layout import (
    ANGLE_MAX_TILT, HEADING, KT, LAB_COLLECTIVE, LAB_PITCH, LAB_ROLL, LAB_YAW, MAX_RATE,
    MAX_SPEED_REF, MAX_YAW_RATE, RHO0,
)

_from_euler = njit(quat.from_euler)


@njit
def full_collective_n(p, density_kg_m3):
    """Four rotors at the reference max speed: the collective's full scale, N."""
    return 4.0 * p[KT] * p[MAX_SPEED_REF] ** 2 * density_kg_m3 / p[RHO0]


@njit
def angle_update(ctl, p, body, lab, density_kg_m3, max_thrust_n, dt_s):
    yaw_rate = -lab[LAB_YAW] * p[MAX_YAW_RATE]
    ctl[HEADING] = wrap_angle(ctl[HEADING] + yaw_rate * dt_s)
    tilt = p[ANGLE_MAX_TILT]
    q_sp = _from_euler(lab[LAB_ROLL] * tilt, lab[LAB_PITCH] * tilt, ctl[HEADING])
    collective = lab[LAB_COLLECTIVE] * full_collective_n(p, density_kg_m3)
    return from_attitude(ctl, p, body, q_sp, collective, max_thrust_n, dt_s, yaw_rate, False)


@njit
def acro_update(ctl, p, body, lab, density_kg_m3, max_thrust_n, dt_s):
    collective = lab[LAB_COLLECTIVE] * full_collective_n(p, density_kg_m3)
    return from_rates(ctl, p, body, lab[LAB_ROLL] * p[MAX_RATE], lab[LAB_PITCH] * p[MAX_RATE + 1],
                      -lab[LAB_YAW] * p[MAX_RATE + 2], collective, max_thrust_n, dt_s)
