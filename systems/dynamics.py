"""DYNAMICS stage: integrate battery, motors and rigid body for one fixed sub-step."""

from __future__ import annotations

import esper
import numpy as np

from components.flight import Airframe, Battery, RigidBody, Rotors
from flight.dynamics import step_dynamics
from world.weather import Weather


class IntegrateDynamics(esper.Processor):
    def __init__(self, weather: Weather) -> None:
        self.weather = weather
        self._wind = np.zeros(3)

    def process(self, dt: float) -> None:
        density = self.weather.density_kg_m3
        wind = self._wind
        wind[:] = self.weather.wind_now_m_s
        for _, (frame, body, rotors, battery) in esper.get_components(Airframe, RigidBody, Rotors, Battery):
            step_dynamics(body.state, rotors.state, battery.state, frame.vehicle.packed, density, wind, dt)
