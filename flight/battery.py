"""The one-cell battery and the power model (MODEL §4).

Open-circuit voltage over the energy fraction s: V = 3.35 + 0.55 s + 0.45 s⁸ (4.35 V full).
The loaded voltage solves V_l = V_oc − R·P/V_l for the present electrical power P and is
clamped at ≥ 3.0 V; max motor speed scales with V_l / 3.8 V. Power is the induced power of
the four discs over a 40 % efficiency, plus profile losses (1.7 W per motor at 16 400 rpm,
∝ rpm³), plus 2.5 W of electronics. Energy integrates P dt; at zero the motors disarm.
"""

from __future__ import annotations

import math

from components.flight import Battery, Rotors
from flight.vehicle import Vehicle


def open_circuit_voltage(vehicle: Vehicle, fraction: float) -> float:
    """V_oc(s) of MODEL §4, s clamped to [0, 1]."""
    a, b, c, n = vehicle.ocv_curve
    s = min(1.0, max(0.0, fraction))
    return a + b * s + c * s ** n


def loaded_voltage(vehicle: Vehicle, ocv_v: float, power_w: float) -> float:
    """Terminal voltage delivering `power_w`: V_l = (V_oc + √(V_oc² − 4RP)) / 2, ≥ the clamp."""
    r = vehicle.internal_resistance_ohm
    disc = ocv_v * ocv_v - 4.0 * r * power_w
    v = 0.5 * (ocv_v + math.sqrt(disc)) if disc > 0.0 else 0.5 * ocv_v
    return max(vehicle.min_loaded_voltage_v, v)


def electrical_power(vehicle: Vehicle, thrust_n, speed_rad_s, density_kg_m3: float) -> float:
    """Induced (ideal/efficiency) + profile (∝ ω³) + electronics, in watts."""
    induced = 0.0
    if density_kg_m3 > 0.0:
        k = 1.0 / math.sqrt(2.0 * density_kg_m3 * vehicle.disc_area_m2)
        for t in thrust_n:
            if t > 0.0:
                induced += t * math.sqrt(t) * k
        induced /= vehicle.induced_efficiency
    ref = vehicle.profile_reference_speed_rad_s
    profile = 0.0
    for w in speed_rad_s:
        r = w / ref
        profile += r * r * r
    return induced + vehicle.profile_power_w * profile + vehicle.electronics_power_w


def max_motor_speed(vehicle: Vehicle, loaded_v: float) -> float:
    """Voltage-limited motor speed, rad/s."""
    return vehicle.max_motor_speed_rad_s * loaded_v / vehicle.max_motor_speed_voltage_v


def fill(battery: Battery, vehicle: Vehicle) -> None:
    """A fresh, full pack (Restart)."""
    battery.capacity_j = vehicle.battery_energy_j
    battery.energy_j = vehicle.battery_energy_j
    battery.open_circuit_voltage_v = open_circuit_voltage(vehicle, 1.0)
    battery.voltage_v = battery.open_circuit_voltage_v
    battery.current_a = 0.0
    battery.power_w = 0.0
    battery.depleted = False


def step_battery(battery: Battery, rotors: Rotors, vehicle: Vehicle, density_kg_m3: float, dt_s: float) -> None:
    """Draw the present power for dt: energy, voltages, current, voltage-limited max ω.

    At zero energy the pack is depleted and the motors are disarmed (they spin down).
    """
    power = electrical_power(vehicle, rotors.thrust_n, rotors.speed_rad_s, density_kg_m3)
    if battery.depleted:
        power = 0.0
    fraction = battery.energy_j / battery.capacity_j if battery.capacity_j > 0 else 0.0
    ocv = open_circuit_voltage(vehicle, fraction)
    v = loaded_voltage(vehicle, ocv, power)
    battery.open_circuit_voltage_v = ocv
    battery.voltage_v = v
    battery.power_w = power
    battery.current_a = power / v
    battery.energy_j = max(0.0, battery.energy_j - power * dt_s)
    if battery.energy_j <= 0.0 and not battery.depleted:
        battery.depleted = True
    if battery.depleted:
        rotors.armed = False
        rotors.max_speed_rad_s = 0.0
    else:
        rotors.max_speed_rad_s = max_motor_speed(vehicle, v)
