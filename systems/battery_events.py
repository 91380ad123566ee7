"""GAMEPLAY stage: tell the rest of the game about the battery (low, depleted) and arming."""

from __future__ import annotations

import esper

from components.flight import Battery, Controller, Rotors
from engine.app import App
from engine.stages import Stage
from components import events

LOW_FRACTION = 0.2


class AnnounceBattery(esper.Processor):
    def __init__(self, app: App) -> None:
        self.app = app
        self.warned_low = False
        self.was_depleted = False
        self.was_armed = False

    def on_reset(self, event: events.Reset) -> None:
        self.warned_low = self.was_depleted = self.was_armed = False

    def process(self, dt: float) -> None:
        for _, (battery, rotors, ctrl) in esper.get_components(Battery, Rotors, Controller):
            fraction = battery.energy_j / battery.capacity_j if battery.capacity_j else 0.0
            if fraction < LOW_FRACTION and not self.warned_low:
                self.warned_low = True
                self.app.emit(events.BatteryLow(fraction))
            if battery.depleted and not self.was_depleted:
                self.was_depleted = True
                self.app.emit(events.BatteryDepleted())
                self.app.emit(events.Disarmed("battery_depleted"))
            armed = ctrl.motor_power > 0.0 and not battery.depleted
            if armed and not self.was_armed:
                self.app.emit(events.Armed())
            elif self.was_armed and not armed and not battery.depleted:
                self.app.emit(events.Disarmed("motor_power_zero"))
            self.was_armed = armed


class BatteryEventsPlugin:
    name = "battery-events"

    def build(self, app: App) -> None:
        self.announce = AnnounceBattery(app)
        app.add_system(self.announce, Stage.GAMEPLAY)
        app.on(events.Reset, self.announce.on_reset)
