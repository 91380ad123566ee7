"""Rain under clouds: the level's lighting darkened by the weather's rain (pure, no GL).

Rain falls from thick cloud: the sun is hidden, the sky turns grey and darker, the light
dims and the distance hazes over. One overcast weight, smooth in the rain rate and 0 when
dry,

    overcast = 1 − exp(−rain_mm_h / RAIN_OVERCAST_MM_H)

(0.55 for the 8 mm/h shower, 0.92 at 25 mm/h, 0.99 at 50 mm/h) scales every change:

- the sun's intensity × (1 − `SUN_HIDDEN` · overcast);
- the ambient light × (1 − `AMBIENT_DIMMED` · overcast);
- the sky's zenith and horizon and the fog colour mixed towards `OVERCAST_SKY` (a dark grey;
  a channel already darker stays as it is: rain never brightens a sky) by `SKY_GREYED` · overcast;
- the fog's start and end distances × (1 − `FOG_CLOSER` · overcast).

The renderer clears to, lights with and builds the sky cap from `rain_lighting(level's
lighting, weather.rain_mm_h)`; the rain streaks themselves are passes/rain.py.
"""

from __future__ import annotations

import math

from world.level import Lighting

RAIN_OVERCAST_MM_H = 10.0  # mm/h: the rain rate at which the overcast weight is 1 − 1/e
SUN_HIDDEN = 0.8
AMBIENT_DIMMED = 0.3
SKY_GREYED = 0.75
OVERCAST_SKY = (0.40, 0.43, 0.47)  # a rain cloud's grey, linear 0–1 RGB
FOG_CLOSER = 0.6


def overcast(rain_mm_h: float) -> float:
    """0 (dry) … → 1 (heavy rain), smooth and increasing in the rain rate."""
    return 1.0 - math.exp(-max(0.0, float(rain_mm_h)) / RAIN_OVERCAST_MM_H)


def _hex(colour: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(min(1.0, max(0.0, c)) * 255):02x}" for c in colour)


def _towards_grey(colour: str, weight: float) -> str:
    rgb = tuple(int(colour[i:i + 2], 16) / 255.0 for i in (1, 3, 5))
    return _hex(tuple(c + (min(g, c) - c) * weight for c, g in zip(rgb, OVERCAST_SKY)))


def rain_lighting(lighting: Lighting, rain_mm_h: float) -> Lighting:
    """`lighting` under the cloud of `rain_mm_h` of rain (the same object when dry)."""
    w = overcast(rain_mm_h)
    if w <= 0.0:
        return lighting
    grey = SKY_GREYED * w
    return lighting.model_copy(update={
        "sun_intensity": lighting.sun_intensity * (1.0 - SUN_HIDDEN * w),
        "ambient": lighting.ambient * (1.0 - AMBIENT_DIMMED * w),
        "sky_zenith": _towards_grey(lighting.sky_zenith, grey),
        "sky_horizon": _towards_grey(lighting.sky_horizon, grey),
        "fog_colour": _towards_grey(lighting.fog_colour, grey),
        "fog_start": lighting.fog_start * (1.0 - FOG_CLOSER * w),
        "fog_end": lighting.fog_end * (1.0 - FOG_CLOSER * w),
    })
