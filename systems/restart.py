"""Restart: the menu's entry (and the BACK button's), and the drone back on its spawn pad.

Choosing Restart emits `Reset`; every feature that keeps state for a flight (assists, battery
announcements, contacts, a mod's) listens to it and starts afresh. This one puts the drone back
(`systems.scene.place_at_spawn`: spawn pose, full pack, no damage, empty trail, MotorPower 0)
and the virtual pad to neutral. Only Restart repairs the drone.
"""

from __future__ import annotations

import esper

from components import events
from components.pilot import Pad
from engine.app import App
from systems.menu import Menu, MenuEntry, MenuId
from systems.scene import Player, place_at_spawn


class Restart:
    """Restart / ResetFlight (a long-lived handler): the drone back on its spawn pad."""

    def __init__(self, app: App) -> None:
        self.app = app

    def request(self) -> None:
        self.app.emit(events.Reset(self.app.resource(Player).entity))

    def on_reset(self, event: events.Reset) -> None:
        entity = self.app.resource(Player).entity if event.entity is None else event.entity
        place_at_spawn(self.app, entity=entity)
        self.app.activate()
        esper.component_for_entity(entity, Pad).neutral()


class RestartPlugin:
    """The menu's Restart entry and what `Reset` does to the drone."""

    name = "restart"

    def build(self, app: App) -> None:
        self.restart = Restart(app)
        app.resource(Menu).add(MenuEntry(MenuId.RESTART, "Restart", self.restart.request, group="restart"))
        app.on(events.Reset, self.restart.on_reset)
