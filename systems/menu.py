"""MENU stage: the LB / Tab menu (docs/model.md#menu).

While the menu is open the flight inputs pick an entry (left stick or D-pad up/down to move,
A to choose, B or LB to close) and the flight sees a neutral command, so the previous
setpoints are kept; physics time goes on, and at MotorPower 0 the fall goes on. On closing,
every control still deflected is ignored until it returns to neutral.

Entries are registered by the plugins that implement them (`Menu.add`), and choosing one
dispatches `events.MENU_SELECTED` with its id.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import esper

from components.pilot import PilotCommand
from engine.app import App
from game import events

# Display order of the known entries; a mod's entries follow in the order they were added.
ENTRY_ORDER = ("manual", "takeoff", "land", "mission", "restart", "angle", "acro")
NAV_THRESHOLD = 0.5  # stick deflection that counts as one step


@dataclass
class Menu:
    """The menu's state (a resource)."""

    entries: list[tuple[str, str]] = field(default_factory=list)  # (id, label)
    open: bool = False
    index: int = 0

    def add(self, entry_id: str, label: str) -> None:
        if any(e == entry_id for e, _ in self.entries):
            return
        self.entries.append((entry_id, label))
        rank = {e: i for i, e in enumerate(ENTRY_ORDER)}
        self.entries.sort(key=lambda e: rank.get(e[0], len(ENTRY_ORDER)))

    def ids(self) -> list[str]:
        return [e for e, _ in self.entries]


class RunMenu(esper.Processor):
    def __init__(self, app: App, menu: Menu, command: PilotCommand, on_close) -> None:
        self.app = app
        self.menu = menu
        self.command = command
        self.on_close = on_close  # called when the menu closes: suppress deflected controls
        self.nav_latched = False

    def open(self) -> None:
        if not self.menu.open:
            self.menu.open = True
            # a stick already deflected when the menu opens must pass through neutral first
            self.nav_latched = abs(self.command.left[1]) >= NAV_THRESHOLD * 0.5
            self.app.emit(events.MENU_OPENED)

    def close(self) -> None:
        if self.menu.open:
            self.menu.open = False
            self.on_close()
            self.app.emit(events.MENU_CLOSED)

    def choose(self, entry_id: str) -> None:
        self.close()
        self.app.emit(events.UI_CLICK)
        self.app.emit(events.MENU_SELECTED, entry_id)

    def process(self, dt: float) -> None:
        menu, cmd = self.menu, self.command
        if not menu.open:
            if "LB" in cmd.pressed:
                self.open()
                self._neutralise()
            elif "BACK" in cmd.pressed:  # the Restart button works without the menu
                self.app.emit(events.MENU_SELECTED, "restart")
            return
        if "LB" in cmd.pressed or "B" in cmd.pressed:
            self.close()
            self._neutralise()
            return
        if menu.entries:
            y = cmd.left[1]
            if abs(y) < NAV_THRESHOLD * 0.5:
                self.nav_latched = False
            elif abs(y) >= NAV_THRESHOLD and not self.nav_latched:
                self.nav_latched = True
                menu.index = (menu.index + (-1 if y > 0 else 1)) % len(menu.entries)
                self.app.emit(events.UI_CLICK)
            if "A" in cmd.pressed:
                entry = menu.entries[menu.index][0]
                self._neutralise()
                self.choose(entry)
                return
        self._neutralise()

    def _neutralise(self) -> None:
        cmd = self.command
        cmd.left = cmd.right = (0.0, 0.0)
        cmd.lt = cmd.rt = 0.0
        cmd.held = frozenset()
        cmd.pressed = ()
