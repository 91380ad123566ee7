"""CONTROL stage (fixed tick, before DYNAMICS): blow this tick's wind.

Writes `Weather.wind_now_m_s` — the mean wind plus a Dryden-style gust — which the dynamics
read in the same tick. A change of mean wind or gust intensity (a preset, the menu, the
headless API) reconfigures the turbulence without restarting it. With no gusts the wind now
is the mean wind and nothing runs per tick.
"""

from __future__ import annotations

import esper

from world.turbulence import DrydenTurbulence
from world.weather import Weather


class BlowWind(esper.Processor):
    def __init__(self, weather: Weather, turbulence: DrydenTurbulence) -> None:
        self.weather = weather
        self.turbulence = turbulence
        self._wind = None  # the mean wind tuple the turbulence was configured for
        self._sigma = -1.0
        self._gusty = False

    def process(self, dt: float) -> None:
        weather = self.weather
        if weather.wind_m_s is not self._wind or weather.gust_intensity_m_s != self._sigma:
            self._reconfigure()
        if self._gusty:
            self.turbulence.step_into(weather.wind_now_m_s)

    def _reconfigure(self) -> None:
        weather = self.weather
        self._wind = weather.wind_m_s
        self._sigma = weather.gust_intensity_m_s
        self._gusty = self._sigma > 0.0
        self.turbulence.configure(self._wind, self._sigma)
        if not self._gusty:
            weather.wind_now_m_s[:] = self._wind
