"""Crashes end a flight; lighter impacts damage the rotors (docs/model.md#crashes-and-damage).

Two thin systems around the pure rule in `flight/damage.py`:

- `EndCrashedFlights` (a handler of `Impact`, which the contacts emit in the tick of the
  impact): the impact's added damage (what `ResolveContacts` wrote into the `Collider`) comes
  off the health of the rotor nearest to it; an impact faster than the vehicle's
  `crash_impact_speed`, or damage reaching 1, ends the flight — `Collider.crashed`, the motors
  stopped (MotorPower 0, disarmed), any assist dropped, `Crashed` emitted.
- `KeepCrashedMotorsOff` (ASSIST, after the pilot's setpoints and the assists, so before the
  frame's ticks): a crashed drone's motors stay off whatever the pilot asks (RT, take-off, a
  laboratory collective): no re-arm until Restart, which clears the crash and repairs the
  rotors (`systems.scene.place_at_spawn`).

Nothing here runs per tick: the crash rule costs only on impacts.
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
from systems.assists import ASSIST_MODES, AssistState, RunAssists
from systems.manual import ApplyManualSetpoints
from systems.scene import Player


def _stop(app: App, entity: int, ctrl: Controller, rotors: Rotors) -> None:
    """Motors off now: MotorPower 0, no collective, disarmed, no assist flying."""
    ctrl.motor_power = 0.0
    ctrl.collective = 0.0
    rotors.armed = False
    rotors.setpoint_rad_s[:] = 0.0
    if ctrl.mode in ASSIST_MODES:
        old, ctrl.mode = ctrl.mode, Mode.MANUAL
        assists = esper.try_component(entity, AssistState)
        if assists is not None:
            assists.clear()
        app.emit(events.ModeChanged(old, Mode.MANUAL, entity))


class EndCrashedFlights:
    """On each impact (a long-lived handler of `Impact`, emitted by the contacts in the tick the
    impact happens): its added damage off the nearest rotor's health; the crash rule."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.crashed: set[int] = set()  # the entities crashed since the last Restart

    def on_reset(self, event: events.Reset) -> None:
        # Restart repairs (systems.scene.place_at_spawn clears Collider.crashed)
        self.crashed.discard(self.app.resource(Player).entity if event.entity is None else event.entity)

    def on_removed(self, event: events.DroneRemoved) -> None:
        self.crashed.discard(event.entity)

    def on_impact(self, event: events.Impact) -> None:
        app = self.app
        entity = app.resource(Player).entity if event.entity is None else event.entity
        frame, body, rotors, ctrl, col = (esper.component_for_entity(entity, kind)
                                          for kind in (Airframe, RigidBody, Rotors, Controller, Collider))
        if col.crashed:
            return
        vehicle = frame.vehicle
        if col.impact_damage > 0.0:
            shares = impact_shares(event.normal, body.quaternion.tolist(), vehicle.rotor_x_m, vehicle.rotor_y_m)
            rotors.health[:] = damaged_health(rotors.health, shares, col.impact_damage)
        reason = crash_reason(event.speed_m_s, col.damage, vehicle.crash_impact_speed_m_s)
        if reason:
            col.crashed = True
            self.crashed.add(entity)
            _stop(app, entity, ctrl, rotors)
            app.emit(events.Crashed(reason, event.speed_m_s, col.damage, entity))


class KeepCrashedMotorsOff(esper.Processor):
    """Once a frame, after the pilot's setpoints and the assists and before this frame's ticks:
    a crashed drone's motors stay off whatever was asked (RT, take-off, a collective)."""

    def __init__(self, app: App, crashed: set[int]) -> None:
        self.app = app
        self.crashed = crashed  # EndCrashedFlights' set: empty, nothing to hold off (most frames)

    def process(self, dt: float) -> None:
        if not self.crashed:
            return
        for entity in sorted(self.crashed):
            rotors, ctrl = esper.component_for_entity(entity, Rotors), esper.component_for_entity(entity, Controller)
            if ctrl.motor_power > 0.0 or ctrl.collective > 0.0 or ctrl.mode in ASSIST_MODES:
                _stop(self.app, entity, ctrl, rotors)


class CrashPlugin:
    """Crashes that end the flight until Restart, and damaged rotors. Nothing runs per tick:
    the rule runs on impacts, the motors are held off once a frame."""

    name = "crash"

    def build(self, app: App) -> None:
        self.rule = EndCrashedFlights(app)
        app.on(events.Impact, self.rule.on_impact)
        app.on(events.Reset, self.rule.on_reset)
        app.on(events.DroneRemoved, self.rule.on_removed)
        app.add_system(KeepCrashedMotorsOff(app, self.rule.crashed), Stage.ASSIST, after=(ApplyManualSetpoints, RunAssists))
