"""The RENDER-stage plugin: what the window adds to the App so it can be seen.

`RenderPlugin(renderer)` adds `PrepareFrame` to the RENDER stage (it runs after the frame's
fixed ticks, so the pose it interpolates is the newest) and turns the game's events into HUD
messages. Only the window adds it: the headless Simulation has no RENDER-stage system.
"""

from __future__ import annotations

from pathlib import Path

import esper

from engine.app import App
from engine.stages import Stage
from components import events
from systems.scene import is_player
from game.render import hud_text as T
from game.render.hud import WARN, YELLOW
from world.weather import Weather


class PrepareFrame(esper.Processor):
    """RENDER stage: interpolate the drone, turn the props, move the cameras, refresh the HUD."""

    def __init__(self, renderer) -> None:
        self.renderer = renderer

    def process(self, dt: float) -> None:
        self.renderer.prepare(dt)


class HudMessages:
    """Turns game events into HUD message lines, in the HUD's language (a long-lived handler)."""

    def __init__(self, renderer) -> None:
        self.renderer = renderer

    def _say(self, key: str, *args, colour=None) -> None:
        hud = self.renderer.hud
        text = T.message(key, self.renderer.language, *args)
        if colour is None:
            hud.message(text)
        else:
            hud.message(text, colour)

    def on_message(self, event: events.Message) -> None:
        """One line, in the HUD's language when the event names its catalogue entry (the
        English `text` otherwise: a mod's own line)."""
        lang = self.renderer.language
        if event.key == "weather" and len(event.args) == 3:
            kind, preset, name = event.args
            text = T.weather_name(preset, name, lang)
            if kind == "weather":
                text += f" · {T.label('wind', lang).lower()} {T.wind_text(self.renderer.app.resource(Weather).wind_m_s, lang)}"
            self._say("weather", text)
        elif event.key in T.MESSAGES:
            self._say(event.key, *(T.reason(a, lang) if isinstance(a, str) else a for a in event.args))
        else:
            self.renderer.hud.message(event.text)

    def on_controller_connected(self, event: events.ControllerConnected) -> None:
        self._say("controller_connected", event.name)

    def on_controller_disconnected(self, event: events.ControllerDisconnected) -> None:
        self._say("controller_disconnected", event.name, colour=YELLOW)

    def on_landing_refused(self, event: events.LandingRefused) -> None:
        if not is_player(self.renderer.app, event.entity):
            return  # another drone's: the HUD speaks of the player's
        self._say("landing_refused", T.reason(event.reason, self.renderer.language), colour=WARN)

    def on_mission_status(self, event: events.MissionStatus) -> None:
        if not is_player(self.renderer.app, event.entity):
            return  # another drone's: the HUD speaks of the player's
        status = event.status
        if status in ("interrupted", "refused"):
            reason = T.reason(event.reason, self.renderer.language) or "—"
            self._say(f"mission_{status}", reason, colour=WARN)
        elif status == "arrived":
            self._say("mission_arrived")
        self.renderer.hud.refresh_soon()

    def on_level_reloaded(self, event: events.LevelReloaded) -> None:
        errors = event.errors
        if errors:
            self._say("level_reloaded_errors", len(errors), short_location(str(errors[0])), colour=WARN)
        else:
            self._say("level_reloaded")

    def on_battery_low(self, event: events.BatteryLow) -> None:
        if not is_player(self.renderer.app, event.entity):
            return  # another drone's: the HUD speaks of the player's
        self._say("battery_low", 100.0 * event.fraction, colour=YELLOW)

    def on_battery_depleted(self, event: events.BatteryDepleted) -> None:
        if not is_player(self.renderer.app, event.entity):
            return  # another drone's: the HUD speaks of the player's
        self._say("battery_depleted", colour=WARN)

    def on_impact(self, event: events.Impact) -> None:
        if not is_player(self.renderer.app, event.entity):
            return  # another drone's: the HUD speaks of the player's
        if event.speed_m_s >= 1.0:
            self._say("impact", event.speed_m_s, colour=YELLOW)


def short_location(line: str) -> str:
    """An error line `FILE:LINE: …` with FILE shortened for the HUD's one centred line:
    relative to the working folder when it is inside it (`levels/mine/level.toml:27: …`),
    else its folder and name. The terminal's log keeps the full path."""
    path, sep, rest = line.partition(":")
    if not sep or not rest[:1].isdigit():
        return line
    file = Path(path)
    try:
        short = file.resolve().relative_to(Path.cwd().resolve())
    except (OSError, ValueError):
        short = Path(*file.parts[-2:]) if len(file.parts) > 2 else file
    return f"{short}{sep}{rest}"


class RenderPlugin:
    name = "render"

    def __init__(self, renderer) -> None:
        self.renderer = renderer
        self.messages = HudMessages(renderer)

    def build(self, app: App) -> None:
        app.add_system(PrepareFrame(self.renderer), Stage.RENDER)
        m = self.messages
        for event, handler in ((events.Message, m.on_message),
                               (events.ControllerConnected, m.on_controller_connected),
                               (events.ControllerDisconnected, m.on_controller_disconnected),
                               (events.LandingRefused, m.on_landing_refused),
                               (events.MissionStatus, m.on_mission_status),
                               (events.LevelReloaded, m.on_level_reloaded),
                               (events.BatteryLow, m.on_battery_low),
                               (events.BatteryDepleted, m.on_battery_depleted),
                               (events.Impact, m.on_impact)):
            app.on(event, handler)
