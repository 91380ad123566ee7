"""The game's own features, each a plugin (`name` + `build(app)`), and mod discovery.

The game registers through the same interface a mod uses: a plugin adds resources,
systems (with their stage), event handlers and menu entries. `default_plugins()` is the
game; `discover_mods()` finds third-party plugins through the `donify.plugins` entry-point
group and a `mods/` folder. A mod that fails to import or build is reported in one line and
skipped, unless strict mode asks for the error.
"""

from __future__ import annotations

import importlib.util
import logging
import sys
from importlib.metadata import entry_points
from pathlib import Path

from components.pilot import Pad, PilotCommand
from engine.app import App, Plugin
from engine.stages import Stage
from game import events
from game.levels import LevelPlugin
from game.scene import FlightModes, SceneConfig
from game.weather import WeatherPlugin
from systems.battery_events import AnnounceBattery
from systems.control import RunFlightController
from systems.dynamics import IntegrateDynamics
from systems.manual import ApplyManualSetpoints
from systems.menu import Menu, RunMenu
from systems.pilot_input import ReadPilotInput
from systems.trail import RecordTrail
from world.weather import Weather

log = logging.getLogger("donify.plugins")


class FlightPlugin:
    """Pilot input, the menu, manual setpoints, controllers, dynamics and battery events."""

    name = "flight"

    def build(self, app: App) -> None:
        config = app.resource(SceneConfig)
        pad = app.try_resource(Pad) or app.insert_resource(Pad())
        command = app.insert_resource(PilotCommand())
        weather = app.try_resource(Weather) or app.insert_resource(Weather())
        menu = app.try_resource(Menu) or app.insert_resource(Menu())
        for entry, label in (("manual", "Manual"), ("restart", "Restart"), ("angle", "Angle (lab)"), ("acro", "Acro (lab)")):
            menu.add(entry, label)
        reader = ReadPilotInput(pad, command, config.vehicle.control["stick_dead_zone"])
        self.modes = app.insert_resource(FlightModes(app))
        self.menu_system = RunMenu(app, menu, command, reader.suppress_active_controls)
        self.battery = AnnounceBattery(app)
        app.add_system(reader, Stage.INPUT)
        app.add_system(self.menu_system, Stage.MENU)
        app.add_system(ApplyManualSetpoints(command), Stage.ASSIST)
        app.add_system(RunFlightController(weather), Stage.CONTROL)
        app.add_system(IntegrateDynamics(weather), Stage.DYNAMICS)
        app.add_system(self.battery, Stage.GAMEPLAY)
        app.on(events.MENU_SELECTED, self.modes.on_menu_selected)
        app.on(events.RESET, self.modes.on_reset)
        app.on(events.RESET, self.battery.on_reset)


class AssistPlugin:
    """Take-off (X), landing (B) and the mission (menu), with their menu entries."""

    name = "assists"

    def build(self, app: App) -> None:
        from systems.assists import RunAssists  # noqa: PLC0415

        menu = app.resource(Menu)
        for entry, label in (("takeoff", "Take-off"), ("land", "Land"), ("mission", "Mission")):
            menu.add(entry, label)
        self.assists = app.insert_resource(RunAssists(app, app.resource(PilotCommand)))
        app.add_system(self.assists, Stage.ASSIST)
        app.on(events.MENU_SELECTED, self.assists.on_menu_selected)
        app.on(events.RESET, self.assists.on_reset)


class TrailPlugin:
    name = "trail"

    def build(self, app: App) -> None:
        app.add_system(RecordTrail(), Stage.GAMEPLAY)


def default_plugins() -> list[Plugin]:
    """The game's features, in build order."""
    return [FlightPlugin(), LevelPlugin(), AssistPlugin(), TrailPlugin(), WeatherPlugin()]


# -- mods -----------------------------------------------------------------------------------
class ModError(Exception):
    pass


def _plugin_from(obj, origin: str) -> Plugin:
    plugin = obj() if isinstance(obj, type) else obj
    if not isinstance(getattr(plugin, "name", None), str) or not callable(getattr(plugin, "build", None)):
        raise ModError(f"{origin}: expected a plugin with a `name` string and a `build(app)` method")
    return plugin


def mod_folders(explicit: list[str] | None = None) -> list[Path]:
    """Where mods are looked for: the folders given, else ./mods and the user data folder's
    mods/ (platformdirs). Entry-point mods are found once, with the first folder."""
    if explicit:
        return [Path(p) for p in explicit]
    import platformdirs  # noqa: PLC0415

    return [Path("mods"), Path(platformdirs.user_data_dir("donify")) / "mods"]


def discover_mods(mods_dir: Path | None = None, strict: bool = False,
                  entry_point_mods: bool = True) -> tuple[list[Plugin], list[str]]:
    """Plugins from the `donify.plugins` entry points and from `mods_dir/*.py` (each module
    exposing `plugin`). Returns (plugins, one-line problems)."""
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
        except Exception as exc:  # a broken mod must never stop the game
            fail(f"mod {ep.name} ({ep.value}): skipped: {type(exc).__name__}: {exc}", exc)
    if mods_dir is not None and mods_dir.is_dir():
        for path in sorted(mods_dir.glob("*.py")):
            name = f"donify_mod_{path.stem}"
            try:
                spec = importlib.util.spec_from_file_location(name, path)
                module = importlib.util.module_from_spec(spec)
                sys.modules[name] = module
                spec.loader.exec_module(module)
                if not hasattr(module, "plugin"):
                    raise ModError("expected a module-level `plugin`")
                plugins.append(_plugin_from(module.plugin, str(path)))
            except Exception as exc:
                fail(f"{path}: skipped: {type(exc).__name__}: {exc}", exc)
    return plugins, problems


def build_mods(app: App, plugins: list[Plugin], strict: bool = False) -> list[str]:
    """Build each mod; one that raises is reported and skipped (strict: re-raised)."""
    problems = []
    for plugin in plugins:
        try:
            app.add_plugin(plugin)
        except Exception as exc:
            line = f"mod {getattr(plugin, 'name', plugin)!s}: build failed, skipped: {type(exc).__name__}: {exc}"
            if strict:
                raise ModError(line) from exc
            problems.append(line)
            log.warning(line)
    return problems
