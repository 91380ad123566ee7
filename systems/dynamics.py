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

from components.fleet import FleetStore
from components.flight import ExternalWrench
from components.world import FleetRow
from engine.app import App
from engine.stages import Stage
from flight.fleet import HAS_WRENCH, column_starts, dynamics_block
from world.weather import Weather


class IntegrateDynamics(esper.Processor):
    """Every drone's sub-step, one compiled call per block of drones (flight/fleet.py)."""

    def __init__(self, app: App, weather: Weather) -> None:
        self.app = app
        self.weather = weather
        self._wind = np.zeros(3)
        self._wind_copied: list[float] = [0.0, 0.0, 0.0]  # what `_wind` holds, as the weather gave it
        self._store: FleetStore | None = None
        self._cols = None
        self._query: list | None = None  # esper's cached (entity, ExternalWrench) list the plan was made from
        self._wrenches: list = []  # (the wrench's own array, the drone's wrench columns)

    def process(self, dt: float) -> None:
        store = self.app.try_resource(FleetStore)
        if store is None:
            return
        wind = self.ready(store)
        density = self.weather.density_kg_m3
        cols = self._cols
        for b, block in enumerate(store.blocks):
            rows = store.rows(b)
            if rows.shape[0]:
                dynamics_block(block, rows, cols, density, wind, dt)

    def ready(self, store: FleetStore) -> np.ndarray:
        """Each drone's ExternalWrench copied into its row; returns the tick's wind, m/s (world
        frame), what the kernel reads."""
        if store is not self._store:
            self._store, self._cols = store, column_starts(store.columns)
        query = esper.get_component(ExternalWrench)
        if query is not self._query:  # a new list: esper rebuilt it, a component came or went
            self._plan_wrenches(store, query)
        for own, columns in self._wrenches:  # a mod writes its wrench's array: the kernel reads the row
            columns[:] = own
        wind = self._wind
        now = self.weather.wind_now_m_s  # a list, changed in place tick after tick by gusts
        if now != self._wind_copied:  # steady wind: compared, not copied again
            wind[0], wind[1], wind[2] = now  # three item writes: a third of a slice copy's cost
            self._wind_copied = list(now)
        return wind

    def _plan_wrenches(self, store: FleetStore, query: list) -> None:
        self._query = query
        with_wrench = {entity: wrench for entity, wrench in query}
        self._wrenches = []
        for entity, where in esper.get_component(FleetRow):
            flags = store.view(where.block, where.row, "flags")
            wrench = with_wrench.get(entity)
            flags[HAS_WRENCH] = 0.0 if wrench is None else 1.0
            if wrench is not None:
                self._wrenches.append((wrench.state, store.view(where.block, where.row, "wrench")))


class DynamicsPlugin:
    """The flight model's integration, every fixed tick."""

    name = "dynamics"

    def build(self, app: App) -> None:
        weather = app.try_resource(Weather) or app.insert_resource(Weather())
        app.add_system(IntegrateDynamics(app, weather), Stage.DYNAMICS)
