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
        # (entity, Battery, Controller, its flags) per drone, made from esper's list `_query`:
        # made again when esper makes a new one (a drone came or went) or a drone's flags go
        self._rows: list[tuple[int, Battery, Controller, list[bool]]] = []
        self._query: list | None = None

    def on_reset(self, event: events.Reset) -> None:
        self._seen.pop(self.app.resource(Player).entity if event.entity is None else event.entity, None)
        self._query = None

    def on_removed(self, event: events.DroneRemoved) -> None:
        self._seen.pop(event.entity, None)  # drones come and go: a long session keeps only the living
        self._query = None

    def process(self, dt: float) -> None:
        query = esper.get_components(Battery, Controller)
        if query is not self._query:
            self._rows = [(entity, battery, ctrl, self._seen.setdefault(entity, [False, False, False]))
                          for entity, (battery, ctrl) in query]
            self._query = query
        for entity, battery, ctrl, flags in self._rows:
            state = battery.state  # read as Python floats: a numpy scalar costs several times more
            depleted = state.item(DEPLETED) != 0.0
            armed = ctrl.targets.item(MOTOR_POWER) > 0.0 and not depleted
            if not flags[0]:
                capacity = state.item(CAPACITY)
                fraction = state.item(ENERGY) / capacity if capacity else 0.0
                if fraction < LOW_FRACTION:
                    flags[0] = True
                    self.app.emit(events.BatteryLow(fraction, entity))
            if depleted and not flags[1]:
                flags[1] = True
                self.app.emit(events.BatteryDepleted(entity))
                self.app.emit(events.Disarmed("battery_depleted", entity))
            if armed is not flags[2]:  # an edge
                if armed:
                    self.app.emit(events.Armed(entity))
                elif not depleted:
                    self.app.emit(events.Disarmed("motor_power_zero", entity))
                flags[2] = armed


class BatteryEventsPlugin:
    name = "battery-events"

    def build(self, app: App) -> None:
        self.announce = AnnounceBattery(app)
        app.add_system(self.announce, Stage.GAMEPLAY)
        app.on(events.Reset, self.announce.on_reset)
        app.on(events.DroneRemoved, self.announce.on_removed)
