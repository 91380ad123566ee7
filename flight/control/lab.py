"""Laboratory models Angle and Acro: direct collective, not MANUAL STABILISED
(docs/model.md#laboratory-models-angle-and-acro).

Angle: the left stick sets roll (x) and pitch (y) angles up to `angle_max_tilt`; the right
stick's x turns the heading at up to `max_yaw_rate` (stick right → clockwise).
Acro: the left stick sets roll and pitch body rates and the right stick's x the yaw rate,
up to `max_rate`. In both the collective thrust is direct: `collective` ∈ [0, 1] of the
four rotors' thrust at max_motor_speed (22 000 rpm at 3.8 V). The sticks and the collective
are the Controller's `lab` array (components/layout.py LAB).
"""

from __future__ import annotations

import math

from components.layout import (
    ANGLE_MAX_TILT, COLLECTIVE, GRAVITY, HEADING, LAB_STICK, LAB_YAW_STICK, MASS, MAX_MOTOR_SPEED, MAX_RATE,
    MAX_YAW_RATE, REFERENCE_AIR_DENSITY, THRUST_COEFFICIENT,
)
from flight import quat
from flight.control.cascade import from_attitude, from_rates
from flight.control.stabilised import wrap_angle
from flight.jit import njit

_from_euler = njit(quat.from_euler)


@njit
def full_collective_n(physics, density_kg_m3):
    """Four rotors at the reference max speed: the collective's full scale, N."""
    kt, rho0 = physics[THRUST_COEFFICIENT], physics[REFERENCE_AIR_DENSITY]
    return 4.0 * kt * physics[MAX_MOTOR_SPEED] ** 2 * density_kg_m3 / rho0


@njit
def angle_update(loop_state, gains, physics, body, lab, density_kg_m3, max_thrust_n, dt_s):
    """Rotor thrusts (N, a 4-tuple): the sticks set tilt and heading rate, the collective is direct."""
    yaw_rate = -lab[LAB_YAW_STICK] * gains[MAX_YAW_RATE]
    loop_state[HEADING] = wrap_angle(loop_state[HEADING] + yaw_rate * dt_s)
    tilt = gains[ANGLE_MAX_TILT]
    q_sp = _from_euler(lab[LAB_STICK] * tilt, lab[LAB_STICK + 1] * tilt, loop_state[HEADING])
    collective = lab[COLLECTIVE] * full_collective_n(physics, density_kg_m3)
    return from_attitude(loop_state, gains, physics, body, q_sp, collective, max_thrust_n, dt_s, yaw_rate, False)


@njit
def acro_update(loop_state, gains, physics, body, lab, density_kg_m3, max_thrust_n, dt_s):
    """Rotor thrusts (N, a 4-tuple): the sticks set body rates, the collective is direct."""
    collective = lab[COLLECTIVE] * full_collective_n(physics, density_kg_m3)
    return from_rates(loop_state, gains, physics, body, lab[LAB_STICK] * gains[MAX_RATE],
                      lab[LAB_STICK + 1] * gains[MAX_RATE + 1], -lab[LAB_YAW_STICK] * gains[MAX_RATE + 2],
                      collective, max_thrust_n, dt_s)


def hover_collective(physics, density_kg_m3: float, health=(1.0, 1.0, 1.0, 1.0)) -> float:
    """The collective that hovers: m g over the full scale, four rotors at max_motor_speed,
    kT ω_max² ρ/ρ₀ each (times each rotor's health: a damaged rotor gives less). About 0.56
    for the Tello at ρ₀. Infinite in vacuum (nothing hovers). Plain Python, for the HUD."""
    per_rotor = physics[THRUST_COEFFICIENT] * physics[MAX_MOTOR_SPEED] ** 2 * density_kg_m3 / physics[REFERENCE_AIR_DENSITY]
    full = per_rotor * sum(float(h) for h in health)
    return math.inf if full <= 0.0 else physics[MASS] * physics[GRAVITY] / full
