"""Weather: the air the drone flies through (MODEL §5). An experimental environment.

Wind acts only through the relative airspeed in the drag model (forces and the 2 mm offset
moment); density through thrust, angular damping and induced power. Nothing here claims
anything about a real Tello in wind or rain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

SEA_LEVEL_DENSITY = 1.225  # kg/m³, ISA


@dataclass
class Weather:
    """World-wide air state (a resource)."""

    density_kg_m3: float = SEA_LEVEL_DENSITY
    wind_m_s: tuple[float, float, float] = (0.0, 0.0, 0.0)  # mean wind, world frame
    wind_now_m_s: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # with gusts, this tick
    rain_mm_h: float = 0.0  # visual only

    def __post_init__(self) -> None:
        check_weather(self.density_kg_m3, self.wind_m_s)
        self.wind_m_s = tuple(float(w) for w in self.wind_m_s)
        self.wind_now_m_s = list(self.wind_m_s)


def check_weather(density_kg_m3: float, wind_m_s) -> None:
    """ValueError with a clear message for a density or wind no flight could use."""
    if not isinstance(density_kg_m3, (int, float)) or not math.isfinite(density_kg_m3) or density_kg_m3 < 0.0:
        raise ValueError(f"density: expected a finite number ≥ 0 kg/m³, got {density_kg_m3!r}")
    try:
        values = [float(w) for w in wind_m_s]
    except (TypeError, ValueError):
        raise ValueError(f"wind: expected (x, y, z) in m/s, got {wind_m_s!r}") from None
    if len(values) != 3 or not all(math.isfinite(w) for w in values):
        raise ValueError(f"wind: expected three finite numbers (x, y, z) in m/s, got {wind_m_s!r}")
