"""CONTROL stage: run the active control law and command the four motors.

The mode picks the law: MANUAL STABILISED and the assists fly the stabilised
velocity/altitude controller, Angle and Acro the laboratory models. The motors are armed
only while MotorPower > 0 and the pack is not empty: at exactly 0 the four commanded thrusts
are zero (manual and assists alike), nothing bypasses the cut.
"""

from __future__ import annotations

import esper

from components.flight import Airframe, Battery, Controller, RigidBody, Rotors
from flight import layout as L
from flight.control.tick import control_tick
from world.weather import Weather

LAWS = {"angle": L.LAW_ANGLE, "acro": L.LAW_ACRO}  # every other mode flies the stabilised law


def law_of(mode: str) -> int:
    return LAWS.get(mode, L.LAW_STABILISED)


class RunFlightController(esper.Processor):
    def __init__(self, weather: Weather) -> None:
        self.weather = weather

    def process(self, dt: float) -> None:
        density = self.weather.density_kg_m3
        for _, (frame, body, rotors, battery, ctrl) in esper.get_components(Airframe, RigidBody, Rotors, Battery, Controller):
            r = rotors.state
            r[L.ARMED] = 1.0 if ctrl.motor_power > 0.0 and battery.state[L.DEPLETED] == 0.0 else 0.0
            loops = ctrl.loops
            law = law_of(ctrl.mode)
            if law == L.LAW_STABILISED:
                t = loops.targets
                tv = ctrl.target_velocity
                t[L.T_VEL], t[L.T_VEL + 1], t[L.T_VEL + 2] = tv[0], tv[1], tv[2]
                t[L.T_ALT] = ctrl.target_altitude
                t[L.T_HOLD_ALT] = 1.0 if ctrl.hold_altitude else 0.0
                t[L.T_YAW_RATE] = ctrl.target_yaw_rate
                hold = ctrl.hold_position
                if hold is None:
                    t[L.T_HOLD_POS] = 0.0
                else:
                    t[L.T_HOLD_POS], t[L.T_POS], t[L.T_POS + 1] = 1.0, hold[0], hold[1]
                # a manual cruise keeps to the line it was given; assists steer on their own
                t[L.T_HOLD_LINE] = 1.0 if ctrl.mode == "manual" else 0.0
            else:
                lab = loops.lab
                lab[L.LAB_ROLL], lab[L.LAB_PITCH] = ctrl.lab_stick
                lab[L.LAB_YAW] = ctrl.lab_yaw_stick
                lab[L.LAB_COLLECTIVE] = ctrl.collective
            control_tick(law, loops.state, frame.vehicle.packed, body.state, r, loops.targets, loops.lab, density, dt)
