"""CONTROL stage: run the active control law and command the four motors.

The mode picks the law: MANUAL STABILISED and the assists fly the stabilised
velocity/altitude controller, Angle and Acro the laboratory models, a mod's mode the law it
was registered with (systems/modes.py `FlightModes`). The laws read the
Controller's setpoint arrays directly (`ctrl.targets`, `ctrl.lab`: what the pilot's systems
and the assists wrote, no copy). The motors are armed only while MotorPower > 0 and the pack
is not empty: at exactly 0 the four commanded thrusts are zero (manual and assists alike),
nothing bypasses the cut.
"""

from __future__ import annotations

import esper

from components.flight import Airframe, Battery, Controller, RigidBody, Rotors
from components.layout import ARMED, DEPLETED, HOLD_LINE, LAW_STABILISED, MOTOR_POWER
from components.modes import Mode
from engine.app import App
from engine.stages import Stage
from flight.control.tick import control_tick
from systems.modes import FlightModes
from world.weather import Weather

_MANUAL = Mode.MANUAL  # a module global: Python 3.11 takes ~0.1 µs to look an enum member up on its class


class RunFlightController(esper.Processor):
    def __init__(self, weather: Weather, modes: FlightModes) -> None:
        self.weather = weather
        self.specs = modes.specs  # mode → ModeSpec (its law), live

    def process(self, dt: float) -> None:
        density = self.weather.density_kg_m3
        for _, (frame, body, rotors, battery, ctrl) in esper.get_components(Airframe, RigidBody, Rotors, Battery, Controller):
            r = rotors.state
            targets = ctrl.targets
            r[ARMED] = 1.0 if targets[MOTOR_POWER] > 0.0 and battery.state[DEPLETED] == 0.0 else 0.0
            mode = ctrl.mode
            # a manual cruise keeps to the line it was given; assists steer on their own
            targets[HOLD_LINE] = 1.0 if mode == _MANUAL else 0.0
            spec = self.specs.get(mode)
            law = LAW_STABILISED if spec is None else spec.law
            vehicle = frame.vehicle
            control_tick(law, ctrl.loops.state, vehicle.gains, vehicle.physics, body.state, r, targets,
                         ctrl.lab, density, dt)


class ControlPlugin:
    """The control laws, every fixed tick."""

    name = "control"

    def build(self, app: App) -> None:
        weather = app.try_resource(Weather) or app.insert_resource(Weather())
        app.add_system(RunFlightController(weather, app.resource(FlightModes)), Stage.CONTROL)
