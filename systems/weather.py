"""The weather feature: presets a player can pick, gusts every tick, the headless setter.

`WeatherPlugin` adds the `WeatherChoices` resource (the level's weather presets — or the
built-in ones in a world without a level — and the density presets), one menu entry per
preset (`weather:<id>`, `air:<id>`), and the `BlowWind` system that writes this tick's wind.
`set_weather(app, …)` is what `Simulation.set_weather` does.

BlowWind runs in the CONTROL stage (every fixed tick, before DYNAMICS): it writes
`Weather.wind_now_m_s` — the mean wind plus a Dryden-style gust — which the dynamics read in
the same tick. A change of mean wind or gust intensity (a preset, the menu, the headless API)
reconfigures the turbulence without restarting it. With no gusts the wind now is the mean
wind and nothing runs per tick.

Weather is an experimental environment (docs/model.md#weather): it proves nothing about a real
Tello in wind or rain. Rain is visual only, and the HUD says so while it rains.
"""

from __future__ import annotations

from functools import partial

import esper

from components import events
from engine.app import App
from engine.stages import Stage
from systems.menu import AIR_PREFIX, WEATHER_PREFIX, Menu, MenuEntry
from systems.scene import SceneConfig
from world.turbulence import DrydenTurbulence
from world.weather import (BUILTIN_PRESETS, DENSITY_PRESETS, DensityPreset, Weather, WeatherPreset, check_gusts,
                           check_rain, check_weather)


class BlowWind(esper.Processor):
    def __init__(self, weather: Weather, turbulence: DrydenTurbulence) -> None:
        self.weather = weather
        self.turbulence = turbulence
        self._wind = None  # the mean wind tuple the turbulence was configured for
        self._sigma = -1.0
        self._gusty = False

    def process(self, dt: float) -> None:
        if not self.steady():
            self.turbulence.step_into(self.weather.wind_now_m_s)

    def steady(self) -> bool:
        """Whether the wind blows without gusts (then `wind_now_m_s` is the mean wind, tick
        after tick), after taking in a change of the weather."""
        weather = self.weather
        if weather.wind_m_s is not self._wind or weather.gust_intensity_m_s != self._sigma:
            self._reconfigure()
        return not self._gusty

    def _reconfigure(self) -> None:
        weather = self.weather
        self._wind = weather.wind_m_s
        self._sigma = weather.gust_intensity_m_s
        self._gusty = self._sigma > 0.0
        self.turbulence.configure(self._wind, self._sigma)
        if not self._gusty:
            weather.wind_now_m_s[:] = self._wind


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

    def menu_entries(self) -> list[MenuEntry]:
        entries = [MenuEntry(WEATHER_PREFIX + p.id, f"Weather: {p.name}", partial(self.choose, preset=p.id), "weather")
                   for p in self.presets]
        entries += [MenuEntry(AIR_PREFIX + d.id, f"Air: {d.name} ({d.density_kg_m3:.3f} kg/m³)",
                              partial(self.choose, density=d.id), "air") for d in self.densities]
        return entries

    def choose(self, **values) -> None:
        """A menu entry's action: apply, and say what the weather is now."""
        try:
            self.set(**values)
        except ValueError as exc:  # a menu entry never crashes the game
            self.app.emit(events.Message(f"Weather: {exc}"))
            return
        # the HUD names the preset in its language: key "weather", args (kind, preset id, name)
        kind, chosen = ("weather", values["preset"]) if "preset" in values else ("air", values.get("density"))
        names = {p.id: p.name for p in (*self.presets, *self.densities)}
        self.app.emit(events.Message(f"Weather: {self.weather.describe()}", "weather",
                                     (kind, chosen, names.get(chosen, str(chosen)))))

    def on_level_reloaded(self, event: events.LevelReloaded) -> None:
        """A level reloaded fine: its presets replace the menu's, and the weather in force is
        re-read from the file if its preset is still there (a designer sees the edit live)."""
        if event.errors:
            return
        menu = self.app.try_resource(Menu)
        if menu is not None:
            menu.remove_group("weather")
            menu.remove_group("air")
            for entry in self.menu_entries():
                menu.add(entry)
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
        for entry in choices.menu_entries():
            menu.add(entry)
        turbulence = DrydenTurbulence(config.seed, app.clock.tick_s, weather.wind_m_s, weather.gust_intensity_m_s)
        app.add_system(BlowWind(weather, turbulence), Stage.CONTROL)
        app.on(events.LevelReloaded, choices.on_level_reloaded)


def set_weather(app: App, **values) -> None:
    """Change the weather of a running App (see `WeatherChoices.set`)."""
    choices = app.try_resource(WeatherChoices)
    if choices is None:
        choices = WeatherChoices(app, app.resource(Weather))
    choices.set(**values)
