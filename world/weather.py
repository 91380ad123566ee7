"""Weather: the air the drone flies through (docs/model.md#weather). An experimental environment.

Wind acts only through the relative airspeed in the drag model (forces and the 2 mm offset
moment); density through thrust, angular damping and induced power. Nothing here claims
anything about a real Tello in wind or rain.

* **Wind** `wind_m_s` is the mean air velocity, world frame (the direction the air moves
  toward). `wind_now_m_s` is that mean plus this tick's gust; the dynamics read it every
  1/240 s tick. Gusts come from `world.turbulence` (a Dryden-style model) with an intensity
  `gust_intensity_m_s` (standard deviation of the horizontal gust components).
* **Density** `density_kg_m3`: set directly, from a preset (sea level, 2 000 m, hot day) or
  from altitude and temperature with the International Standard Atmosphere (`isa_density`).
* **Rain** `rain_mm_h` is drawn by the window only: its effects on the drone (water in the
  electronics, drop impacts, added mass) are not modelled. The renderer reads `rain_level`
  (how hard to draw it); the HUD reads `rain_mm_h` and says, in its own words, that rain is
  visual only.

A `WeatherPreset` bundles wind, gusts, density and rain under an id and a name; levels carry
their own, and `BUILTIN_PRESETS` serve a world without any.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

SEA_LEVEL_DENSITY = 1.225  # kg/m³, ISA

# International Standard Atmosphere, troposphere (ICAO Doc 7488)
ISA_SEA_LEVEL_TEMPERATURE_K = 288.15
ISA_SEA_LEVEL_PRESSURE_PA = 101_325.0
ISA_LAPSE_RATE_K_M = 0.0065
AIR_GAS_CONSTANT_J_KG_K = 287.052_87
STANDARD_GRAVITY_M_S2 = 9.806_65
ISA_TROPOPAUSE_M = 11_000.0

HEAVY_RAIN_MM_H = 50.0  # "violent" rain above this (AMS glossary): the renderer's full intensity


def check_weather(density_kg_m3: float, wind_m_s) -> None:
    """ValueError with a clear message for a density or wind no flight could use."""
    if isinstance(density_kg_m3, bool) or not isinstance(density_kg_m3, (int, float)) or not math.isfinite(density_kg_m3) or density_kg_m3 < 0.0:
        raise ValueError(f"density: expected a finite number ≥ 0 kg/m³, got {density_kg_m3!r}")
    if isinstance(wind_m_s, (str, bytes)):
        raise ValueError(f"wind: expected (x, y, z) in m/s, got {wind_m_s!r}")
    try:
        values = [float(w) for w in wind_m_s]
    except (TypeError, ValueError):
        raise ValueError(f"wind: expected (x, y, z) in m/s, got {wind_m_s!r}") from None
    if len(values) != 3 or not all(math.isfinite(w) for w in values):
        raise ValueError(f"wind: expected three finite numbers (x, y, z) in m/s, got {wind_m_s!r}")


def check_gusts(intensity_m_s) -> None:
    if isinstance(intensity_m_s, bool) or not isinstance(intensity_m_s, (int, float)) or not math.isfinite(intensity_m_s) or not 0.0 <= intensity_m_s <= 30.0:
        raise ValueError(f"gusts: expected an intensity in [0, 30] m/s, got {intensity_m_s!r}")


def check_rain(rain_mm_h) -> None:
    if isinstance(rain_mm_h, bool) or not isinstance(rain_mm_h, (int, float)) or not math.isfinite(rain_mm_h) or not 0.0 <= rain_mm_h <= 500.0:
        raise ValueError(f"rain: expected an intensity in [0, 500] mm/h, got {rain_mm_h!r}")


def isa_density(altitude_m: float, temperature_c: float | None = None) -> float:
    """Air density (kg/m³) at a pressure altitude, ISA troposphere.

    Args:
        altitude_m: pressure altitude above mean sea level, m, in [-500, 11 000].
        temperature_c: actual air temperature, °C; None for the ISA temperature at that
            altitude. A hot day keeps the ISA pressure but warms the air: ρ = p / (R T).
    """
    if not isinstance(altitude_m, (int, float)) or not math.isfinite(altitude_m) or not -500.0 <= altitude_m <= ISA_TROPOPAUSE_M:
        raise ValueError(f"altitude: expected a number of metres in [-500, 11000], got {altitude_m!r}")
    t_isa = ISA_SEA_LEVEL_TEMPERATURE_K - ISA_LAPSE_RATE_K_M * altitude_m
    exponent = STANDARD_GRAVITY_M_S2 / (AIR_GAS_CONSTANT_J_KG_K * ISA_LAPSE_RATE_K_M)
    pressure_pa = ISA_SEA_LEVEL_PRESSURE_PA * (t_isa / ISA_SEA_LEVEL_TEMPERATURE_K) ** exponent
    if temperature_c is None:
        t = t_isa
    else:
        if not isinstance(temperature_c, (int, float)) or not math.isfinite(temperature_c) or not -80.0 <= temperature_c <= 60.0:
            raise ValueError(f"temperature: expected a number of °C in [-80, 60], got {temperature_c!r}")
        t = temperature_c + 273.15
    return pressure_pa / (AIR_GAS_CONSTANT_J_KG_K * t)


@dataclass(frozen=True)
class DensityPreset:
    id: str
    name: str
    density_kg_m3: float


DENSITY_PRESETS: tuple[DensityPreset, ...] = (
    DensityPreset("sea_level", "Sea level, 15 °C", SEA_LEVEL_DENSITY),
    DensityPreset("altitude_2000m", "2 000 m, ISA (5 °C)", isa_density(2000.0)),
    DensityPreset("hot_day", "Hot day, sea level, 35 °C", isa_density(0.0, 35.0)),
)


@dataclass(frozen=True)
class WeatherPreset:
    """A named weather: mean wind (world m/s), gust intensity (m/s), density, rain."""

    id: str
    name: str
    wind_m_s: tuple[float, float, float] = (0.0, 0.0, 0.0)
    gust_intensity_m_s: float = 0.0
    density_kg_m3: float = SEA_LEVEL_DENSITY
    rain_mm_h: float = 0.0

    def __post_init__(self) -> None:
        check_weather(self.density_kg_m3, self.wind_m_s)
        check_gusts(self.gust_intensity_m_s)
        check_rain(self.rain_mm_h)
        object.__setattr__(self, "wind_m_s", tuple(float(w) for w in self.wind_m_s))


BUILTIN_PRESETS: tuple[WeatherPreset, ...] = (
    WeatherPreset("calm", "Calm"),
    WeatherPreset("breeze", "Breeze, light gusts", (2.5, 1.0, 0.0), 0.5),
    WeatherPreset("gusty", "Strong wind, gusts", (5.0, -2.0, 0.0), 1.5),
    WeatherPreset("shower", "Rain shower, light wind", (1.5, 0.5, 0.0), 0.4, rain_mm_h=8.0),
)


@dataclass
class Weather:
    """World-wide air state (a resource)."""

    density_kg_m3: float = SEA_LEVEL_DENSITY
    wind_m_s: tuple[float, float, float] = (0.0, 0.0, 0.0)  # mean wind, world frame
    wind_now_m_s: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # with gusts, this tick
    rain_mm_h: float = 0.0  # visual only
    gust_intensity_m_s: float = 0.0  # σ of the horizontal gust components; 0: steady wind
    preset_id: str = ""  # the preset last applied, "" when set by hand

    def __post_init__(self) -> None:
        check_weather(self.density_kg_m3, self.wind_m_s)
        check_gusts(self.gust_intensity_m_s)
        check_rain(self.rain_mm_h)
        self.wind_m_s = tuple(float(w) for w in self.wind_m_s)
        self.wind_now_m_s = list(self.wind_m_s)

    def apply(self, preset: WeatherPreset) -> None:
        """Take a preset's wind, gusts, density and rain."""
        self.density_kg_m3 = float(preset.density_kg_m3)
        self.wind_m_s = tuple(float(w) for w in preset.wind_m_s)
        self.wind_now_m_s[:] = self.wind_m_s
        self.gust_intensity_m_s = float(preset.gust_intensity_m_s)
        self.rain_mm_h = float(preset.rain_mm_h)
        self.preset_id = preset.id

    @property
    def rain_level(self) -> float:
        """Rain for the renderer, 0 (dry) … 1 (heavy, ≥ 50 mm/h)."""
        return min(1.0, max(0.0, self.rain_mm_h / HEAVY_RAIN_MM_H))

    def describe(self) -> str:
        """One line: wind speed and direction, gusts, density, rain."""
        wx, wy, wz = self.wind_m_s
        speed = math.sqrt(wx * wx + wy * wy + wz * wz)
        # meteorological convention: where the wind comes FROM, as a compass bearing (north = world +Y)
        parts = [f"wind {speed:.1f} m/s" + (f" from {round(math.degrees(math.atan2(-wx, -wy))) % 360:03d}°" if speed > 0 else "")]
        if self.gust_intensity_m_s > 0:
            parts.append(f"gusts σ {self.gust_intensity_m_s:.1f} m/s")
        parts.append(f"air {self.density_kg_m3:.3f} kg/m³")
        if self.rain_mm_h > 0:
            parts.append(f"rain {self.rain_mm_h:g} mm/h (visual only)")
        return ", ".join(parts)
