"""The game's own features, each a plugin (`name` + `build(app)`), and mod discovery.

The game registers through the same interface a mod uses: a plugin adds resources,
systems (with their stage), event handlers, menu entries and modes. Each built-in feature is
one module of `systems/` holding its systems and its plugin, as a mod is one file;
`default_plugins()` is the game; `find_mods()` finds third-party plugins: the `donify.plugins` entry points, the user
data folder's `mods/` and the folders named with `--mods` (never the current folder's
`mods/`: a mod is Python code run with the user's rights, so only what the user installed or
named is run). A mod that fails to import or build is reported in one line and skipped,
unless strict mode asks for the error. `build_mods()` builds them as mods: guarded while the
game runs (engine/mods.py), with the drone's physical state as the state they must leave
finite (`DroneStateGuard`).
"""

from __future__ import annotations

import importlib.util
import logging
import math
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path

import esper
import numpy as np
import platformdirs

from components import events
from components.flight import Battery, ExternalWrench, RigidBody, Rotors
from components.world import FleetRow
from engine.app import App, Plugin
from engine.datafile import check_regular_file
from engine.mods import ModError, ModPolicy  # noqa: F401 (ModError: mods catch it from here)
from flight.jit import njit
from systems.weather import WeatherPlugin
from systems.assists import AssistPlugin
from systems.battery_events import BatteryEventsPlugin
from systems.collision import LevelPlugin
from systems.control import ControlPlugin
from systems.course import CoursePlugin
from systems.crash import CrashPlugin
from systems.dynamics import DynamicsPlugin
from systems.fused_ticks import FusedTicksPlugin
from systems.manual import ManualFlightPlugin
from systems.menu import MenuPlugin
from systems.modes import FlightModesPlugin
from systems.pilot_input import PilotInputPlugin
from systems.restart import RestartPlugin
from systems.scene import Player, fleet_store
from systems.sdk_flight import SdkFlightPlugin
from systems.trail import TrailPlugin
from systems.traffic import TrafficPlugin
from game.traffic import level_routes
from systems.tutorial import TutorialPlugin

log = logging.getLogger("donify.plugins")

#: Overrides the user data folder (mods are looked for in its `mods/`), as DONIFY_CONFIG_DIR
#: does for the settings.
DATA_DIR_ENV = "DONIFY_DATA_DIR"


def default_plugins() -> list[Plugin]:
    """The game's features, in build order (which is also the order of their systems within a
    stage, unless a system declares `after=` / `before=`). Each is one module of `systems/`,
    written the way a mod is."""
    return [PilotInputPlugin(), MenuPlugin(), FlightModesPlugin(), RestartPlugin(), ManualFlightPlugin(),
            ControlPlugin(), DynamicsPlugin(), BatteryEventsPlugin(), LevelPlugin(), AssistPlugin(), CrashPlugin(),
            TrailPlugin(), WeatherPlugin(), TutorialPlugin(), CoursePlugin(), SdkFlightPlugin(), TrafficPlugin(level_routes),
            FusedTicksPlugin()]


# -- mods -----------------------------------------------------------------------------------
def _plugin_from(obj, origin: str) -> Plugin:
    plugin = obj() if isinstance(obj, type) else obj
    if not isinstance(getattr(plugin, "name", None), str) or not callable(getattr(plugin, "build", None)):
        raise ModError(f"{origin}: expected a plugin with a `name` string and a `build(app)` method")
    return plugin


def user_mods_folder() -> Path:
    """The user data folder's mods/ ($DONIFY_DATA_DIR/mods, else the platform's data folder)."""
    base = os.environ.get(DATA_DIR_ENV)
    if not base:
        base = platformdirs.user_data_dir("donify", appauthor=False)
    return Path(base) / "mods"


def mod_folders(named: list[str] | None = None) -> list[Path]:
    """Where mods are looked for: the user data folder's mods/, then each folder named (with
    `--mods`). The current folder's mods/ is not among them unless named."""
    return [user_mods_folder(), *(Path(p) for p in named or ())]


def find_mods(named: list[str] | None = None, strict: bool = False) -> tuple[list[Plugin], list[str]]:
    """Every mod: entry points, the user data folder's mods/, the folders named. A named folder
    that does not exist raises ValueError (a usage error: the user asked for it)."""
    for folder in named or ():
        if not Path(folder).is_dir():
            raise ValueError(f"--mods {folder}: no such folder")
    plugins: list[Plugin] = []
    problems: list[str] = []
    for i, folder in enumerate(mod_folders(named)):
        found, lines = discover_mods(folder, strict=strict, entry_point_mods=i == 0)
        plugins += found
        problems += lines
    return plugins, problems


#: What a mod's import may raise and still only be skipped: `sys.exit()` or a stray
#: KeyboardInterrupt in a module's top level must not quit the game.
_IMPORT_FAILURES = (Exception, SystemExit, KeyboardInterrupt)


def discover_mods(mods_dir: Path | None = None, strict: bool = False,
                  entry_point_mods: bool = True) -> tuple[list[Plugin], list[str]]:
    """Plugins from the `donify.plugins` entry points and from `mods_dir/*.py` (each module
    exposing `plugin`). Returns (plugins, one-line problems); a missing folder finds nothing."""
    plugins: list[Plugin] = []
    problems: list[str] = []

    def fail(line: str, exc: BaseException | None = None) -> None:
        if strict:
            raise ModError(line.replace(": skipped:", ": broken mod (strict mode):")) from exc
        problems.append(line)
        log.warning(line)

    for ep in entry_points(group="donify.plugins") if entry_point_mods else ():
        try:
            plugins.append(_plugin_from(ep.load(), f"entry point {ep.name}"))
        except _IMPORT_FAILURES as exc:  # a broken mod must never stop the game
            fail(f"mod {ep.name} ({ep.value}): skipped: {type(exc).__name__}: {exc}", exc)
    if mods_dir is not None and mods_dir.is_dir():
        for path in sorted(mods_dir.glob("*.py")):
            name = f"donify_mod_{path.stem}"
            try:
                # a FIFO or a device named *.py would block or never end the read
                check_regular_file(path, expected="a Python mod")
                spec = importlib.util.spec_from_file_location(name, path)
                module = importlib.util.module_from_spec(spec)
                sys.modules[name] = module
                spec.loader.exec_module(module)
                if not hasattr(module, "plugin"):
                    raise ModError("expected a module-level `plugin`")
                plugins.append(_plugin_from(module.plugin, str(path)))
            except _IMPORT_FAILURES as exc:
                sys.modules.pop(name, None)
                fail(f"{path}: skipped: {type(exc).__name__}: {exc}", exc)
    return plugins, problems


@njit
def _copy_rows(block, rows, c0, c1, saved):
    """saved[r, :] = block[r, c0:c1] for the rows listed (a snapshot of those columns)."""
    for k in range(rows.shape[0]):
        r = rows[k]
        for c in range(c0, c1):
            saved[r, c - c0] = block[r, c]


@njit
def _restore_rows(block, rows, c0, c1, saved):
    for k in range(rows.shape[0]):
        r = rows[k]
        for c in range(c0, c1):
            block[r, c] = saved[r, c - c0]


@njit
def _first_non_finite(block, rows, c0, c1):
    """(row, column) of the first non-finite value in the rows' columns c0:c1, else (-1, -1)."""
    for k in range(rows.shape[0]):
        r = rows[k]
        for c in range(c0, c1):
            if not math.isfinite(block[r, c]):
                return r, c
    return -1, -1


class DroneStateGuard:
    """Every drone's core physical state — RigidBody, Rotors and Battery, side by side in its
    FleetStore row (components/fleet.py), and any ExternalWrench a physics mod gave one — as the
    state mod code must leave finite: copied before a mod's system or handler runs, checked
    after, put back if any value went NaN or ±inf. (A NaN force would reach the body at the
    next integration, outside the mod's call, where nobody could say whose it was.)

    It runs around every call of mod code (a fixed-stage mod system: every tick), so the copy
    and the check are compiled, one call per block of drones: about a microsecond for one
    drone, a few for a hundred."""

    KINDS = (RigidBody, Rotors, Battery)  # their columns are contiguous in a row: body … battery

    def __init__(self, app: App) -> None:
        self.app = app
        self.store = fleet_store(app)
        self.c0, self.c1 = self.store.columns["body"].start, self.store.columns["battery"].stop
        self.saved: list[np.ndarray] = []  # per block: the guarded columns of every row
        self.rows: list[np.ndarray] = []  # per block: the rows in use at the snapshot
        self.wrenches: list[tuple[ExternalWrench, np.ndarray]] = []  # each wrench and its state at the snapshot

    def snapshot(self) -> None:
        store, saved = self.store, self.saved
        while len(saved) < len(store.blocks):
            saved.append(np.zeros((store.rows_per_block, self.c1 - self.c0)))
        self.rows = [store.rows(b) for b in range(len(store.blocks))]
        for block, rows, copy in zip(store.blocks, self.rows, saved):
            _copy_rows(block, rows, self.c0, self.c1, copy)
        self.app.activate()
        self.wrenches = [(w, w.state.copy()) for _, w in esper.get_component(ExternalWrench)]

    def problem(self) -> str | None:
        store = self.store
        for b, block in enumerate(store.blocks):
            r, c = _first_non_finite(block, store.rows(b), self.c0, self.c1)
            if r >= 0:
                return self._field_at(b, r, c)
        self.app.activate()
        for entity, wrench in esper.get_component(ExternalWrench):  # the call may have added one
            if not np.isfinite(wrench.state).all():
                return _non_finite_field(wrench) + self._whose(entity)
        return None

    def restore(self) -> None:
        for block, rows, copy in zip(self.store.blocks, self.rows, self.saved):
            _restore_rows(block, rows, self.c0, self.c1, copy)
        before = {id(w): state for w, state in self.wrenches}
        self.app.activate()
        for _, wrench in esper.get_component(ExternalWrench):  # as it was, or no force if the failing call added it
            wrench.state[:] = before.get(id(wrench), 0.0)

    def _field_at(self, block: int, row: int, column: int) -> str:
        """"RigidBody.velocity" (and whose, when not the player's drone) for a column of a row."""
        self.app.activate()
        entity = next(e for e, where in esper.get_component(FleetRow) if (where.block, where.row) == (block, row))
        for kind in self.KINDS:
            component = esper.component_for_entity(entity, kind)
            bad = np.flatnonzero(~np.isfinite(component.state))
            if bad.size:
                table = kind.TABLE
                return f"{kind.__name__}.{table.attribute(table.row(table.name_at(int(bad[0]))))}" + self._whose(entity)
        return f"drone {entity}'s state (column {column})"

    def _whose(self, entity: int) -> str:
        return "" if entity == self.app.resource(Player).entity else f" of drone {entity}"


def _non_finite_field(component) -> str:
    """"RigidBody.position": the first row of `component`'s array holding a non-finite value."""
    kind = type(component)
    bad = int(np.flatnonzero(~np.isfinite(component.state))[0])
    table = kind.TABLE
    return f"{kind.__name__}.{table.attribute(table.row(table.name_at(bad)))}"


def build_mods(app: App, plugins: list[Plugin], strict: bool = False) -> list[str]:
    """Build each plugin as a mod (guarded while the game runs); one whose build raises is
    reported and skipped (strict: ModError). Returns the mods' problems: a live list, to
    which every later report (a mod disabled, a slow mod) is added as it happens."""
    if not plugins:
        return []
    policy = ModPolicy(strict=strict, message_event=events.Message, state_guard=DroneStateGuard(app))
    supervisor = app.mod_supervisor(policy)
    for plugin in plugins:
        try:
            app.add_plugin(plugin, mod=True)
        except (Exception, SystemExit) as exc:
            line = f"mod {str(getattr(plugin, 'name', plugin))!r}: build failed, skipped: {type(exc).__name__}: {exc}"
            if strict:
                raise ModError(line) from exc
            supervisor.report(line)
    return supervisor.problems
