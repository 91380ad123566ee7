"""Crashes end a flight; lighter impacts damage the rotors (docs/model.md#crashes-and-damage).

Two thin systems around the pure rule in `flight/damage.py`:

- `EndCrashedFlights` (COLLISION, after the contacts): this tick's impact (what
  `ResolveContacts` wrote into the `Collider`) takes its added damage off the health of the
  rotor nearest to it; an impact faster than the vehicle's `crash_impact_speed`, or damage
  reaching 1, ends the flight — `Collider.crashed`, the motors stopped (MotorPower 0,
  disarmed), any assist dropped, `Crashed` emitted.
- `KeepCrashedMotorsOff` (CONTROL, before the controller): a crashed drone's motors stay off
  whatever the pilot asks (RT, take-off, a laboratory collective): no re-arm until Restart,
  which clears the crash and repairs the rotors (`systems.scene.place_at_spawn`).
"""

from __future__ import annotations

import esper

from components import events
from components.flight import Airframe, Controller, RigidBody, Rotors
from components.modes import Mode
from components.world import Collider
from engine.app import App
from engine.stages import Stage
from flight.damage import crash_reason, damaged_health, impact_shares
from systems.assists import ASSIST_MODES, AssistState
from systems.collision import ResolveContacts
from systems.control import RunFlightController


def _stop(app: App, ctrl: Controller, rotors: Rotors) -> None:
    """Motors off now: MotorPower 0, no collective, disarmed, no assist flying."""
    ctrl.motor_power = 0.0
    ctrl.collective = 0.0
    rotors.armed = False
    rotors.setpoint_rad_s[:] = 0.0
    if ctrl.mode in ASSIST_MODES:
        old, ctrl.mode = ctrl.mode, Mode.MANUAL
        assists = app.try_resource(AssistState)
        if assists is not None:
            assists.clear()
        app.emit(events.ModeChanged(old, Mode.MANUAL))


class EndCrashedFlights(esper.Processor):
    def __init__(self, app: App) -> None:
        self.app = app

    def process(self, dt: float) -> None:
        for _, (frame, body, rotors, ctrl, col) in esper.get_components(Airframe, RigidBody, Rotors, Controller,
                                                                        Collider):
            speed = col.impact_speed_m_s
            if speed <= 0.0 or col.crashed:
                continue
            vehicle = frame.vehicle
            if col.impact_damage > 0.0:
                shares = impact_shares(col.contact_normal, body.quaternion.tolist(), vehicle.rotor_x_m,
                                       vehicle.rotor_y_m)
                rotors.health[:] = damaged_health(rotors.health, shares, col.impact_damage)
            reason = crash_reason(speed, col.damage, vehicle.crash_impact_speed_m_s)
            if reason:
                col.crashed = True
                _stop(self.app, ctrl, rotors)
                self.app.emit(events.Crashed(reason, speed, col.damage))


class KeepCrashedMotorsOff(esper.Processor):
    def __init__(self, app: App) -> None:
        self.app = app

    def process(self, dt: float) -> None:
        for _, (rotors, ctrl, col) in esper.get_components(Rotors, Controller, Collider):
            if col.crashed and (ctrl.motor_power > 0.0 or ctrl.collective > 0.0 or ctrl.mode in ASSIST_MODES):
                _stop(self.app, ctrl, rotors)


class CrashPlugin:
    """Crashes that end the flight until Restart, and damaged rotors."""

    name = "crash"

    def build(self, app: App) -> None:
        app.add_system(EndCrashedFlights(app), Stage.COLLISION, after=ResolveContacts)
        app.add_system(KeepCrashedMotorsOff(app), Stage.CONTROL, before=RunFlightController)
