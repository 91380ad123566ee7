"""ASSIST stage: turn the pilot's command into setpoints in the pilot's own modes.

MANUAL STABILISED goes through `flight.control.manual.ManualFlight`; the laboratory modes
map the left stick to roll/pitch, the right stick's x to yaw, and MotorPower to the direct
collective. Every other mode (an assist, a mod's) writes its own setpoints. Runs first in
the stage; the assists run after it.
"""

from __future__ import annotations

import esper

from components.flight import Controller, RigidBody
from components.modes import Mode
from components.pilot import PilotCommand
from engine.app import App
from engine.stages import Stage


class ApplyManualSetpoints(esper.Processor):
    def __init__(self, command: PilotCommand) -> None:
        self.command = command

    def process(self, dt: float) -> None:
        cmd = self.command
        for _, (ctrl, body) in esper.get_components(Controller, RigidBody):
            if ctrl.mode == Mode.MANUAL:
                ctrl.loops.manual.update(ctrl, body, cmd, dt)
            elif ctrl.mode in (Mode.ANGLE, Mode.ACRO):
                rate = ctrl.loops.manual.vehicle.control["motor_power_rate"]
                ctrl.motor_power = min(1.0, max(0.0, ctrl.motor_power + rate * (cmd.rt - cmd.lt) * dt))
                ctrl.collective = ctrl.motor_power
                ctrl.lab_stick = cmd.left
                ctrl.lab_yaw_stick = cmd.right[0]


class ManualFlightPlugin:
    """The pilot's command turned into setpoints in Manual, Angle and Acro."""

    name = "manual-flight"

    def build(self, app: App) -> None:
        app.add_system(ApplyManualSetpoints(app.resource(PilotCommand)), Stage.ASSIST)
