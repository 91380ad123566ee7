"""The control step run every 1/240 s tick: the active law's thrusts → motor setpoints.

At MotorPower exactly 0 (the rotors' ARMED flag is off) the four commanded thrusts are
zero and nothing is computed: no law can bypass the cut.
"""

from __future__ import annotations

from flight.control.lab import acro_update, angle_update
from flight.control.stabilised import stabilised_update
from flight.dynamics import rotor_thrust, speed_for_thrust
from flight.jit import njit
from flight.layout import ARMED, LAW_ANGLE, LAW_STABILISED, MAX_SPEED, SETPOINT, THRUST_CMD


@njit
def control_tick(law, ctl, p, body, rotors, targets, lab, density_kg_m3, dt_s):
    if rotors[ARMED] <= 0.0:
        for i in range(4):
            rotors[SETPOINT + i] = 0.0
            rotors[THRUST_CMD + i] = 0.0
        return
    max_speed = rotors[MAX_SPEED]
    max_thrust = rotor_thrust(p, max_speed, density_kg_m3)
    if law == LAW_STABILISED:
        thrusts = stabilised_update(ctl, p, body, targets, density_kg_m3, max_thrust, dt_s)
    elif law == LAW_ANGLE:
        thrusts = angle_update(ctl, p, body, lab, density_kg_m3, max_thrust, dt_s)
    else:
        thrusts = acro_update(ctl, p, body, lab, density_kg_m3, max_thrust, dt_s)
    for i in range(4):
        rotors[THRUST_CMD + i] = thrusts[i]
        rotors[SETPOINT + i] = min(speed_for_thrust(p, thrusts[i], density_kg_m3), max_speed)
