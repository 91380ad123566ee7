"""The weather feature: presets a player can pick, gusts every tick, the headless setter.

`WeatherPlugin` adds the `WeatherChoices` resource (the level's weather presets — or the
built-in ones in a world without a level — and the density presets), one menu entry per
preset (`weather:<id>`, `air:<id>`), and the `BlowWind` system that writes this tick's wind
before the dynamics. `set_weather(app, …)` is what `Simulation.set_weather` does.

Weather is an experimental environment (docs/model.md#weather): it proves nothing about a real Tello in
wind or rain. Rain is visual only; `Weather.hud_note()` says so on the HUD.
"""

from __future__ import annotations

from engine.app import App
from engine.stages import Stage
from game import events
from game.scene import SceneConfig
from systems.menu import Menu
from systems.weather import BlowWind
from world.turbulence import DrydenTurbulence
from world.weather import (BUILTIN_PRESETS, DENSITY_PRESETS, DensityPreset, Weather, WeatherPreset, check_gusts,
                           check_rain, check_weather)

WEATHER_ENTRY = "weather:"
AIR_ENTRY = "air:"


def preset_from_level(p) -> WeatherPreset:
    """A level file's weather preset (`world.level.WeatherPreset`) as a `WeatherPreset`."""
    return WeatherPreset(id=p.id, name=p.name, wind_m_s=tuple(p.wind_m_s), gust_intensity_m_s=p.gust_m_s,
                         density_kg_m3=p.density_kg_m3, rain_mm_h=p.rain_mm_h)


def presets_of_level(level) -> tuple[WeatherPreset, ...]:
    """The level's weather presets (none for the lab world)."""
    return tuple(preset_from_level(p) for p in getattr(level, "weather", None) or ())


def start_weather(level, *, wind=None, density: float | None = None) -> Weather:
    """The weather at start: the level's start preset (`default_weather`, else its first),
    calm sea-level air without a level; an explicit wind or density replaces the preset's."""
    weather = Weather()
    start = getattr(level, "start_weather", None)
    if start is not None:
        weather.apply(preset_from_level(start))
    if density is not None or wind is not None:
        check_weather(weather.density_kg_m3 if density is None else density, weather.wind_m_s if wind is None else wind)
        if density is not None:
            weather.density_kg_m3 = float(density)
        if wind is not None:
            weather.wind_m_s = tuple(float(w) for w in wind)
            weather.wind_now_m_s[:] = weather.wind_m_s
        weather.preset_id = ""  # no longer the preset as written (its gusts and rain stay)
    return weather


class WeatherChoices:
    """The presets a player can pick (a resource) and what picking one does (a long-lived
    handler of `MENU_SELECTED` and `LEVEL_RELOADED`).

    The weather presets are the present level's (read again after a level swap or a hot
    reload), or the built-in ones in a world without a level."""

    def __init__(self, app: App, weather: Weather, densities: tuple[DensityPreset, ...] = DENSITY_PRESETS) -> None:
        self.app = app
        self.weather = weather
        self.densities = densities

    @property
    def presets(self) -> tuple[WeatherPreset, ...]:
        config = self.app.try_resource(SceneConfig)
        return presets_of_level(config.level if config is not None else None) or BUILTIN_PRESETS

    def preset(self, preset_id: str) -> WeatherPreset:
        for p in self.presets:
            if p.id == preset_id:
                return p
        raise ValueError(f"unknown weather preset {preset_id!r}: expected one of {', '.join(p.id for p in self.presets)}")

    def density(self, preset_id: str) -> float:
        for d in self.densities:
            if d.id == preset_id:
                return d.density_kg_m3
        raise ValueError(f"unknown density preset {preset_id!r}: expected a number of kg/m³ or one of "
                         f"{', '.join(d.id for d in self.densities)}")

    def menu_entries(self) -> list[tuple[str, str]]:
        entries = [(WEATHER_ENTRY + p.id, f"Weather: {p.name}") for p in self.presets]
        entries += [(AIR_ENTRY + d.id, f"Air: {d.name} ({d.density_kg_m3:.3f} kg/m³)") for d in self.densities]
        return entries

    def on_menu_selected(self, entry: str) -> None:
        try:
            if entry.startswith(WEATHER_ENTRY):
                self.set(preset=entry[len(WEATHER_ENTRY):])
            elif entry.startswith(AIR_ENTRY):
                self.set(density=entry[len(AIR_ENTRY):])
            else:
                return
        except ValueError as exc:  # a menu entry never crashes the game
            self.app.emit(events.MESSAGE, f"Weather: {exc}")
            return
        self.app.emit(events.MESSAGE, f"Weather: {self.weather.describe()}")

    def on_level_reloaded(self, errors) -> None:
        """A level reloaded fine: its presets replace the menu's, and the weather in force is
        re-read from the file if its preset is still there (a designer sees the edit live)."""
        if errors:
            return
        menu = self.app.try_resource(Menu)
        if menu is not None:
            menu.entries[:] = [e for e in menu.entries if not e[0].startswith((WEATHER_ENTRY, AIR_ENTRY))]
            for entry, label in self.menu_entries():
                menu.add(entry, label)
            menu.index = min(menu.index, max(0, len(menu.entries) - 1))
        for p in self.presets:
            if p.id == self.weather.preset_id:
                self.weather.apply(p)

    def set(self, *, wind=None, density: float | str | None = None, gusts: float | None = None,
            rain: float | None = None, preset: str | None = None) -> None:
        """Apply a preset (if given), then each value given; all checked before any is set."""
        base = self.preset(preset) if preset is not None else None
        if isinstance(density, str):
            density = self.density(density)
        w = self.weather
        check_weather((base.density_kg_m3 if base else w.density_kg_m3) if density is None else density,
                      (base.wind_m_s if base else w.wind_m_s) if wind is None else wind)
        if gusts is not None:
            check_gusts(gusts)
        if rain is not None:
            check_rain(rain)
        if base is not None:
            w.apply(base)
        changed_by_hand = False
        if density is not None:
            w.density_kg_m3 = float(density)
            changed_by_hand = True
        if wind is not None:
            w.wind_m_s = tuple(float(x) for x in wind)
            w.wind_now_m_s[:] = w.wind_m_s
            changed_by_hand = True
        if gusts is not None:
            w.gust_intensity_m_s = float(gusts)
            changed_by_hand = True
        if rain is not None:
            w.rain_mm_h = float(rain)
            changed_by_hand = True
        if changed_by_hand:
            w.preset_id = ""


class WeatherPlugin:
    """Weather presets in the menu, gusts each tick before the dynamics."""

    name = "weather"

    def build(self, app: App) -> None:
        config = app.resource(SceneConfig)
        weather = app.try_resource(Weather) or app.insert_resource(Weather())
        choices = app.insert_resource(WeatherChoices(app, weather))
        menu = app.try_resource(Menu) or app.insert_resource(Menu())
        for entry, label in choices.menu_entries():
            menu.add(entry, label)
        turbulence = DrydenTurbulence(config.seed, app.clock.tick_s, weather.wind_m_s, weather.gust_intensity_m_s)
        app.add_system(BlowWind(weather, turbulence), Stage.CONTROL)
        app.on(events.MENU_SELECTED, choices.on_menu_selected)
        app.on(events.LEVEL_RELOADED, choices.on_level_reloaded)


def set_weather(app: App, **values) -> None:
    """Change the weather of a running App (see `WeatherChoices.set`)."""
    choices = app.try_resource(WeatherChoices)
    if choices is None:
        choices = WeatherChoices(app, app.resource(Weather))
    choices.set(**values)
