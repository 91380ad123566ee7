"""MENU stage: the LB / Tab menu (docs/model.md#menu), and the menu's entries.

While the menu is open the flight inputs pick an entry and the flight sees a neutral command,
so the previous setpoints are kept. The menu opens on its groups (`Menu.rows()`: Assists,
Laboratory, Weather, Air…; a group of one entry shows that entry: Manual, Restart); left stick
or D-pad up/down moves, A (or stick right) opens a group, B (or stick left) goes back to the
groups, B on the groups or LB anywhere closes. Restart asks for confirmation in the menu
(`CONFIRM`); the BACK button and `select()` restart at once. Physics time goes on, and at
MotorPower 0 the fall goes on. On closing, every control still deflected is ignored until it
returns to neutral.

Entries are registered by the features that implement them, with what choosing them does
(`Menu.add(MenuEntry(...))`); a mod adds its own the same way. The game's entry ids are
declared once, in `MenuId`; entries are shown by group (`GROUPS`), in the order added within
a group. Choosing an entry runs its action, then emits `MenuSelected`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Callable

import esper

from components import events
from components.pilot import PilotCommand
from engine.app import App
from engine.stages import Stage
from systems.pilot_input import ReadPilotInput
from systems.scene import Player


class MenuId(enum.StrEnum):
    """The ids of the game's own menu entries (what `Simulation.select` and flight scripts take)."""

    MANUAL = "manual"
    TAKEOFF = "takeoff"
    LAND = "land"
    MISSION = "mission"
    RESTART = "restart"
    ANGLE = "angle"
    ACRO = "acro"


#: Prefixes of the ids of the weather and air-density entries: `weather:<preset id>`, `air:<id>`.
WEATHER_PREFIX = "weather:"
AIR_PREFIX = "air:"

#: Display order of the groups; a group not listed (a mod's) comes last.
GROUPS = ("flight", "assists", "restart", "laboratory", "weather", "air")

#: Entries that ask "are you sure?" when chosen from the menu (the BACK button and
#: `Simulation.select` stay immediate: they are deliberate).
CONFIRM = ("restart",)

NAV_THRESHOLD = 0.5  # stick deflection that counts as one step


@dataclass
class StickSteps:
    """A stick read as steps through a list, one per push: a deflection past NAV_THRESHOLD
    steps once, then nothing until the stick has come back under half of it (a held stick does
    not scroll). It starts latched: a stick already pushed when a screen opens must come back
    first. For the screens that list rows (pause, title, results)."""

    latched: bool = True

    def step(self, x: float, y: float) -> tuple[int, int]:
        """(rows down, values right): −1, 0 or +1 each, at most one of them non-zero."""
        if max(abs(x), abs(y)) < NAV_THRESHOLD * 0.5:
            self.latched = False
            return 0, 0
        if self.latched:
            return 0, 0
        if abs(y) >= NAV_THRESHOLD and abs(y) >= abs(x):
            self.latched = True
            return (-1 if y > 0 else 1), 0
        if abs(x) >= NAV_THRESHOLD:
            self.latched = True
            return 0, (1 if x > 0 else -1)
        return 0, 0


@dataclass(frozen=True)
class MenuRow:
    """One line of what the menu shows now: a group to open (`kind` "group", `key` its name), an
    entry to choose ("entry", its id), or in a confirmation the entry confirmed ("confirm", its
    id) and the way out ("cancel", "")."""

    kind: str
    key: str


@dataclass(frozen=True)
class MenuEntry:
    """One line of the menu: its id, its English label (the HUD translates it by id), its
    group and what choosing it does."""

    id: str
    label: str
    action: Callable[[], object]
    group: str = "mods"

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", str(self.id))  # a plain string, even when given a MenuId


@dataclass
class Menu:
    """The menu's state (a resource)."""

    entries: list[MenuEntry] = field(default_factory=list)  # in display order
    open: bool = False
    index: int = 0  # the cursor, in `rows()`
    group: str | None = None  # the group shown; None: the top level, the list of groups
    confirming: str | None = None  # the entry asking for confirmation (`CONFIRM`), if any
    guard: Callable[[Callable, str], Callable] = lambda function, what: function  # App.guard: a mod's action cannot crash the game

    def add(self, entry: MenuEntry) -> None:
        """Add an entry (an id already present is replaced) and keep the groups in order."""
        entry = replace(entry, action=self.guard(entry.action, f"menu entry {entry.id!r}"))
        self.entries[:] = [e for e in self.entries if e.id != entry.id] + [entry]
        rank = {g: i for i, g in enumerate(GROUPS)}
        self.entries.sort(key=lambda e: rank.get(e.group, len(GROUPS)))

    def remove_group(self, group: str) -> None:
        self.entries[:] = [e for e in self.entries if e.group != group]
        if self.group == group:
            self.group = None
        if self.confirming is not None and self.confirming not in self.ids():
            self.confirming = None
        self.index = min(self.index, max(0, len(self.rows()) - 1))

    def ids(self) -> list[str]:
        return [e.id for e in self.entries]

    def groups(self) -> list[str]:
        """The groups that have entries, in display order."""
        return list(dict.fromkeys(e.group for e in self.entries))

    def rows(self) -> list[MenuRow]:
        """What the menu shows now. The top level lists the groups, a group of one entry as that
        entry (Manual; Restart, which then asks for confirmation); an open group its entries; a
        confirmation the entry to confirm, then Cancel."""
        if self.confirming is not None:
            return [MenuRow("confirm", self.confirming), MenuRow("cancel", "")]
        if self.group is not None:
            return [MenuRow("entry", e.id) for e in self.entries if e.group == self.group]
        rows = []
        for group in self.groups():
            members = [e for e in self.entries if e.group == group]
            rows.append(MenuRow("entry", members[0].id) if len(members) == 1 else MenuRow("group", group))
        return rows

    def top(self) -> None:
        """Back to the top level (where the menu opens), the cursor on the group left."""
        left = self.group if self.group is not None else (
            self.entry(self.confirming).group if self.confirming in self.ids() else None)
        self.group = self.confirming = None
        rows = self.rows()
        self.index = next((i for i, r in enumerate(rows) if left is not None and
                           (r.key == left or (r.kind == "entry" and self.entry(r.key).group == left))), 0)

    def entry(self, entry_id: str) -> MenuEntry:
        for e in self.entries:
            if e.id == entry_id:
                return e
        raise ValueError(f"unknown menu entry {entry_id!r}: expected one of {', '.join(self.ids())}")


def select(app: App, entry_id: str, entity: int | None = None) -> None:
    """What choosing `entry_id` does (from the menu, the BACK button or `Simulation.select`):
    its action, then `MenuSelected`. An unknown id raises ValueError. `entity`: the drone it
    acts on (default: the player's) — while the action runs, `Player` names that drone, so
    every entry (a mod's too) acts on it."""
    entry = app.resource(Menu).entry(entry_id)
    player = app.resource(Player)
    acting, player.entity = player.entity, player.entity if entity is None else entity
    try:
        entry.action()
    finally:
        player.entity = acting
    app.emit(events.MenuSelected(entry.id))


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
            self.menu.group = self.menu.confirming = None  # it opens on the list of groups
            self.menu.index = 0
            # a stick already deflected when the menu opens must pass through neutral first
            self.nav_latched = max(abs(self.command.left[0]), abs(self.command.left[1])) >= NAV_THRESHOLD * 0.5
            self.app.emit(events.MenuOpened())

    def close(self) -> None:
        if self.menu.open:
            self.menu.open = False
            self.on_close()
            self.app.emit(events.MenuClosed())

    def choose(self, entry_id: str) -> None:
        self.close()
        self.app.emit(events.UiClick())
        select(self.app, entry_id)

    def process(self, dt: float) -> None:
        menu, cmd = self.menu, self.command
        if not menu.open:
            if "LB" in cmd.pressed:
                self.open()
                self._neutralise()
            elif "BACK" in cmd.pressed:  # the Restart button works without the menu
                select(self.app, MenuId.RESTART)
            return
        inner = menu.group is not None or menu.confirming is not None
        x, y = cmd.left
        back = "B" in cmd.pressed or (inner and x <= -NAV_THRESHOLD and not self.nav_latched)
        if "LB" in cmd.pressed or (back and not inner):
            self.close()
            self._neutralise()
            return
        rows = menu.rows()
        if abs(x) < NAV_THRESHOLD * 0.5 and abs(y) < NAV_THRESHOLD * 0.5:
            self.nav_latched = False
        if back:  # B or stick left: out of a group or a confirmation, to the top level
            self.nav_latched = True
            menu.top()
            self.app.emit(events.UiClick())
        elif rows:
            menu.index = min(menu.index, len(rows) - 1)
            if abs(y) >= NAV_THRESHOLD and not self.nav_latched:
                self.nav_latched = True
                menu.index = (menu.index + (-1 if y > 0 else 1)) % len(rows)
                self.app.emit(events.UiClick())
            opens = x >= NAV_THRESHOLD and not self.nav_latched and rows[menu.index].kind == "group"
            if "A" in cmd.pressed or opens:
                self.nav_latched = self.nav_latched or opens
                self._neutralise()
                self._activate(rows[menu.index])
                return
        self._neutralise()

    def _activate(self, row: MenuRow) -> None:
        """A (or stick right on a group): open the group, ask for confirmation, or choose."""
        menu = self.menu
        if row.kind == "group":
            menu.group, menu.index = row.key, 0
            self.app.emit(events.UiClick())
        elif row.kind == "entry" and row.key in CONFIRM:
            menu.confirming, menu.index = row.key, 0
            self.app.emit(events.UiClick())
        elif row.kind == "cancel":
            menu.top()
            self.app.emit(events.UiClick())
        else:  # an entry, or the confirmed one
            self.choose(row.key)

    def _neutralise(self) -> None:
        cmd = self.command
        cmd.left = cmd.right = (0.0, 0.0)
        cmd.lt = cmd.rt = 0.0
        cmd.held = frozenset()
        cmd.pressed = ()
        cmd.raw = ()  # what the pad holds must be read again once the menu lets it through


class MenuPlugin:
    """The menu resource and the system that opens it and picks its entries."""

    name = "menu"

    def build(self, app: App) -> None:
        menu = app.try_resource(Menu) or app.insert_resource(Menu())
        menu.guard = app.guard
        reader = app.get_system(ReadPilotInput)  # built before: the menu hands controls back through it
        app.add_system(RunMenu(app, menu, app.resource(PilotCommand), reader.suppress_active_controls), Stage.MENU)
