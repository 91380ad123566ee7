"""The one-cell battery and the power model (docs/model.md#battery-and-power).

Open-circuit voltage over the energy fraction s: V = 3.35 + 0.55 s + 0.45 s⁸ (4.35 V full).
The loaded voltage solves V_l = V_oc − R·P/V_l for the present electrical power P and is
clamped at ≥ 3.0 V; max motor speed scales with V_l / 3.8 V. Power is the induced power of
the four discs over a 40 % efficiency, plus profile losses (1.7 W per motor at 16 400 rpm,
∝ rpm³), plus 2.5 W of electronics. Energy integrates P dt; at zero the motors disarm.

Functions take the vehicle's packed parameters `p` and the Battery/Rotors state arrays
(flight/layout.py) and are compiled (flight/jit.py).
"""

from __future__ import annotations

import math

from flight.jit import njit
from flight.layout import (
    ARMED, BATTERY_J, CAPACITY, CURRENT, DEPLETED, DISC_AREA, ELECTRONICS_W, ENERGY, ETA_INDUCED, MAX_SPEED,
    MAX_SPEED_REF, OCV, OCV_A, OCV_B, OCV_C, OCV_N, POWER, PROFILE_SPEED, PROFILE_W, R_INTERNAL,
    SPEED, THRUST, V_MIN, V_REF, VOLTAGE,
)


@njit
def open_circuit_voltage(p, fraction: float) -> float:
    """V_oc(s) of docs/model.md#battery-and-power, s clamped to [0, 1]."""
    s = min(1.0, max(0.0, fraction))
    return p[OCV_A] + p[OCV_B] * s + p[OCV_C] * s ** p[OCV_N]


@njit
def loaded_voltage(p, ocv_v: float, power_w: float) -> float:
    """Terminal voltage delivering `power_w`: V_l = (V_oc + √(V_oc² − 4RP)) / 2, ≥ the clamp."""
    disc = ocv_v * ocv_v - 4.0 * p[R_INTERNAL] * power_w
    v = 0.5 * (ocv_v + math.sqrt(disc)) if disc > 0.0 else 0.5 * ocv_v
    return max(p[V_MIN], v)


@njit
def electrical_power(p, thrust_n, speed_rad_s, density_kg_m3: float) -> float:
    """Induced (ideal/efficiency) + profile (∝ ω³) + electronics, in watts.

    `thrust_n` and `speed_rad_s` are the four rotors' values (any indexable of 4).
    """
    induced = 0.0
    if density_kg_m3 > 0.0:
        k = 1.0 / math.sqrt(2.0 * density_kg_m3 * p[DISC_AREA])
        for i in range(4):
            t = thrust_n[i]
            if t > 0.0:
                induced += t * math.sqrt(t) * k
        induced /= p[ETA_INDUCED]
    profile = 0.0
    for i in range(4):
        r = speed_rad_s[i] / p[PROFILE_SPEED]
        profile += r * r * r
    return induced + p[PROFILE_W] * profile + p[ELECTRONICS_W]


@njit
def max_motor_speed(p, loaded_v: float) -> float:
    """Voltage-limited motor speed, rad/s."""
    return p[MAX_SPEED_REF] * loaded_v / p[V_REF]


@njit
def fill(battery, rotors, p) -> None:
    """A fresh, full pack (Restart)."""
    battery[CAPACITY] = p[BATTERY_J]
    battery[ENERGY] = battery[CAPACITY]
    battery[OCV] = open_circuit_voltage(p, 1.0)
    battery[VOLTAGE] = battery[OCV]
    battery[CURRENT] = 0.0
    battery[POWER] = 0.0
    battery[DEPLETED] = 0.0
    rotors[MAX_SPEED] = max_motor_speed(p, battery[VOLTAGE])


@njit
def step_battery(battery, rotors, p, density_kg_m3: float, dt_s: float) -> None:
    """Draw the present power for dt: energy, voltages, current, voltage-limited max ω.

    At zero energy the pack is depleted and the motors are disarmed (they spin down).
    """
    depleted = battery[DEPLETED] > 0.0
    power = 0.0 if depleted else electrical_power(p, rotors[THRUST:THRUST + 4], rotors[SPEED:SPEED + 4], density_kg_m3)
    capacity = battery[CAPACITY]
    ocv = open_circuit_voltage(p, battery[ENERGY] / capacity if capacity > 0.0 else 0.0)
    v = loaded_voltage(p, ocv, power)
    battery[OCV] = ocv
    battery[VOLTAGE] = v
    battery[POWER] = power
    battery[CURRENT] = power / v
    battery[ENERGY] = max(0.0, battery[ENERGY] - power * dt_s)
    if battery[ENERGY] <= 0.0:
        battery[DEPLETED] = 1.0
        depleted = True
    if depleted:
        rotors[ARMED] = 0.0
        rotors[MAX_SPEED] = 0.0
    else:
        rotors[MAX_SPEED] = max_motor_speed(p, v)
