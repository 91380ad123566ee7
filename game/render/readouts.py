"""The player HUD's numbers: compass bearings, minutes of battery left, flight time. Pure Python.

North is world +Y and east world +X (docs/model.md#units-and-frames, levels/README.md): a
bearing is measured from north, clockwise, 0 … 359°. The drone's yaw is counter-clockwise
from world +X, so its heading as a bearing is (90° − yaw) mod 360.
"""

from __future__ import annotations

import math

POINTS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # the eight compass points, from north clockwise


def bearing_deg(x: float, y: float) -> float:
    """Bearing of the world vector (x, y): 0° = north (+Y), 90° = east (+X), in [0, 360)."""
    return math.degrees(math.atan2(x, y)) % 360.0


def heading_bearing_deg(yaw_deg: float) -> float:
    """The drone's heading as a bearing, from its yaw (degrees counter-clockwise from +X)."""
    return (90.0 - yaw_deg) % 360.0


def whole_bearing(bearing: float) -> int:
    """A bearing in whole degrees, 0 … 359 (359.7° reads 000°, not 360°)."""
    return round(bearing) % 360


def compass_point(bearing: float) -> str:
    """The nearest of N, NE, E, SE, S, SW, W, NW."""
    return POINTS[round((bearing % 360.0) / 45.0) % 8]


def wind_from_bearing(wind_x: float, wind_y: float) -> float:
    """Where a wind blowing along (x, y) comes FROM, as a bearing (meteorological convention)."""
    return bearing_deg(-wind_x, -wind_y)


def minutes_left(energy_wh: float, power_w: float) -> float | None:
    """Minutes the pack lasts at the present draw: E / P (Wh → J: × 3600; s → min: / 60).
    None when nothing is drawn (no finite figure)."""
    if not (math.isfinite(energy_wh) and math.isfinite(power_w)) or power_w <= 1e-6:
        return None
    return max(0.0, energy_wh) * 60.0 / power_w


def clock(seconds: float) -> str:
    """'m:ss' (under an hour) or 'h:mm:ss'."""
    s = max(0, int(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
