"""DYNAMICS stage: integrate battery, motors and rigid body for one fixed sub-step."""

from __future__ import annotations

import esper

from components.flight import Airframe, Battery, RigidBody, Rotors
from flight.battery import step_battery
from flight.dynamics import step_body, step_motors
from world.weather import Weather


class IntegrateDynamics(esper.Processor):
    def __init__(self, weather: Weather) -> None:
        self.weather = weather

    def process(self, dt: float) -> None:
        density = self.weather.density_kg_m3
        wind = self.weather.wind_now_m_s
        for _, (frame, body, rotors, battery) in esper.get_components(Airframe, RigidBody, Rotors, Battery):
            vehicle = frame.vehicle
            body.previous_position[:] = body.position
            step_battery(battery, rotors, vehicle, density, dt)
            step_motors(rotors, vehicle, density, dt)
            step_body(body, rotors, vehicle, density, wind, dt)
