"""ASSIST stage (last): turn the pilot's command into setpoints when no assist flies.

MANUAL STABILISED goes through `flight.control.manual.ManualFlight`; the laboratory modes
map the left stick to roll/pitch, the right stick's x to yaw, and MotorPower to the direct
collective.
"""

from __future__ import annotations

import esper

from components.flight import Controller, RigidBody
from components.pilot import PilotCommand


class ApplyManualSetpoints(esper.Processor):
    def __init__(self, command: PilotCommand) -> None:
        self.command = command

    def process(self, dt: float) -> None:
        cmd = self.command
        for _, (ctrl, body) in esper.get_components(Controller, RigidBody):
            if ctrl.mode == "manual":
                ctrl.loops.manual.update(ctrl, body, cmd, dt)
            elif ctrl.mode in ("angle", "acro"):
                rate = ctrl.loops.manual.vehicle.control["motor_power_rate"]
                ctrl.motor_power = min(1.0, max(0.0, ctrl.motor_power + rate * (cmd.rt - cmd.lt) * dt))
                ctrl.collective = ctrl.motor_power
                ctrl.lab_stick = cmd.left
                ctrl.lab_yaw_stick = cmd.right[0]
