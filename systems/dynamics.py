"""DYNAMICS stage: integrate battery, motors and rigid body for one fixed sub-step.

An entity with an `ExternalWrench` (a physics mod's tether, magnet, downdraft) has it applied
inside the compiled integration; the others are integrated without it, at the cost they had
before the wrench existed: which entity has one is looked up only when esper rebuilt its
query, i.e. when a component was added or removed (esper drops its query cache then), never
per tick.
"""

from __future__ import annotations

import esper
import numpy as np

from components.flight import Airframe, Battery, ExternalWrench, RigidBody, Rotors
from engine.app import App
from engine.stages import Stage
from flight.dynamics import step_dynamics, step_dynamics_with_wrench
from world.weather import Weather


class IntegrateDynamics(esper.Processor):
    def __init__(self, weather: Weather) -> None:
        self.weather = weather
        self._wind = np.zeros(3)
        self._query: list | None = None  # esper's cached result the plan below was made from
        self._plan: list = []  # per entity: its Airframe, then the state arrays (the wrench's or None)

    def process(self, dt: float) -> None:
        density = self.weather.density_kg_m3
        wind = self._wind
        wind[:] = self.weather.wind_now_m_s
        query = esper.get_components(Airframe, RigidBody, Rotors, Battery)
        if query is not self._query:  # a new list: esper rebuilt it, a component came or went
            self._query = query
            self._plan = [(frame, body.state, rotors.state, battery.state,
                           _state_of(esper.try_component(entity, ExternalWrench)))
                          for entity, (frame, body, rotors, battery) in query]
        for frame, body, rotors, battery, wrench in self._plan:  # a component's array is its for life
            if wrench is None:
                step_dynamics(body, rotors, battery, frame.vehicle.physics, density, wind, dt)
            else:
                step_dynamics_with_wrench(body, rotors, battery, frame.vehicle.physics, density, wind, dt, wrench)


def _state_of(component):
    return None if component is None else component.state


class DynamicsPlugin:
    """The flight model's integration, every fixed tick."""

    name = "dynamics"

    def build(self, app: App) -> None:
        weather = app.try_resource(Weather) or app.insert_resource(Weather())
        app.add_system(IntegrateDynamics(weather), Stage.DYNAMICS)
