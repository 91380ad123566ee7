"""The control step run every 1/240 s tick: the active law's thrusts → motor setpoints.

Each motor follows its speed setpoint with a first-order lag (35 ms up, 50 ms down), which
would delay every torque the loops ask for. The command leads it, as an ESC's lag
compensation does: the setpoint is chosen so that, with the motor's own time constant, the
wanted speed would be reached over `motor_lead_time` instead, i.e.
    setpoint = ω + (ω_wanted − ω) / (1 − exp(−lead / τ)),
limited to [0, max speed]. The motor dynamics are untouched; at saturation nothing is gained.

At MotorPower exactly 0 (the rotors' ARMED flag is off) the four commanded thrusts are
zero and nothing is computed: no law can bypass the cut. The stabilised cruise reference and
line are forgotten then, so a re-arm starts them from the present state.
"""

from __future__ import annotations

import math

from components.layout import (
    ARMED, LAW_ANGLE, LAW_STABILISED, LINE_SET, MAX_SPEED, MOTOR_LEAD_TIME, MOTOR_TIME_CONSTANT_DOWN,
    MOTOR_TIME_CONSTANT_UP, SETPOINT, SPEED, THRUST_COMMAND, VEL_REF_SET,
)
from flight.control.lab import acro_update, angle_update
from flight.control.stabilised import stabilised_update
from flight.dynamics import rotor_thrust, speed_for_thrust
from flight.jit import njit


@njit
def control_tick(law, loop_state, gains, physics, body, rotors, targets, lab, density_kg_m3, dt_s):
    """Fly one tick of `law` (LAW_STABILISED from `targets`, LAW_ANGLE / LAW_ACRO from `lab`):
    the rotors' thrust commands and motor speed setpoints. Reads the vehicle's gains and its
    physics (kT and the motor time constants here; mass, inertia, drag in the laws)."""
    if rotors[ARMED] <= 0.0:
        for i in range(4):
            rotors[SETPOINT + i] = 0.0
            rotors[THRUST_COMMAND + i] = 0.0
        loop_state[VEL_REF_SET] = 0.0
        loop_state[LINE_SET] = 0.0
        return
    max_speed = rotors[MAX_SPEED]
    max_thrust = rotor_thrust(physics, max_speed, density_kg_m3)
    if law == LAW_STABILISED:
        thrusts = stabilised_update(loop_state, gains, physics, body, targets, density_kg_m3, max_thrust, dt_s)
    elif law == LAW_ANGLE:
        thrusts = angle_update(loop_state, gains, physics, body, lab, density_kg_m3, max_thrust, dt_s)
    else:
        thrusts = acro_update(loop_state, gains, physics, body, lab, density_kg_m3, max_thrust, dt_s)
    lead = gains[MOTOR_LEAD_TIME]
    gain_up = 1.0 / (1.0 - math.exp(-lead / physics[MOTOR_TIME_CONSTANT_UP])) if lead > 0.0 else 1.0
    gain_down = 1.0 / (1.0 - math.exp(-lead / physics[MOTOR_TIME_CONSTANT_DOWN])) if lead > 0.0 else 1.0
    for i in range(4):
        rotors[THRUST_COMMAND + i] = thrusts[i]
        wanted = min(speed_for_thrust(physics, thrusts[i], density_kg_m3), max_speed)
        now = rotors[SPEED + i]
        gain = gain_up if wanted > now else gain_down
        rotors[SETPOINT + i] = min(max(now + (wanted - now) * gain, 0.0), max_speed)
