"""CONTROL stage: run the active flight controller and command the four motors.

The mode picks the controller: MANUAL STABILISED and the assists fly the stabilised
velocity/altitude controller, Angle and Acro the laboratory models. At MotorPower exactly 0
(manual and assists alike) the four commanded thrusts are zero: nothing bypasses the cut.
"""

from __future__ import annotations

import esper

from components.flight import Airframe, Battery, Controller, RigidBody, Rotors
from flight.dynamics import rotor_thrust, speed_for_thrust
from world.weather import Weather

LAB_MODES = ("angle", "acro")


class RunFlightController(esper.Processor):
    def __init__(self, weather: Weather) -> None:
        self.weather = weather

    def process(self, dt: float) -> None:
        density = self.weather.density_kg_m3
        for _, (frame, body, rotors, battery, ctrl) in esper.get_components(Airframe, RigidBody, Rotors, Battery, Controller):
            vehicle = frame.vehicle
            loops = ctrl.loops
            rotors.armed = ctrl.motor_power > 0.0 and not battery.depleted
            if not rotors.armed:
                zero = rotors.setpoint_rad_s
                zero[0] = zero[1] = zero[2] = zero[3] = 0.0
                cmd = rotors.thrust_command_n
                cmd[0] = cmd[1] = cmd[2] = cmd[3] = 0.0
                continue
            max_thrust = rotor_thrust(vehicle, rotors.max_speed_rad_s, density)
            if ctrl.mode == "angle":
                thrusts = loops.angle.update(body, ctrl.lab_stick, ctrl.lab_yaw_stick, ctrl.collective, density, max_thrust, dt)
            elif ctrl.mode == "acro":
                thrusts = loops.acro.update(body, ctrl.lab_stick, ctrl.lab_yaw_stick, ctrl.collective, density, max_thrust, dt)
            else:
                thrusts = loops.stabilised.update(body, ctrl.target_velocity, ctrl.target_altitude if ctrl.hold_altitude else None,
                                                  ctrl.target_yaw_rate, density, max_thrust, dt,
                                                  ctrl.hold_position)
            ctrl.rate_setpoint[:] = loops.cascade.rate_setpoint
            ctrl.torque_command[:] = loops.cascade.torque
            rotors.thrust_command_n[:] = thrusts
            sp = rotors.setpoint_rad_s
            for i in range(4):
                sp[i] = min(speed_for_thrust(vehicle, thrusts[i], density), rotors.max_speed_rad_s)
