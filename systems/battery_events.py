"""GAMEPLAY stage: tell the rest of the game about the battery (low, depleted) and arming."""

from __future__ import annotations

import esper

from components.flight import Battery, Controller
from components.layout import CAPACITY, DEPLETED, ENERGY, MOTOR_POWER
from engine.app import App
from engine.stages import Stage
from components import events
from systems.scene import Player

LOW_FRACTION = 0.2


class AnnounceBattery(esper.Processor):
    """Per drone: the battery low (once), depleted (once), and arming edges."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._seen: dict[int, list[bool]] = {}  # per drone: warned low, was depleted, was armed

    def on_reset(self, event: events.Reset) -> None:
        self._seen.pop(self.app.resource(Player).entity if event.entity is None else event.entity, None)

    def on_removed(self, event: events.DroneRemoved) -> None:
        self._seen.pop(event.entity, None)  # drones come and go: a long session keeps only the living

    def process(self, dt: float) -> None:
        seen = self._seen
        emit = self.app.emit
        for entity, (battery, ctrl) in esper.get_components(Battery, Controller):
            flags = seen.get(entity)
            if flags is None:
                flags = seen[entity] = [False, False, False]
            state = battery.state  # read as Python floats: a numpy scalar costs several times more
            depleted = state.item(DEPLETED) != 0.0
            armed = ctrl.targets.item(MOTOR_POWER) > 0.0 and not depleted
            capacity = state.item(CAPACITY)
            fraction = state.item(ENERGY) / capacity if capacity else 0.0
            if fraction < LOW_FRACTION and not flags[0]:
                flags[0] = True
                emit(events.BatteryLow(fraction, entity))
            if depleted and not flags[1]:
                flags[1] = True
                emit(events.BatteryDepleted(entity))
                emit(events.Disarmed("battery_depleted", entity))
            if armed and not flags[2]:
                emit(events.Armed(entity))
            elif flags[2] and not armed and not depleted:
                emit(events.Disarmed("motor_power_zero", entity))
            flags[2] = armed


class BatteryEventsPlugin:
    name = "battery-events"

    def build(self, app: App) -> None:
        self.announce = AnnounceBattery(app)
        app.add_system(self.announce, Stage.GAMEPLAY)
        app.on(events.Reset, self.announce.on_reset)
        app.on(events.DroneRemoved, self.announce.on_removed)
