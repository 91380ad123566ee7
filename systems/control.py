"""CONTROL stage: run each drone's control law and command its four motors.

Every drone of a `FleetStore` block is flown in one compiled call (flight/fleet.py
`control_block`); the law each flies is chosen from its mode once a frame (`choose_laws`).

The mode picks the law: MANUAL STABILISED and the assists fly the stabilised
velocity/altitude controller, Angle and Acro the laboratory models, a mod's mode the law it
was registered with (systems/modes.py `FlightModes`). The laws read the
Controller's setpoint arrays directly (`ctrl.targets`, `ctrl.lab`: what the pilot's systems
and the assists wrote, no copy). The motors are armed only while MotorPower > 0 and the pack
is not empty: at exactly 0 the four commanded thrusts are zero (manual and assists alike),
nothing bypasses the cut.
"""

from __future__ import annotations

import esper

from components.fleet import FleetStore
from components.flight import Controller
from components.layout import HOLD_LINE, LAW, LAW_STABILISED
from components.modes import Mode
from engine.app import App
from engine.stages import Stage
from flight.fleet import column_starts, control_block
from systems.modes import FlightModes
from world.weather import Weather

_MANUAL = Mode.MANUAL  # a module global: Python 3.11 takes ~0.1 µs to look an enum member up on its class


class RunFlightController(esper.Processor):
    """Every drone's control law, one compiled call per block of drones (flight/fleet.py)."""

    def __init__(self, app: App, weather: Weather, modes: FlightModes) -> None:
        self.app = app
        self.weather = weather
        self.specs = modes.specs  # mode → ModeSpec (its law), live
        self._frame = -1

    def process(self, dt: float) -> None:
        store = self.app.try_resource(FleetStore)
        if store is None:
            return
        cols = self.ready(store)
        density = self.weather.density_kg_m3
        for b, block in enumerate(store.blocks):
            rows = store.rows(b)
            if rows.shape[0]:
                control_block(block, rows, cols, density, dt)

    def ready(self, store: FleetStore):
        """The laws chosen for this frame; returns `cols`, where each table starts in a row
        (flight/fleet.py COL_*), what the kernel reads."""
        if self.app.frame_count != self._frame:  # modes change between ticks only: once a frame is enough
            self._frame = self.app.frame_count
            self.choose_laws()
        if store is not self._store:
            self._store, self._cols = store, column_starts(store.columns)
        return self._cols

    _store: FleetStore | None = None
    _cols = None

    def choose_laws(self) -> None:
        """Each drone's law from its mode, and whether it keeps to its line (a manual cruise;
        assists steer on their own). Written again only when a drone came or went, a mode was
        registered or a drone's mode changed: most frames, the drones' modes are compared."""
        specs = self.specs
        query = esper.get_component(Controller)
        if query is self._laws_for and len(specs) == self._specs_seen:
            for ctrl, mode in self._modes:
                if ctrl.mode is not mode:
                    break
            else:
                return
        self._laws_for, self._specs_seen = query, len(specs)  # modes are registered, never removed
        self._modes = [(ctrl, ctrl.mode) for _, ctrl in query]
        for ctrl, mode in self._modes:
            targets = ctrl.targets
            spec = specs.get(mode)
            targets[LAW] = LAW_STABILISED if spec is None else spec.law
            targets[HOLD_LINE] = 1.0 if mode == _MANUAL else 0.0

    _laws_for = None  # the Controller list (esper's, rebuilt when a component comes or goes) laws were written for
    _specs_seen = -1  # how many modes were registered then
    _modes: list = []  # (controller, its mode) then

class ControlPlugin:
    """The control laws, every fixed tick."""

    name = "control"

    def build(self, app: App) -> None:
        weather = app.try_resource(Weather) or app.insert_resource(Weather())
        app.add_system(RunFlightController(app, weather, app.resource(FlightModes)), Stage.CONTROL)
