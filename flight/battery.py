"""The one-cell battery and the power model (docs/model.md#battery-and-power).

Open-circuit voltage over the energy fraction s: V = 3.35 + 0.55 s + 0.45 s⁸ (4.35 V full).
The loaded voltage solves V_l = V_oc − R·P/V_l for the present electrical power P and is
clamped at ≥ 3.0 V; max motor speed scales with V_l / 3.8 V. Power is the induced power of
the four discs over a 40 % efficiency, plus profile losses (1.7 W per motor at 16 400 rpm,
∝ rpm³), plus 2.5 W of electronics. Energy integrates P dt; at zero the motors disarm.

Functions take the vehicle's `physics` array and the Battery/Rotors state arrays
(components/layout.py) and are compiled (flight/jit.py).
"""

from __future__ import annotations

import math

from components.layout import (
    ARMED, BATTERY_ENERGY, CAPACITY, CURRENT, DEPLETED, DISC_AREA, ELECTRONICS_POWER, ENERGY, INDUCED_EFFICIENCY,
    INTERNAL_RESISTANCE, MAX_MOTOR_SPEED, MAX_MOTOR_SPEED_VOLTAGE, MAX_SPEED, MIN_LOADED_VOLTAGE, OCV_CURVE,
    OPEN_CIRCUIT_VOLTAGE, POWER, PROFILE_POWER, PROFILE_REFERENCE_SPEED, SPEED, THRUST, VOLTAGE,
)
from flight.jit import njit


@njit
def open_circuit_voltage(physics, fraction: float) -> float:
    """V_oc(s) of docs/model.md#battery-and-power, s clamped to [0, 1]."""
    s = min(1.0, max(0.0, fraction))
    a, b, c, n = physics[OCV_CURVE], physics[OCV_CURVE + 1], physics[OCV_CURVE + 2], physics[OCV_CURVE + 3]
    return a + b * s + c * s ** n


@njit
def loaded_voltage(physics, ocv_v: float, power_w: float) -> float:
    """Terminal voltage delivering `power_w`: V_l = (V_oc + √(V_oc² − 4RP)) / 2, ≥ the clamp."""
    disc = ocv_v * ocv_v - 4.0 * physics[INTERNAL_RESISTANCE] * power_w
    v = 0.5 * (ocv_v + math.sqrt(disc)) if disc > 0.0 else 0.5 * ocv_v
    return max(physics[MIN_LOADED_VOLTAGE], v)


@njit
def electrical_power(physics, thrust_n, speed_rad_s, density_kg_m3: float) -> float:
    """Induced (ideal/efficiency) + profile (∝ ω³) + electronics, in watts.

    `thrust_n` and `speed_rad_s` are the four rotors' values (any indexable of 4).
    """
    induced = 0.0
    if density_kg_m3 > 0.0:
        k = 1.0 / math.sqrt(2.0 * density_kg_m3 * physics[DISC_AREA])
        for i in range(4):
            t = thrust_n[i]
            if t > 0.0:
                induced += t * math.sqrt(t) * k
        induced /= physics[INDUCED_EFFICIENCY]
    profile = 0.0
    for i in range(4):
        r = speed_rad_s[i] / physics[PROFILE_REFERENCE_SPEED]
        profile += r * r * r
    return induced + physics[PROFILE_POWER] * profile + physics[ELECTRONICS_POWER]


@njit
def max_motor_speed(physics, loaded_v: float) -> float:
    """Voltage-limited motor speed, rad/s."""
    return physics[MAX_MOTOR_SPEED] * loaded_v / physics[MAX_MOTOR_SPEED_VOLTAGE]


@njit
def fill(battery, rotors, physics) -> None:
    """A fresh, full pack (Restart)."""
    battery[CAPACITY] = physics[BATTERY_ENERGY]
    battery[ENERGY] = battery[CAPACITY]
    battery[OPEN_CIRCUIT_VOLTAGE] = open_circuit_voltage(physics, 1.0)
    battery[VOLTAGE] = battery[OPEN_CIRCUIT_VOLTAGE]
    battery[CURRENT] = 0.0
    battery[POWER] = 0.0
    battery[DEPLETED] = 0.0
    rotors[MAX_SPEED] = max_motor_speed(physics, battery[VOLTAGE])


@njit
def step_battery(battery, rotors, physics, density_kg_m3: float, dt_s: float) -> None:
    """Draw the present power for dt: energy, voltages, current, voltage-limited max ω.

    At zero energy the pack is depleted and the motors are disarmed (they spin down).
    """
    depleted = battery[DEPLETED] > 0.0
    power = 0.0 if depleted else electrical_power(physics, rotors[THRUST:THRUST + 4], rotors[SPEED:SPEED + 4],
                                                  density_kg_m3)
    capacity = battery[CAPACITY]
    ocv = open_circuit_voltage(physics, battery[ENERGY] / capacity if capacity > 0.0 else 0.0)
    v = loaded_voltage(physics, ocv, power)
    battery[OPEN_CIRCUIT_VOLTAGE] = ocv
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
        rotors[MAX_SPEED] = max_motor_speed(physics, v)
