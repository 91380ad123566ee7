"""ASSIST stage: turn the pilot's command into setpoints in the pilot's own modes.

MANUAL STABILISED goes through `flight.control.manual.ManualFlight`; the laboratory modes
map the left stick to roll/pitch, the right stick's x to yaw, and MotorPower to the direct
collective. Every other mode (an assist, a mod's) writes its own setpoints. Runs first in
the stage; the assists run after it.
"""

from __future__ import annotations

import esper

from components.flight import Controller, RigidBody
from components.layout import COLLECTIVE, LAB_STICK, LAB_YAW_STICK
from components.modes import Mode
from components.pilot import PilotCommand
from engine.app import App
from engine.stages import Stage


_MANUAL = Mode.MANUAL  # module globals: looking an enum member up on its class costs ~0.1 µs a time
_LAB_MODES = (Mode.ANGLE, Mode.ACRO)


class ApplyManualSetpoints(esper.Processor):
    """Each drone flown by its own command (`PilotCommand`, read from its pad)."""

    def process(self, dt: float) -> None:
        for _, (ctrl, body, cmd) in esper.get_components(Controller, RigidBody, PilotCommand):
            mode = ctrl.mode
            if mode == _MANUAL:
                ctrl.loops.manual.update(ctrl, body, cmd, dt)
            elif mode in _LAB_MODES:
                rate = ctrl.loops.manual.vehicle.control["motor_power_rate"]
                power = min(1.0, max(0.0, ctrl.motor_power + rate * (cmd.rt - cmd.lt) * dt))
                ctrl.motor_power = power
                lab = ctrl.lab  # the laboratory inputs, written in place (components/layout.py LAB)
                lab[COLLECTIVE] = power
                lab[LAB_STICK], lab[LAB_STICK + 1] = cmd.left
                lab[LAB_YAW_STICK] = cmd.right[0]


class ManualFlightPlugin:
    """The pilot's command turned into setpoints in Manual, Angle and Acro."""

    name = "manual-flight"

    def build(self, app: App) -> None:
        app.add_system(ApplyManualSetpoints(), Stage.ASSIST)
